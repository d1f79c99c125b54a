//! `POST /v1/sync/compact`: `{deviceId, snapshotId, upTo, entries: [{n, data}], total?, userId?}`. A device
//! that has applied the log up to `upTo` (what its pull's `compact` named) uploads its whole state, sealed,
//! as the entries `1 ..= total` of a snapshot, in as many requests as it takes; the request that gives
//! `total` swaps it in. In one write the log's `floor` becomes `upTo` and the snapshot stands for every entry
//! up to it (at sequence numbers `upTo - total + 1 ..= upTo`); then the replaced entries (tombstones
//! included) and the previous snapshot are deleted page by page. The entry-number markers stay, so an old
//! entry pushed again is still stored once. Answers `{staged, compacted, floor}`.
//!
//! 409 `SYNC_COMPACT_STALE` when the log moved so that the snapshot no longer fits (another device
//! compacted first, or a device seen within the TTL has not applied `upTo` yet), or while another
//! upload is under way (one that sent nothing for `UPLOAD_HOLD_MS` has given up, and is replaced).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use worker::Response;

use super::client_id::{checked_named, CLIENT_FIELD};
use super::devices::{self, settled};
use super::log::{Log, Meta, Stored};
use super::store::{self, json, raw_range, write_all};
use super::{push, user::USER_FIELD};
use crate::error::ApiError;

/// How long an upload in progress holds off another device's (ms): a device that stopped uploading for
/// this long has given up.
const UPLOAD_HOLD_MS: u64 = 60_000;

/// A snapshot being uploaded (`l/<logId>/t`): by which device, and when it last sent a part.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Upload {
    id: String,
    #[serde(default)]
    device: String,
    #[serde(default)]
    at: u64,
    #[serde(rename = "upTo")]
    up_to: u64,
    count: u64,
    bytes: u64,
}

/// A compaction request, read and checked.
pub struct Compact {
    device: String,
    snapshot: String,
    up_to: u64,
    entries: Vec<(u64, String)>,
    total: Option<u64>,
}

/// The compaction of `body` (a JSON object, `userId` already read).
pub fn parse(body: &Map<String, Value>, max_entry_bytes: u64) -> Result<Compact, ApiError> {
    let known = ["deviceId", "snapshotId", "upTo", "entries", "total", USER_FIELD];
    if let Some(unknown) = body.keys().find(|key| !known.contains(&key.as_str())) {
        return Err(ApiError::invalid(format!(
            "{unknown}: unknown field (a compaction takes deviceId, snapshotId, upTo, entries, total, userId)"
        )));
    }
    let id = |field: &str| match body.get(field) {
        Some(Value::String(id)) => checked_named(field, id),
        _ => Err(ApiError::invalid(format!("{field}: required, a string"))),
    };
    let whole = |field: &str| body.get(field).map(|value| value.as_u64().filter(|n| *n >= 1).ok_or(()));
    let up_to = whole("upTo").unwrap_or(Err(()));
    let up_to = up_to.map_err(|_| ApiError::invalid("upTo: required, the sequence number to compact up to"))?;
    let total = whole("total").transpose().map_err(|_| ApiError::invalid("total: an integer of at least 1"))?;
    let mut listed = Map::new();
    listed.insert(CLIENT_FIELD.into(), Value::String("snapshot".into()));
    listed.insert("entries".into(), body.get("entries").cloned().unwrap_or(Value::Array(Vec::new())));
    let entries = push::parse(&listed, max_entry_bytes)?.entries;
    Ok(Compact { device: id("deviceId")?, snapshot: id("snapshotId")?, up_to, entries, total })
}

