//! The sync feature's hook: once sync is started on a store, every commit of the app's writes also writes
//! its entries into the outbox, in the same transaction (a crash loses both or neither).

use std::cell::RefCell;

use futures_util::future::LocalBoxFuture;

use super::entry_write::{write_entries, Written};
use super::state::{client_write, is_sync_commit, Pending};
use crate::core::engine::extensions::EngineHooks;
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::identity::new_id;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The first number a client's own commits take: the numbers below it are kept for the store's snapshot
/// written when sync starts, which must reach the log before any change made while it was read.
pub const FIRST_COMMIT_NUMBER: u64 = 1 << 32;

/// This instance's client: its id and the number its next entry takes. Numbers are taken when a commit
/// is staged, so two commits in flight never share one; a commit that fails leaves a number unused, which
/// the log allows (numbers only grow).
#[derive(Debug, Default)]
pub struct SyncRecorder {
    client: RefCell<Option<(String, u64)>>,
    /// Whether this instance looked, before its first commit, for a sync started on the store earlier.
    looked: std::cell::Cell<bool>,
}

impl SyncRecorder {
    /// Records from now on as `client`, whose next entry is number `next`.
    pub fn start(&self, client: String, next: u64) {
        self.looked.set(true);
        *self.client.borrow_mut() = Some((client, next));
    }

    /// How many entries this instance has recorded (a count that changes with every recorded write).
    pub fn recorded(&self) -> u64 {
        self.client.borrow().as_ref().map_or(0, |(_, next)| next.saturating_sub(FIRST_COMMIT_NUMBER))
    }

    /// The client recording, when sync was started.
    pub fn client(&self) -> Option<String> {
        self.client.borrow().as_ref().map(|(id, _)| id.clone())
    }

    /// `changes`' entries as the writes that put them into the outbox, numbered from this client's next
    /// number (none before sync starts, or for sync's own commits).
    pub fn stage(&self, changes: &Changeset, entries: Vec<Written>, at_ms: i64) -> Vec<SideWrite> {
        let mut client = self.client.borrow_mut();
        let Some((id, next)) = client.as_mut() else { return Vec::new() };
        if entries.is_empty() || is_sync_commit(&changes.side) {
            return Vec::new();
        }
        let (mut writes, after) = outbox_writes(id, *next, entries, at_ms);
        *next = after;
        writes.push(client_write(id, after));
        writes
    }
}

/// `entries` as outbox writes of `client`, numbered from `first`; and the number after the last.
pub fn outbox_writes(client: &str, first: u64, entries: Vec<Written>, at_ms: i64) -> (Vec<SideWrite>, u64) {
    let mut n = first;
    let mut writes = Vec::with_capacity(entries.len() + 1);
    for Written { text, ids, keys } in entries {
        writes.push(Pending { client_id: client.to_owned(), n, data: text, ids, keys }.write(at_ms));
        n += 1;
    }
    (writes, n)
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> EngineHooks<MemoryEngine<L, E, S, V>> for SyncRecorder {
    /// Before this instance's first commit: when sync was started on the store before (by an earlier open or
    /// another tab), this instance records from now on, as a client of its own (its id is stored with its
    /// first entry). Read here rather than at open, so that opening a store reads nothing for sync.
    fn prepare_commit<'a>(&'a self, engine: &'a MemoryEngine<L, E, S, V>) -> Option<LocalBoxFuture<'a, Result<()>>> {
        if self.looked.get() {
            return None;
        }
        Some(Box::pin(async move {
            let started = engine.sync_log().await?.is_some();
            if !self.looked.replace(true) && started && self.client.borrow().is_none() {
                self.start(new_id(), FIRST_COMMIT_NUMBER);
            }
            Ok(())
        }))
    }

    /// The store was emptied (a reset here or in another tab), its sync records too: this instance records
    /// as a new client from now on, so the log's entries of the old one come back with their data.
    fn on_clear(&self) {
        let mut client = self.client.borrow_mut();
        if client.is_some() {
            *client = Some((new_id(), FIRST_COMMIT_NUMBER));
        }
    }

    /// Another instance committed, perhaps the one that started sync on the store: an instance that found no
    /// sync started looks again before its next commit.
    fn on_remote_change(&self) {
        if self.client.borrow().is_none() {
            self.looked.set(false);
        }
    }

    fn before_commit(&self, engine: &MemoryEngine<L, E, S, V>, changes: &mut Changeset) {
        if self.client.borrow().is_none() || is_sync_commit(&changes.side) {
            return;
        }
        let kinds = engine.importable_side_kinds();
        let entries = write_entries(changes, engine.current_embedding_model().as_ref(), &kinds);
        let writes = self.stage(changes, entries, engine.clock.now_ms());
        changes.side.extend(writes);
    }
}
