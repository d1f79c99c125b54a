//! One user's sync log in the object's storage. Keys, under `sync/<user>/` (the user percent-encoded):
//!
//! - `meta`: `{logId, head, entries, bytes}`, the log's id, its last sequence number and its totals;
//! - `l/<logId>/e/<seq, 20 digits>`: one entry, `{c: clientId, n, d: data}` (the data opaque);
//! - `l/<logId>/c/<clientId>`: a client's `{lastN, pulled}`;
//! - `l/<logId>/n/<clientId>/<n, 20 digits>`: the sequence number a client's entry `n` was stored at, so an
//!   entry pushed again (a retry, another tab of the same store) is found and stored once;
//! - `l/<logId>/d/<deviceId>`: how far a device applied the log, and when it last pulled (`devices`);
//! - `l/<logId>/s/<snapshotId>/<i, 20 digits>`: the snapshot that stands for the entries up to `floor`, and
//!   `l/<logId>/t`: a snapshot being uploaded (`compact`).
//!
//! Entries and clients live under the log's id, so a wipe is one write (a new `meta` with a new id); the old
//! log's keys are deleted after it, and a wipe that stops half-way leaves only keys no log reads.

use memwasm::core::identity::new_id;
use memwasm::core::kv::keys::encode;
use serde::{Deserialize, Serialize};
use worker::Storage;

use super::store::{self, json, range, write_all};
use crate::error::ApiError;

/// The log's head record.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Meta {
    #[serde(rename = "logId")]
    pub log_id: String,
    /// The last sequence number given (0: none yet).
    pub head: u64,
    /// Entries stored.
    pub entries: u64,
    /// Bytes of data stored.
    pub bytes: u64,
    /// The entries up to this sequence number were compacted into the snapshot (0: never compacted).
    #[serde(default)]
    pub floor: u64,
    /// The snapshot's id, its entries (sequence numbers `floor - k + 1 ..= floor`) and their bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
    #[serde(default, rename = "snapshotEntries")]
    pub snapshot_entries: u64,
    #[serde(default, rename = "snapshotBytes")]
    pub snapshot_bytes: u64,
}

impl Meta {
    /// The sequence number before the snapshot's first entry.
    pub fn snapshot_start(&self) -> u64 {
        self.floor - self.snapshot_entries.min(self.floor)
    }
}

/// What the log knows of one client.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Client {
    /// The last mutation counter stored.
    #[serde(rename = "lastN")]
    pub last_n: u64,
    /// The last `since` it pulled from: what it confirms it has applied.
    pub pulled: u64,
}

/// One stored entry.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stored {
    pub c: String,
    pub n: u64,
    pub d: String,
}

/// One user's log in `storage`.
pub struct Log {
    storage: Storage,
    root: String,
}

impl Log {
    pub fn new(storage: Storage, user: &str) -> Self {
        Self { storage, root: format!("sync/{}/", encode(user)) }
    }

    pub fn meta_key(&self) -> String {
        format!("{}meta", self.root)
    }

    pub fn entries_prefix(&self, meta: &Meta) -> String {
        format!("{}l/{}/e/", self.root, meta.log_id)
    }

    pub fn entry_key(&self, meta: &Meta, seq: u64) -> String {
        format!("{}{seq:020}", self.entries_prefix(meta))
    }

    fn clients_prefix(&self, meta: &Meta) -> String {
        format!("{}l/{}/c/", self.root, meta.log_id)
    }

    fn client_key(&self, meta: &Meta, client: &str) -> String {
        format!("{}{client}", self.clients_prefix(meta))
    }

    fn number_key(&self, meta: &Meta, client: &str, n: u64) -> String {
        format!("{}l/{}/n/{client}/{n:020}", self.root, meta.log_id)
    }

    pub fn devices_prefix(&self, meta: &Meta) -> String {
        format!("{}l/{}/d/", self.root, meta.log_id)
    }

    /// The keys of the snapshot `id`'s entries.
    pub fn snapshot_prefix(&self, meta: &Meta, id: &str) -> String {
        format!("{}l/{}/s/{id}/", self.root, meta.log_id)
    }

