//! `GET /v1/sync/pull?since=<seq>&limit=<n>&clientId=<id>&deviceId=<id>`: the entries after `since` in
//! sequence order, at most `limit` (1 to 1000, default 500) and about `PULL_BYTES` of data (always one, when
//! any follows), read by key range from `since + 1` (never the whole log). With `clientId`, records that
//! client's `pulled` checkpoint (`since`: what it has applied), and answers that client's own entries
//! without their data (`data: null`: it wrote them, so they need not travel back). With `deviceId`, records
//! the device's (`devices`), and on its last page says whether the device should compact the log
//! (`compact`: the sequence number to compact up to, or null).
//!
//! After a compaction the entries up to `floor` are a snapshot, at sequence numbers just below it: a pull
//! from 0 (or from inside the snapshot, by the device reading it) gets the snapshot, then what follows; a
//! pull from below the snapshot is 409 `SYNC_COMPACTED` (the device was away longer than the devices' TTL:
//! it rebuilds from 0). Answers `{logId, entries: [{seq, clientId, n, data}], head, floor, more, compact}`.

use serde_json::{json, Value};
use worker::Response;

use super::client_id::{self, CLIENT_FIELD};
use super::devices::{self, Device};
use super::log::{Log, Meta, Stored};
use super::store::range;
use super::user::USER_FIELD;
use crate::error::ApiError;
use crate::query::Query;

/// The data one pull answers at most (besides its first entry).
pub const PULL_BYTES: u64 = 4 * 1024 * 1024;

/// Most entries one pull answers, and how many it answers by default.
const MAX_LIMIT: u64 = 1000;
const DEFAULT_LIMIT: u64 = 500;

/// Entries read per storage call, at most.
const MAX_BATCH: u64 = 128;

/// A pull, read and checked.
pub struct Pull {
    pub since: u64,
    pub limit: u64,
    pub client: Option<String>,
    pub device: Option<String>,
}

/// When a device should compact the log: every active device has applied `SYNC_COMPACT_AFTER` entries
/// past the floor, and the entries after the snapshot hold at least as many bytes as it does.
pub struct Policy {
    pub ttl_ms: u64,
    pub compact_after: u64,
}

/// The query parameter naming the device.
pub const DEVICE_FIELD: &str = "deviceId";

/// The pull a query string asks for.
pub fn parse(query: &Query) -> Result<Pull, ApiError> {
    let known = ["since", "limit", CLIENT_FIELD, DEVICE_FIELD, USER_FIELD];
    if let Some(unknown) = query.names().find(|name| !known.contains(name)) {
        return Err(ApiError::invalid(format!(
            "{unknown}: unknown parameter (a pull takes since, limit, clientId, deviceId, userId)"
        )));
    }
    let whole = |name: &str, default: u64| -> Result<u64, ApiError> {
        match query.get(name) {
            None => Ok(default),
            Some(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
                text.parse().map_err(|_| ApiError::invalid(format!("{name}: too large, got {text:?}")))
            }
            Some(text) => Err(ApiError::invalid(format!("{name}: must be a whole number, got {text:?}"))),
        }
    };
    let since = whole("since", 0)?;
    let limit = whole("limit", DEFAULT_LIMIT)?;
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::invalid(format!("limit: must be 1 to {MAX_LIMIT}, got {limit}")));
    }
    let client = query.get(CLIENT_FIELD).map(client_id::checked).transpose()?;
    let device = query.get(DEVICE_FIELD).map(|id| client_id::checked_named(DEVICE_FIELD, id)).transpose()?;
    Ok(Pull { since, limit, client, device })
}

/// Answers `pull` from `log`, whose entries hold at most `max_entry_bytes` of data each.
pub async fn pull(log: &Log, pull: Pull, max_entry_bytes: u64, policy: &Policy) -> Result<Response, ApiError> {
    let meta = log.meta().await?;
    if let Some(id) = &pull.client {
        let mut client = log.client(&meta, id).await?;
        client.pulled = pull.since;
        log.set_client(&meta, id, &client).await?;
    }
    let (start, now) = (meta.snapshot_start(), devices::now_ms());
    let known = match &pull.device {
        Some(id) => log.device(&meta, id).await?,
        None => None,
    };
    let reading = known.as_ref().and_then(|device| device.snapshot.as_ref());
    let in_snapshot = pull.since < meta.floor && (pull.since == 0 || pull.since >= start);
    // Inside the snapshot's range, only the device that is reading this snapshot: another one reached that
    // number through entries the snapshot replaced.
    if pull.since > 0
        && pull.since < meta.floor
        && (!in_snapshot || (pull.device.is_some() && reading != meta.snapshot.as_ref()))
    {
        let why = format!(
            "the log was compacted up to {}: entries after {} are gone; pull from 0 (the device rebuilds from the snapshot)",
            meta.floor, pull.since
        );
        return Err(ApiError::new(409, "SYNC_COMPACTED", why));
    }
    if let Some(id) = &pull.device {
        let snapshot = if in_snapshot { meta.snapshot.clone() } else { None };
        log.set_device(&meta, id, &Device { pulled: pull.since, at: now, snapshot }).await?;
    }
    let mut page = Page { entries: Vec::new(), bytes: 0, last: pull.since, full: false };
    if in_snapshot {
        read_snapshot(log, &meta, &pull, &mut page).await?;
    }
    read_entries(log, &meta, &pull, max_entry_bytes, &mut page).await?;
    let more = page.last < meta.head;
    let compact = match (&pull.device, more) {
        (Some(id), false) => compact_to(log, &meta, id, now, policy).await?,
        _ => None,
    };
    let answer = json!({
        "logId": meta.log_id, "entries": Value::Array(page.entries), "head": meta.head, "floor": meta.floor,
        "more": more, "compact": compact,
    });
    Ok(Response::from_json(&answer)?)
}

