//! Starting sync on a store, and the outbox: the entries waiting to be pushed, in the order to push them,
//! and dropping those the server acknowledged.

use serde::Serialize;

use super::entry_write::{write_entries, Written};
use super::recorder::{outbox_writes, FIRST_COMMIT_NUMBER};
use super::state::{
    client_write, device_of, device_write, LogState, Pending, CLIENT_KIND, LOG_KIND, OUTBOX_KIND, SENT_KIND,
};
use crate::core::engine::transfer::sorted;
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::identity::new_id;
use crate::core::model::graph::GraphChanges;
use crate::core::model::scope::Scope;
use crate::core::model::types::StoredMemory;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Where sync stands on this store.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncStatus {
    /// This instance's client id (each instance of a store is a client of its own).
    pub client_id: String,
    /// The store's device id, the same for every instance (empty before `sync_start`).
    pub device_id: String,
    /// The log this store follows (`None` before the first answer of a server).
    pub log_id: Option<String>,
    /// The sequence number of the last log entry applied here.
    pub checkpoint: u64,
    /// Entries waiting to be pushed.
    pub pending: usize,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Starts recording this instance's writes for sync (once; later calls only report). The first time on
    /// a store, what it holds already goes into the outbox as entries too.
    pub async fn sync_start(&self) -> Result<SyncStatus> {
        let recorder = self.sync_recorder();
        if recorder.client().is_none() {
            let log = self.sync_log().await?;
            let client = new_id();
            recorder.start(client.clone(), FIRST_COMMIT_NUMBER);
            let mut writes = vec![client_write(&client, FIRST_COMMIT_NUMBER)];
            if log.is_none() {
                writes.push(LogState::default().write());
                writes.extend(self.sync_snapshot(&client).await?);
            }
            self.commit(Changeset { side: writes, ..Changeset::default() }).await?;
        }
        if device_of(&self.storage.load_side(LOG_KIND).await?).is_none() {
            self.commit(Changeset { side: vec![device_write(&new_id())], ..Changeset::default() }).await?;
        }
        self.sync_status().await
    }

    /// This store's sync state (`sync_start` first).
    pub async fn sync_status(&self) -> Result<SyncStatus> {
        let records = self.storage.load_side(LOG_KIND).await?;
        let log = LogState::of(&records).unwrap_or_default();
        let device_id = device_of(&records).unwrap_or_default();
        let pending = self.storage.load_side(OUTBOX_KIND).await?.len();
        let client_id = self.sync_recorder().client().unwrap_or_default();
        Ok(SyncStatus { client_id, device_id, log_id: log.log_id, checkpoint: log.checkpoint, pending })
    }

    /// The outbox's first `limit` entries, in the order to push them: each client's in number order, the
    /// clients in the order they first wrote.
    pub async fn sync_pending(&self, limit: usize) -> Result<Vec<Pending>> {
        let mut clients: Vec<(String, Vec<Pending>)> = Vec::new();
        for (_, pending) in Pending::read_all(self.storage.load_side(OUTBOX_KIND).await?) {
            match clients.iter_mut().find(|(client, _)| *client == pending.client_id) {
                Some((_, entries)) => entries.push(pending),
                None => clients.push((pending.client_id.clone(), vec![pending])),
            }
        }
        let mut ordered = Vec::new();
        for (_, entries) in clients {
            ordered.extend(sorted(entries, |entry| format!("{:020}", entry.n)));
        }
        ordered.truncate(limit);
        Ok(ordered)
    }

    /// Moves `client`'s entries numbered `numbers` from the outbox to the sent records: the server stored
    /// them.
    pub async fn sync_acknowledge(&self, client: &str, numbers: &[u64]) -> Result<usize> {
        let records = Pending::read_all(self.storage.load_side(OUTBOX_KIND).await?);
        let done = |pending: &Pending| pending.client_id == client && numbers.contains(&pending.n);
        let mut writes = Vec::new();
        for (key, pending) in records.iter().filter(|(_, pending)| done(pending)) {
            writes.push(SideWrite::delete(OUTBOX_KIND, key));
            writes.push(pending.sent(key));
        }
        let count = writes.len() / 2;
        if count > 0 {
            self.commit(Changeset { side: writes, ..Changeset::default() }).await?;
        }
        Ok(count)
    }

    /// The server's log is not the one this store followed (it was wiped, or this is another server): the
    /// store starts over on `log_id` from sequence 0, and its whole content replaces the outbox, so that the
    /// new log gets everything this store holds.
    pub async fn sync_rebase(&self, log_id: &str) -> Result<SyncStatus> {
        let recorder = self.sync_recorder();
        let client = new_id();
        recorder.start(client.clone(), FIRST_COMMIT_NUMBER);
        let mut writes = Vec::new();
        for kind in [OUTBOX_KIND, SENT_KIND] {
            let stale = self.storage.load_side(kind).await?;
            writes.extend(stale.iter().map(|record| SideWrite::delete(kind, &record.key)));
        }
        writes.push(client_write(&client, FIRST_COMMIT_NUMBER));
        writes.push(LogState { log_id: Some(log_id.to_owned()), checkpoint: 0 }.write());
        writes.extend(self.sync_snapshot(&client).await?);
        self.commit(Changeset { side: writes, ..Changeset::default() }).await?;
        self.sync_status().await
    }

    /// Everything the store holds (memories with their vectors, history, graph) as outbox writes of `client`,
    /// numbered from 1.
    async fn sync_snapshot(&self, client: &str) -> Result<Vec<SideWrite>> {
        let (writes, _) = outbox_writes(client, 1, self.sync_snapshot_entries().await?, self.clock.now_ms());
        Ok(writes)
    }

    /// Everything the store holds, as the texts of entries numbered from 1 (what a compaction of the log
    /// uploads in place of the entries this store has applied).
    pub async fn sync_snapshot_texts(&self) -> Result<Vec<String>> {
        Ok(self.sync_snapshot_entries().await?.into_iter().map(|written| written.text).collect())
    }

    /// Everything the store holds (memories with their vectors, history, graph) as entries.
    async fn sync_snapshot_entries(&self) -> Result<Vec<Written>> {
        self.load_scope(&Scope::default()).await?;
        let items: Vec<_> =
            self.index.borrow().list(usize::MAX, &|_| true).into_iter().map(|m| m.item.clone()).collect();
        let ids: Vec<String> = items.iter().map(|item| item.id.clone()).collect();
        let mut vectors = self.remote_vectors().vectors_of(&ids).await?;
        let upserts: Vec<StoredMemory> =
            items.into_iter().map(|item| StoredMemory { embedding: vectors.remove(&item.id), item }).collect();
        let history = match self.storage.all_history().await? {
            Some(all) => all,
            None => {
                let mut all = Vec::new();
                for id in &ids {
                    all.extend(self.storage.history(id).await?);
                }
                all
            }
        };
        let graph = GraphChanges { upserts: self.storage.load_graph().await?.unwrap_or_default(), deletes: Vec::new() };
        let side = self.exported_side(&upserts, &history).await?;
        let side = side.into_iter().map(|line| SideWrite::put(&line.of, &line.key, line.value)).collect();
        let everything = Changeset { upserts, history, graph, side, ..Changeset::default() };
        Ok(write_entries(&everything, self.current_embedding_model().as_ref(), &self.importable_side_kinds()))
    }

    /// The ids of the clients this store's instances have been (their entries are already applied here).
    pub(crate) async fn sync_own_clients(&self) -> Result<std::collections::HashSet<String>> {
        Ok(self.storage.load_side(CLIENT_KIND).await?.into_iter().map(|record| record.key).collect())
    }
}
