//! `POST /v1/sync/push`: `{clientId, entries: [{n, data}], userId?}`. An entry is known by its client and
//! number: one stored already (a retry after a lost reply, or another tab of the same store pushing it too)
//! is skipped, and so is a number repeated within the push, so every entry is stored once. Numbers need not
//! be consecutive nor in order (a device's commits may land in another order than they took their numbers).
//! The new entries are stored in one atomic write with the client's `lastN` (its highest number stored) and
//! the log's new head. Answers `{logId, lastN, head, accepted}`.

use serde_json::{json, Map, Value};
use worker::Response;

use super::client_id::{self, CLIENT_FIELD};
use super::log::{Client, Log};
use super::user::USER_FIELD;
use crate::error::ApiError;

/// Most entries one push takes.
pub const MAX_ENTRIES: usize = 1000;

/// A push, read and checked.
pub struct Push {
    pub client: String,
    /// Each entry's `(n, data)`, in the order sent.
    pub entries: Vec<(u64, String)>,
}

/// The push of `body` (a JSON object, `userId` already read), each entry's data at most `max_entry_bytes`.
pub fn parse(body: &Map<String, Value>, max_entry_bytes: u64) -> Result<Push, ApiError> {
    if let Some(unknown) = body.keys().find(|key| ![CLIENT_FIELD, "entries", USER_FIELD].contains(&key.as_str())) {
        return Err(ApiError::invalid(format!("{unknown}: unknown field (a push takes clientId, entries, userId)")));
    }
    let client = match body.get(CLIENT_FIELD) {
        Some(Value::String(id)) => client_id::checked(id)?,
        _ => return Err(ApiError::invalid(format!("{CLIENT_FIELD}: required, a string"))),
    };
    let Some(Value::Array(listed)) = body.get("entries") else {
        return Err(ApiError::invalid("entries: required, an array of {n, data}"));
    };
    if listed.len() > MAX_ENTRIES {
        return Err(ApiError::invalid(format!("entries: at most {MAX_ENTRIES} per push, got {}", listed.len())));
    }
    let entries = listed.iter().enumerate().map(|(i, entry)| parse_entry(i, entry, max_entry_bytes));
    Ok(Push { client, entries: entries.collect::<Result<_, _>>()? })
}

fn parse_entry(i: usize, entry: &Value, max_entry_bytes: u64) -> Result<(u64, String), ApiError> {
    let Value::Object(entry) = entry else {
        return Err(ApiError::invalid(format!("entries[{i}]: must be {{n, data}}")));
    };
    if let Some(unknown) = entry.keys().find(|key| !["n", "data"].contains(&key.as_str())) {
        return Err(ApiError::invalid(format!("entries[{i}].{unknown}: unknown field (an entry is {{n, data}})")));
    }
    let n = entry.get("n").and_then(Value::as_u64).filter(|n| *n >= 1);
    let n = n.ok_or_else(|| ApiError::invalid(format!("entries[{i}].n: required, an integer of at least 1")))?;
    let data = match entry.get("data") {
        Some(Value::String(data)) if !data.is_empty() => data,
        _ => return Err(ApiError::invalid(format!("entries[{i}].data: required, a non-empty string (entry n={n})"))),
    };
    if data.len() as u64 > max_entry_bytes {
        let why = format!(
            "entry n={n}: its data is {} bytes, more than SYNC_MAX_ENTRY_BYTES ({max_entry_bytes})",
            data.len()
        );
        return Err(ApiError::new(413, "SYNC_ENTRY_TOO_LARGE", why));
    }
    Ok((n, data.clone()))
}

/// Applies `push` to `log`, whose stored data may not grow past `max_log_bytes`.
pub async fn push(log: &Log, push: Push, max_log_bytes: u64) -> Result<Response, ApiError> {
    let meta = log.meta().await?;
    let client = log.client(&meta, &push.client).await?;
    let numbers: Vec<u64> = push.entries.iter().map(|(n, _)| *n).collect();
    let mut seen: std::collections::HashSet<u64> =
        log.stored_numbers(&meta, &push.client, &numbers).await?.into_iter().collect();
    let fresh: Vec<(u64, String)> = push.entries.into_iter().filter(|(n, _)| seen.insert(*n)).collect();
    let accepted = fresh.len() as u64;
    let added: u64 = fresh.iter().map(|(_, data)| data.len() as u64).sum();
    if meta.bytes + added > max_log_bytes {
        let why = format!(
            "the push adds {added} bytes to the {} stored: more than SYNC_MAX_LOG_BYTES ({max_log_bytes})",
            meta.bytes
        );
        return Err(ApiError::new(413, "SYNC_LOG_FULL", why));
    }
    let last_n = fresh.iter().map(|(n, _)| *n).fold(client.last_n, u64::max);
    let meta = match fresh.is_empty() {
        true => meta,
        false => log.append(&meta, &push.client, &Client { last_n, ..client }, fresh).await?,
    };
    let answer = json!({ "logId": meta.log_id, "lastN": last_n, "head": meta.head, "accepted": accepted });
    Ok(Response::from_json(&answer)?)
}
