//! Local-first sync through the user's own Worker, end-to-end encrypted: each user has a server-ordered
//! log of opaque entries (the client encrypts each one; the server orders, stores and relays strings it
//! cannot read), kept in the user's Durable Object (`DO_SHARDS = "scope"`: the user's own object; `"tenant"`:
//! the tenant's, under keys of the user), apart from the memory engine. Clients number their mutations
//! (`clientId` and `n`, so a retried push is applied once) and pull by the server's sequence numbers.
//!
//! | route | body / query | answer |
//! |---|---|---|
//! | `POST /v1/sync/push` | `{clientId, entries: [{n, data}], userId?}` | `{logId, lastN, head, accepted}` |
//! | `GET /v1/sync/pull` | `?since&limit&clientId&deviceId&userId` | `{logId, entries: [{seq, clientId, n, data}], head, floor, more, compact}` |
//! | `POST /v1/sync/compact` | `{deviceId, snapshotId, upTo, entries: [{n, data}], total?, userId?}` | `{staged, compacted, floor}` |
//! | `GET /v1/sync` | `?userId` | `{logId, head, floor, entries, bytes, mode, clients: [{clientId, lastN, pulled}], devices}` |
//! | `DELETE /v1/sync` | `?userId` | `{deleted, logId}` (the new log's id) |
//!
//! A user's token reaches its own log, a tenant-wide token the log of the user it names (`user`). With
//! `STORAGE = "kv"` every route answers 501 `SYNC_NEEDS_DURABLE_OBJECTS`.

mod client_id;
mod compact;
mod devices;
mod log;
mod pull;
mod push;
pub mod route;
mod store;
pub mod user;

use serde_json::json;
use worker::Response;

use self::log::Log;
use self::route::SyncRoute;
use crate::error::ApiError;
use crate::settings;
use crate::visit::Visit;

/// Answers `route`, a request under `/v1/sync` (admitted and read by the desk; `None`: no route of the
/// family), in the object that keeps the user's log.
pub async fn handle(visit: &Visit<'_>, route: Option<SyncRoute>) -> Result<Response, ApiError> {
    let Some(route) = route else {
        return Err(ApiError::not_found(format!("route {} {}", visit.method, visit.path)));
    };
    let Some(storage) = visit.later.storage() else {
        let why = "the /v1/sync routes keep each user's log in a Durable Object: set STORAGE = \"do\" in wrangler.toml";
        return Err(ApiError::new(501, "SYNC_NEEDS_DURABLE_OBJECTS", why));
    };
    let body = match route {
        SyncRoute::Push | SyncRoute::Compact => Some(user::object_of(&visit.body)?),
        _ => None,
    };
    let in_query = visit.query.get(user::USER_FIELD).map(str::to_owned);
    let named = match &body {
        Some(body) => user::either(user::named_in(body)?, in_query)?,
        None => in_query,
    };
    let owner = user::owner(&visit.caller, named.as_deref())?;
    // The front end sent the request to the owner's object under scope sharding: never another user's.
    if visit.shard.as_ref().is_some_and(|shard| *shard != owner) {
        return Err(ApiError::forbidden(format!("this object does not keep the sync log of user {owner:?}")));
    }
    let log = Log::new(storage, &owner);
    let max_entry_bytes = settings::sync_max_entry_bytes(visit.env)?;
    match route {
        SyncRoute::Push => {
            let push = push::parse(body.as_ref().unwrap_or(&Default::default()), max_entry_bytes)?;
            push::push(&log, push, settings::sync_max_log_bytes(visit.env)?).await
        }
        SyncRoute::Pull => {
            let ttl_ms = settings::sync_device_ttl_seconds(visit.env)?.saturating_mul(1000);
            let policy = pull::Policy { ttl_ms, compact_after: settings::sync_compact_after(visit.env)? };
            pull::pull(&log, pull::parse(&visit.query)?, max_entry_bytes, &policy).await
        }
        SyncRoute::Compact => {
            let compact = compact::parse(body.as_ref().unwrap_or(&Default::default()), max_entry_bytes)?;
            let ttl_ms = settings::sync_device_ttl_seconds(visit.env)?.saturating_mul(1000);
            compact::compact(&log, compact, settings::sync_max_log_bytes(visit.env)?, ttl_ms).await
        }
        SyncRoute::Status => status(&log, visit).await,
        SyncRoute::Wipe => {
            refuse_parameters(visit)?;
            let (deleted, meta) = log.wipe().await?;
            Ok(Response::from_json(&json!({ "deleted": deleted, "logId": meta.log_id }))?)
        }
    }
}

/// `GET /v1/sync`: the log's id, head, floor and totals, what it knows of each client and device, and the
/// mode: `relay` (the Worker stores and forwards entries; it does not index them for its REST search).
async fn status(log: &Log, visit: &Visit<'_>) -> Result<Response, ApiError> {
    refuse_parameters(visit)?;
    let meta = log.meta().await?;
    let clients = log
        .clients(&meta)
        .await?
        .into_iter()
        .map(|(id, client)| json!({ "clientId": id, "lastN": client.last_n, "pulled": client.pulled }));
    let devices = log
        .devices(&meta)
        .await?
        .into_iter()
        .map(|(id, device)| json!({ "deviceId": id, "pulled": device.pulled, "at": device.at }));
    let answer = json!({
        "logId": meta.log_id, "head": meta.head, "floor": meta.floor, "entries": meta.entries, "bytes": meta.bytes,
        "mode": "relay", "clients": clients.collect::<Vec<_>>(), "devices": devices.collect::<Vec<_>>(),
    });
    Ok(Response::from_json(&answer)?)
}

/// `INVALID_INPUT` for a query parameter other than `userId`.
fn refuse_parameters(visit: &Visit<'_>) -> Result<(), ApiError> {
    match visit.query.names().find(|name| *name != user::USER_FIELD) {
        Some(unknown) => Err(ApiError::invalid(format!("{unknown}: unknown parameter (this route takes userId)"))),
        None => Ok(()),
    }
}
