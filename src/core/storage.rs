//! Persistence behind the in-RAM index: a small trait that IndexedDB, KV and the in-memory default fill.

use std::cell::RefCell;

use super::error::Result;
use super::model::graph::{GraphChanges, GraphRecord};
use super::model::scope::Scope;
use super::model::types::{HistoryRecord, StoredMemory};
use super::pace::Pace;
use super::packed::Packed;
use super::side_records::{SideMap, SideRecord, SideWrite};

/// What another instance (another tab) wrote to the same storage, for this instance's index to mirror.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RemoteChange {
    /// Everything was deleted (applied before `upserts` and `deletes`).
    pub cleared: bool,
    /// Memories written or rewritten, as stored now.
    pub upserts: Vec<StoredMemory>,
    /// Ids of memories that no longer exist.
    pub deletes: Vec<String>,
}

/// A key held against other instances of a storage (see `Storage::hold`): let go when dropped.
pub type SharedTurn = Box<dyn std::any::Any>;

/// Receives the `RemoteChange`s a storage observes.
pub type RemoteListener = Box<dyn Fn(RemoteChange)>;

/// Everything one API call writes; a `Storage` applies it all or nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changeset {
    /// Memories to insert or replace.
    pub upserts: Vec<StoredMemory>,
    /// Ids of memories to remove.
    pub deletes: Vec<String>,
    /// History records to append.
    pub history: Vec<HistoryRecord>,
    /// Graph records to write or remove (graph memory).
    pub graph: GraphChanges,
    /// Side records to write or delete (buffers, caches, metadata).
    pub side: Vec<SideWrite>,
}

impl Changeset {
    /// True when there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.upserts.is_empty()
            && self.deletes.is_empty()
            && self.history.is_empty()
            && self.graph.is_empty()
            && self.side.is_empty()
    }
}

/// Durable home of memories and history.
#[allow(async_fn_in_trait)]
pub trait Storage {
    /// Every stored memory, to fill the search index when the memory is opened.
    async fn load_memories(&self) -> Result<Vec<StoredMemory>>;
    /// Like `load_memories`, for opening: storages that keep vectors in chunks hand them over as rows, for
    /// the index to copy in bulk. By default, `load_memories`' memories carrying their vectors.
    async fn load_packed(&self) -> Result<Packed> {
        Ok(Packed::unpacked(self.load_memories().await?))
    }
    /// Applies all of `changes`, or none of them.
    async fn commit(&self, changes: &Changeset) -> Result<()>;
    /// Like `commit`, in turns that `pace` ends (reporting the records written), stopped with `ABORTED`
    /// (nothing written) when the caller asks before the write commits. By default one `commit`.
    async fn commit_paced(&self, changes: &Changeset, _pace: &dyn Pace) -> Result<()> {
        self.commit(changes).await
    }
    /// A memory's history, oldest first (empty for an unknown id).
    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>>;
    /// Deletes every memory and history record.
    async fn clear(&self) -> Result<()>;
    /// The stored memories `scope` can see, oldest first, for storages that load scopes on demand (KV); the
    /// engine calls it before each scoped call. Like `load_packed`, vectors kept in chunks come as rows. `None`
    /// when there is nothing to add: `load_memories` loaded everything at open (the default), or a scope
    /// covering this one was loaded already.
    async fn load_scope(&self, _scope: &Scope) -> Result<Option<Packed>> {
        Ok(None)
    }
    /// The stored memory with this id, for storages that load on demand; `None` when unknown, or when
    /// `load_memories` already loaded everything (the default).
    async fn load_memory(&self, _id: &str) -> Result<Option<StoredMemory>> {
        Ok(None)
    }
    /// Every history record, oldest first, when this storage can list them (export uses it to include the
    /// history of deleted memories); `None` when it cannot.
    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        Ok(None)
    }
    /// Every stored graph record, to fill the in-RAM graph when graph memory is on; `None` when this storage
    /// does not persist the graph (graph memory is then refused rather than silently lost).
    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        Ok(None)
    }
    /// The stored graph records `scope` can see, for storages that load on demand (KV); the engine calls it
    /// when `load_scope` returned the scope's memories. Empty by default (`load_graph` loaded everything).
    async fn load_scope_graph(&self, _scope: &Scope) -> Result<Vec<GraphRecord>> {
        Ok(Vec::new())
    }
    /// Every side record of `kind`, in key order.
    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>>;
    /// False when memories are not persisted at all (the in-memory default: the search index is their only
    /// home), so a write-back need not carry a vector kept elsewhere.
    fn keeps_memories(&self) -> bool {
        true
    }
    /// Every side record, by kind, for storages that hold all of them in RAM (a snapshot); else `None`.
    async fn all_side(&self) -> Result<Option<Vec<(String, SideRecord)>>> {
        Ok(None)
    }
    /// Calls `listener` with each change other instances make to the same storage (e.g. other tabs).
    /// Storages that nobody else can write ignore it.
    fn watch(&self, _listener: RemoteListener) {}
    /// Holds `key` against every other instance on the same storage (other tabs) until the returned guard
    /// is dropped; before it returns, what those instances wrote has reached `watch`'s listener. `None`
    /// where no other instance can write while this one runs (the default).
    async fn hold(&self, _key: &str) -> Result<Option<SharedTurn>> {
        Ok(None)
    }
    /// Does what the storage left for after the answer (KV storage in a Durable Object: the open images of
    /// the scopes it read in full, and when the host is `idle`, those whose journal grew long since they
    /// loaded). Nothing by default.
    async fn settle(&self, _idle: bool) -> Result<()> {
        Ok(())
    }
    /// How each scope loaded on demand so far, for tests and benches (KV storage with open images: `image
    /// journal=N` or `full (why)`). Empty by default.
    fn scope_loads(&self) -> Vec<String> {
        Vec::new()
    }
    /// Lets go of what the storage holds open (a database file), for other processes; its later reads and
    /// writes fail with `STORAGE_UNAVAILABLE`. Storages that hold nothing open ignore it.
    fn close(&self) {}
}

/// The default: nothing outlives the instance. Memories live only in the search index, so this keeps history.
#[derive(Debug, Default)]
pub struct InMemoryStorage {
    history: RefCell<Vec<HistoryRecord>>,
    side: RefCell<SideMap>,
}

impl Storage for InMemoryStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        Ok(Vec::new())
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        self.history.borrow_mut().extend(changes.history.iter().cloned());
        self.side.borrow_mut().apply(&changes.side);
        Ok(())
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        Ok(self.side.borrow().records(kind))
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        Ok(self.history.borrow().iter().filter(|record| record.memory_id == memory_id).cloned().collect())
    }

    async fn clear(&self) -> Result<()> {
        self.history.borrow_mut().clear();
        self.side.borrow_mut().clear();
        Ok(())
    }

    fn keeps_memories(&self) -> bool {
        false
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        Ok(Some(self.history.borrow().clone()))
    }

    async fn all_side(&self) -> Result<Option<Vec<(String, SideRecord)>>> {
        Ok(Some(self.side.borrow().all()))
    }

    /// Like memories, the graph lives only in the engine's RAM copy; it starts empty.
    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        Ok(Some(Vec::new()))
    }
}