/// Stages `compact`'s entries and, with its `total`, swaps the snapshot in.
pub async fn compact(log: &Log, compact: Compact, max_log_bytes: u64, ttl_ms: u64) -> Result<Response, ApiError> {
    let meta = log.meta().await?;
    if compact.up_to <= meta.floor || compact.up_to > meta.head {
        return Err(stale(format!(
            "upTo {} is not between the floor {} and the head {}",
            compact.up_to, meta.floor, meta.head
        )));
    }
    let mut upload: Upload = store::get(log.storage(), &log.upload_key(&meta)).await?.unwrap_or_default();
    let now = devices::now_ms();
    if upload.id != compact.snapshot {
        // Another upload (another device's, or another tab's of this one) is under way: it goes first.
        if !upload.id.is_empty() && upload.at + UPLOAD_HOLD_MS > now {
            return Err(stale(format!("device {:?} is uploading a snapshot", upload.device)));
        }
        if !upload.id.is_empty() {
            drop_upload(log, &meta, &upload.id).await?;
        }
        upload = Upload {
            id: compact.snapshot.clone(),
            device: compact.device.clone(),
            up_to: compact.up_to,
            ..Upload::default()
        };
    }
    upload.at = now;
    if upload.up_to != compact.up_to {
        return Err(ApiError::invalid(format!(
            "upTo: this snapshot's upload is up to {}, not {}",
            upload.up_to, compact.up_to
        )));
    }
    let prefix = log.snapshot_prefix(&meta, &upload.id);
    let keys: Vec<String> = compact.entries.iter().map(|(n, _)| format!("{prefix}{n:020}")).collect();
    let present = store::present(log.storage(), &keys).await?;
    let mut puts = Vec::new();
    for ((n, data), key) in compact.entries.into_iter().zip(keys) {
        if present.contains(&key) || puts.iter().any(|(k, _): &(String, String)| *k == key) {
            continue;
        }
        upload.count += 1;
        upload.bytes += data.len() as u64;
        puts.push((key, json(&Stored { c: upload.id.clone(), n, d: data })?));
    }
    if upload.bytes > max_log_bytes {
        let why = format!("the snapshot holds {} bytes: more than SYNC_MAX_LOG_BYTES ({max_log_bytes})", upload.bytes);
        return Err(ApiError::new(413, "SYNC_LOG_FULL", why));
    }
    puts.push((log.upload_key(&meta), json(&upload)?));
    write_all(log.storage(), &puts, &[]).await?;
    let Some(total) = compact.total else {
        return Ok(Response::from_json(&json!({ "staged": upload.count, "compacted": false, "floor": meta.floor }))?);
    };
    let floor = match swap(log, meta.clone(), &upload, &compact.device, total, ttl_ms).await {
        Err(error) if error.code == "SYNC_COMPACT_STALE" => {
            // A snapshot that can no longer be swapped in never will: its upload is dropped.
            drop_upload(log, &meta, &upload.id).await?;
            return Err(error);
        }
        other => other?,
    };
    Ok(Response::from_json(&json!({ "staged": upload.count, "compacted": true, "floor": floor }))?)
}

/// Swaps the uploaded snapshot in (see the module); the new floor.
async fn swap(log: &Log, meta: Meta, upload: &Upload, device: &str, total: u64, ttl_ms: u64) -> Result<u64, ApiError> {
    if upload.count != total {
        return Err(ApiError::invalid(format!(
            "total: {total}, but {} entries of the snapshot were uploaded",
            upload.count
        )));
    }
    if upload.up_to - total.min(upload.up_to) < meta.floor || total > upload.up_to {
        return Err(stale(format!(
            "a snapshot of {total} entries up to {} would reach below the floor {}",
            upload.up_to, meta.floor
        )));
    }
    let waiting = settled(&log.devices(&meta).await?, device, devices::now_ms(), ttl_ms, meta.head);
    if waiting < upload.up_to {
        return Err(stale(format!("a device has applied the log only up to {waiting}, not {}", upload.up_to)));
    }
    // What stays is the snapshot and the entries after it (usually few): they are counted, not the ones replaced.
    let entries = log.entries_prefix(&meta);
    let (end, last) = (log.entry_key(&meta, upload.up_to + 1), log.entry_key(&meta, meta.head + 1));
    let (mut kept, mut kept_bytes, mut from) = (0u64, 0u64, end.clone());
    loop {
        let page = raw_range(log.storage(), &entries, (&from, &last), 64).await?;
        let Some((key, _)) = page.last() else { break };
        from = format!("{key}\u{0}");
        for (_, text) in &page {
            kept += 1;
            kept_bytes += serde_json::from_str::<Stored>(text).map_or(0, |stored| stored.d.len() as u64);
        }
    }
    let next = Meta {
        floor: upload.up_to,
        snapshot: Some(upload.id.clone()),
        snapshot_entries: total,
        snapshot_bytes: upload.bytes,
        entries: kept + total,
        bytes: kept_bytes + upload.bytes,
        ..meta.clone()
    };
    write_all(log.storage(), &[(log.meta_key(), json(&next)?)], &[log.upload_key(&meta)]).await?;
    store::delete_where(log.storage(), &entries, Some(&end), |_| true).await?;
    let keep = log.snapshot_prefix(&meta, &upload.id);
    store::delete_where(log.storage(), &log.snapshots_prefix(&meta), None, |key| !key.starts_with(&keep)).await?;
    Ok(next.floor)
}

/// Deletes the upload of snapshot `id`: its staged entries, then its record.
async fn drop_upload(log: &Log, meta: &Meta, id: &str) -> Result<(), ApiError> {
    store::delete_where(log.storage(), &log.snapshot_prefix(meta, id), None, |_| true).await?;
    write_all(log.storage(), &[], &[log.upload_key(meta)]).await
}

fn stale(why: String) -> ApiError {
    ApiError::new(409, "SYNC_COMPACT_STALE", why)
}
