//! A user's object's reports to the tenant's directory (`DO_SHARDS = "scope"`), kept in the object's own
//! storage until the directory takes them, so that no crash leaves a memory the directory does not know:
//!
//! - each commit that stores or deletes memories also writes, in the same atomic write (`object_kv`),
//!   `report/id/<id>` → `put` | `drop` for each of them, `report/owner` → the tenant and user, and an alarm
//!   at most `RETRY_MS` away;
//! - the object sends them (`send`) before it answers the request, and from that alarm when it could not
//!   (the directory failed, or the process died first: the alarm outlives it), every `RETRY_MS` until the
//!   directory takes them;
//! - a report the directory took is deleted, unless a later commit rewrote it meanwhile (then it goes again).
//!
//! Until then, a memory the directory has not taken is found by its user (list, search) but not by its id.

use serde::{Deserialize, Serialize};
use worker::{Env, ListOptions, Storage};

use super::directory::{self, Changes};
use crate::error::ApiError;

/// Where the reports' ids are kept, one key each.
const IDS: &str = "report/id/";
/// Where the tenant and user the reports are for are kept.
const OWNER: &str = "report/owner";
/// The longest a commit's reports wait for the alarm, and the wait before another try when the directory failed.
pub const RETRY_MS: i64 = 5_000;
/// Reports sent in one request to the directory.
const PAGE: usize = 500;
/// Most pages one `send` goes through (more wait for the next).
const MOST_PAGES: usize = 100;

/// The tenant and user a user's object holds.
#[derive(Serialize, Deserialize)]
pub struct Owner {
    pub tenant: String,
    pub user: String,
}

/// The writes that record, beside a commit, that `stored` memory ids were written and `deleted` ones removed:
/// `(key, value)` pairs, with `owner` (its JSON); none when there is nothing to report.
pub fn entries<'a>(
    owner: &str,
    stored: impl Iterator<Item = &'a str>,
    deleted: impl Iterator<Item = &'a str>,
) -> Vec<(String, String)> {
    let key = |id: &str| format!("{IDS}{}", memwasm::core::kv::keys::encode(id));
    let mut entries: Vec<(String, String)> = stored.map(|id| (key(id), "put".to_owned())).collect();
    entries.extend(deleted.map(|id| (key(id), "drop".to_owned())));
    if !entries.is_empty() {
        entries.push((OWNER.to_owned(), owner.to_owned()));
    }
    entries
}

/// Sends the reports kept in `storage` to the tenant's directory and deletes those it took; `Ok` once every
/// one listed was taken (a report rewritten meanwhile stays for the next send).
pub async fn send(env: &Env, storage: &Storage) -> Result<(), ApiError> {
    for _ in 0..MOST_PAGES {
        let listed = storage.list_with_options(ListOptions::new().prefix(IDS).limit(PAGE)).await?;
        let mut sent: Vec<(String, String)> = Vec::new();
        listed.for_each(&mut |value, key| {
            if let (Some(key), Some(value)) = (key.as_string(), value.as_string()) {
                sent.push((key, value));
            }
        });
        if sent.is_empty() {
            return Ok(());
        }
        let owner: String = storage.get(OWNER).await?.unwrap_or_default();
        let owner: Owner = serde_json::from_str(&owner)
            .map_err(|error| ApiError::new(500, "STORAGE", format!("{OWNER} is not the object's owner: {error}")))?;
        let mut changes = Changes { user: owner.user, ..Changes::default() };
        for (key, value) in &sent {
            let Some(id) = key.strip_prefix(IDS).and_then(memwasm::core::kv::keys::decode) else { continue };
            match value.as_str() {
                "put" => changes.put.push(id),
                _ => changes.drop.push(id),
            }
        }
        directory::send(env, &owner.tenant, &changes).await?;
        let now = storage.get_multiple(sent.iter().map(|(key, _)| key.as_str()).collect()).await?;
        let taken: Vec<&str> = sent
            .iter()
            .filter(|(key, value)| now.get(&key.as_str().into()).as_string().as_deref() == Some(value.as_str()))
            .map(|(key, _)| key.as_str())
            .collect();
        storage.delete_multiple(taken).await?;
        if sent.len() < PAGE {
            return Ok(());
        }
    }
    Ok(())
}