    pub fn snapshots_prefix(&self, meta: &Meta) -> String {
        format!("{}l/{}/s/", self.root, meta.log_id)
    }

    /// The key of the snapshot being uploaded.
    pub fn upload_key(&self, meta: &Meta) -> String {
        format!("{}l/{}/t", self.root, meta.log_id)
    }

    /// Which of `client`'s entry numbers `numbers` are stored already.
    pub async fn stored_numbers(&self, meta: &Meta, client: &str, numbers: &[u64]) -> Result<Vec<u64>, ApiError> {
        let keys: Vec<String> = numbers.iter().map(|n| self.number_key(meta, client, *n)).collect();
        let present = store::present(&self.storage, &keys).await?;
        Ok(numbers.iter().zip(&keys).filter(|(_, key)| present.contains(*key)).map(|(n, _)| *n).collect())
    }

    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The log's head record, the log created (with a new id) when there is none.
    pub async fn meta(&self) -> Result<Meta, ApiError> {
        if let Some(meta) = store::get(&self.storage, &self.meta_key()).await? {
            return Ok(meta);
        }
        self.create().await
    }

    async fn create(&self) -> Result<Meta, ApiError> {
        let meta = Meta { log_id: new_id(), head: 0, entries: 0, bytes: 0, ..Meta::default() };
        write_all(&self.storage, &[(self.meta_key(), json(&meta)?)], &[]).await?;
        Ok(meta)
    }

    /// What the log knows of `client` (nothing yet: `lastN` and `pulled` 0).
    pub async fn client(&self, meta: &Meta, client: &str) -> Result<Client, ApiError> {
        Ok(store::get(&self.storage, &self.client_key(meta, client)).await?.unwrap_or_default())
    }

    /// Every client the log knows, by id.
    pub async fn clients(&self, meta: &Meta) -> Result<Vec<(String, Client)>, ApiError> {
        let prefix = self.clients_prefix(meta);
        let listed: Vec<(String, Client)> = range(&self.storage, &prefix, None, None).await?;
        Ok(listed.into_iter().map(|(key, client)| (key[prefix.len()..].to_owned(), client)).collect())
    }

    /// Records `client`'s state.
    pub async fn set_client(&self, meta: &Meta, id: &str, client: &Client) -> Result<(), ApiError> {
        write_all(&self.storage, &[(self.client_key(meta, id), json(client)?)], &[]).await
    }

    /// Appends `entries` (each `(n, data)`) for `client` in one atomic write with its new state and the new
    /// head; the new head record.
    pub async fn append(
        &self,
        meta: &Meta,
        id: &str,
        client: &Client,
        entries: Vec<(u64, String)>,
    ) -> Result<Meta, ApiError> {
        let mut next = meta.clone();
        let mut puts = Vec::with_capacity(2 * entries.len() + 2);
        for (n, data) in entries {
            next.head += 1;
            next.entries += 1;
            next.bytes += data.len() as u64;
            puts.push((self.entry_key(meta, next.head), json(&Stored { c: id.to_owned(), n, d: data })?));
            puts.push((self.number_key(meta, id, n), next.head.to_string()));
        }
        puts.push((self.client_key(meta, id), json(client)?));
        puts.push((self.meta_key(), json(&next)?));
        write_all(&self.storage, &puts, &[]).await?;
        Ok(next)
    }

    /// Wipes the log: a new, empty log (a new id) in one write, then the old log's keys deleted. The entries
    /// removed and the new head record.
    pub async fn wipe(&self) -> Result<(u64, Meta), ApiError> {
        let removed = store::get::<Meta>(&self.storage, &self.meta_key()).await?.map_or(0, |meta| meta.entries);
        let meta = self.create().await?;
        let (logs, fresh) = (format!("{}l/", self.root), format!("{}l/{}/", self.root, meta.log_id));
        store::delete_where(&self.storage, &logs, None, |key| !key.starts_with(&fresh)).await?;
        Ok((removed, meta))
    }
}
