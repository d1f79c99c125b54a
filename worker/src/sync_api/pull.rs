//! `GET /v1/sync/pull?since=<seq>&limit=<n>&clientId=<id>`: the entries after `since` in sequence order, at
//! most `limit` (1 to 1000, default 500) and about `PULL_BYTES` of data (always one, when any follows), read
//! by key range from `since + 1` (never the whole log). With `clientId`, records that client's `pulled`
//! checkpoint (`since`: what it has applied), and answers that client's own entries without their data
//! (`data: null`: it wrote them, so they need not travel back). Answers `{logId, entries: [{seq, clientId, n,
//! data}], head, more}`.

use serde_json::{json, Value};
use worker::Response;

use super::client_id::{self, CLIENT_FIELD};
use super::log::{Log, Stored};
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
}

/// The pull a query string asks for.
pub fn parse(query: &Query) -> Result<Pull, ApiError> {
    if let Some(unknown) = query.names().find(|name| !["since", "limit", CLIENT_FIELD, USER_FIELD].contains(name)) {
        return Err(ApiError::invalid(format!(
            "{unknown}: unknown parameter (a pull takes since, limit, clientId, userId)"
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
    Ok(Pull { since, limit, client })
}

/// Answers `pull` from `log`, whose entries hold at most `max_entry_bytes` of data each.
pub async fn pull(log: &Log, pull: Pull, max_entry_bytes: u64) -> Result<Response, ApiError> {
    let meta = log.meta().await?;
    if let Some(id) = &pull.client {
        let mut client = log.client(&meta, id).await?;
        client.pulled = pull.since;
        log.set_client(&meta, id, &client).await?;
    }
    // Each read holds at most about PULL_BYTES of data, whatever the entries' sizes.
    let batch = (PULL_BYTES / max_entry_bytes.max(1)).clamp(1, MAX_BATCH);
    let prefix = log.entries_prefix(&meta);
    let (mut entries, mut bytes, mut last, mut full) = (Vec::new(), 0u64, pull.since, false);
    while !full && (entries.len() as u64) < pull.limit && last < meta.head {
        let want = (pull.limit - entries.len() as u64).min(batch) as usize;
        let start = log.entry_key(&meta, last + 1);
        let page: Vec<(String, Stored)> = range(log.storage(), &prefix, Some(&start), Some(want)).await?;
        if page.is_empty() {
            break;
        }
        for (key, stored) in page {
            let own = pull.client.as_deref() == Some(stored.c.as_str());
            let size = if own { 0 } else { stored.d.len() as u64 };
            if !entries.is_empty() && bytes + size > PULL_BYTES {
                full = true;
                break;
            }
            let seq = key[prefix.len()..].parse::<u64>().unwrap_or(last + 1);
            bytes += size;
            last = seq;
            let data = if own { Value::Null } else { Value::String(stored.d) };
            entries.push(json!({ "seq": seq, "clientId": stored.c, "n": stored.n, "data": data }));
        }
    }
    let more = last < meta.head;
    let answer = json!({ "logId": meta.log_id, "entries": Value::Array(entries), "head": meta.head, "more": more });
    Ok(Response::from_json(&answer)?)
}