/// What a pull has gathered: the entries, their bytes, the last sequence number, and whether it is full.
struct Page {
    entries: Vec<Value>,
    bytes: u64,
    last: u64,
    full: bool,
}

impl Page {
    /// Adds `stored` at `seq`, unless the page is full (about `PULL_BYTES`) or at `limit`.
    fn take(&mut self, pull: &Pull, seq: u64, stored: Stored) -> bool {
        let own = pull.client.as_deref() == Some(stored.c.as_str());
        let size = if own { 0 } else { stored.d.len() as u64 };
        if self.entries.len() as u64 >= pull.limit || (!self.entries.is_empty() && self.bytes + size > PULL_BYTES) {
            self.full = true;
            return false;
        }
        self.bytes += size;
        self.last = seq;
        let data = if own { Value::Null } else { Value::String(stored.d) };
        self.entries.push(json!({ "seq": seq, "clientId": stored.c, "n": stored.n, "data": data }));
        true
    }
}

/// The snapshot's entries after `page.last` (its `i`-th entry is at `start + i`).
async fn read_snapshot(log: &Log, meta: &Meta, pull: &Pull, page: &mut Page) -> Result<(), ApiError> {
    let start = meta.snapshot_start();
    let prefix = log.snapshot_prefix(meta, meta.snapshot.as_deref().unwrap_or_default());
    while meta.snapshot.is_some() && !page.full && page.last < meta.floor {
        let from = page.last.max(start) - start + 1;
        let first = format!("{prefix}{from:020}");
        let listed: Vec<(String, Stored)> =
            range(log.storage(), &prefix, Some(&first), Some(MAX_BATCH as usize)).await?;
        if listed.is_empty() {
            break;
        }
        for (key, stored) in listed {
            let i = key[prefix.len()..].parse::<u64>().unwrap_or(from);
            if !page.take(pull, start + i, stored) {
                break;
            }
        }
    }
    if !page.full {
        page.last = page.last.max(meta.floor); // what follows is after the floor
    }
    Ok(())
}

/// The log's entries after `page.last`, read by key range.
async fn read_entries(
    log: &Log,
    meta: &Meta,
    pull: &Pull,
    max_entry_bytes: u64,
    page: &mut Page,
) -> Result<(), ApiError> {
    // Each read holds at most about PULL_BYTES of data, whatever the entries' sizes.
    let batch = (PULL_BYTES / max_entry_bytes.max(1)).clamp(1, MAX_BATCH);
    let prefix = log.entries_prefix(meta);
    while !page.full && page.last < meta.head {
        let want = (pull.limit.saturating_sub(page.entries.len() as u64)).clamp(1, batch) as usize;
        let start = log.entry_key(meta, page.last + 1);
        let listed: Vec<(String, Stored)> = range(log.storage(), &prefix, Some(&start), Some(want)).await?;
        if listed.is_empty() {
            break;
        }
        for (key, stored) in listed {
            let seq = key[prefix.len()..].parse::<u64>().unwrap_or(page.last + 1);
            if !page.take(pull, seq, stored) {
                break;
            }
        }
    }
    Ok(())
}

/// The sequence number device `id` (at the head once it applies this pull) should compact the log up to,
/// if `policy` says it is time.
async fn compact_to(log: &Log, meta: &Meta, id: &str, now: u64, policy: &Policy) -> Result<Option<u64>, ApiError> {
    let up_to = devices::settled(&log.devices(meta).await?, id, now, policy.ttl_ms, meta.head);
    let replaced_enough = up_to >= meta.floor + policy.compact_after.max(1);
    let tail_bytes = meta.bytes.saturating_sub(meta.snapshot_bytes);
    Ok((replaced_enough && tail_bytes >= meta.snapshot_bytes).then_some(up_to))
}
