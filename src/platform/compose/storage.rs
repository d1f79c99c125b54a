//! Every storage a wasm32 build can persist to, as one type: in memory, IndexedDB (browsers) and Workers
//! KV (through a namespace binding), SQLite in Node.

use crate::core::error::Result;
use crate::core::model::graph::GraphRecord;
use crate::core::model::scope::Scope;
use crate::core::model::types::{HistoryRecord, StoredMemory};
use crate::core::pace::Pace;
use crate::core::packed::Packed;
use crate::core::side_records::SideRecord;
use crate::core::storage::{Changeset, InMemoryStorage, RemoteListener, SharedTurn, Storage};
use crate::platform::indexeddb::IndexedDbStorage;

/// Workers KV through a namespace binding; in a build without `extras`, a type with no values.
#[cfg(feature = "extras")]
pub type KvBackend = crate::core::kv::KvStorage<crate::platform::JsKv>;
/// Workers KV through a namespace binding; in a build without `extras`, a type with no values.
#[cfg(not(feature = "extras"))]
pub type KvBackend = super::absent::Absent;

/// SQLite in Node, through the handle its entry point opens; in a build without `extras`, a type with no values.
#[cfg(feature = "extras")]
pub type SqliteBackend = crate::platform::sqlite::SqliteStorage;
/// SQLite in Node, through the handle its entry point opens; in a build without `extras`, a type with no values.
#[cfg(not(feature = "extras"))]
pub type SqliteBackend = super::absent::Absent;

/// Every storage this build can persist to.
pub enum AnyStorage {
    Memory(InMemoryStorage),
    IndexedDb(IndexedDbStorage),
    /// Workers KV, through a namespace binding.
    Kv(KvBackend),
    /// SQLite, in Node.
    Sqlite(SqliteBackend),
}

impl Storage for AnyStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        match self {
            Self::Memory(storage) => storage.load_memories().await,
            Self::IndexedDb(storage) => storage.load_memories().await,
            Self::Kv(storage) => storage.load_memories().await,
            Self::Sqlite(storage) => storage.load_memories().await,
        }
    }

    async fn load_packed(&self) -> Result<Packed> {
        match self {
            Self::Memory(storage) => storage.load_packed().await,
            Self::IndexedDb(storage) => storage.load_packed().await,
            Self::Kv(storage) => storage.load_packed().await,
            Self::Sqlite(storage) => storage.load_packed().await,
        }
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        match self {
            Self::Memory(storage) => storage.commit(changes).await,
            Self::IndexedDb(storage) => storage.commit(changes).await,
            Self::Kv(storage) => storage.commit(changes).await,
            Self::Sqlite(storage) => storage.commit(changes).await,
        }
    }

    async fn commit_paced(&self, changes: &Changeset, pace: &dyn Pace) -> Result<()> {
        match self {
            Self::Memory(storage) => storage.commit_paced(changes, pace).await,
            Self::IndexedDb(storage) => storage.commit_paced(changes, pace).await,
            Self::Kv(storage) => storage.commit_paced(changes, pace).await,
            Self::Sqlite(storage) => storage.commit_paced(changes, pace).await,
        }
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        match self {
            Self::Memory(storage) => storage.history(memory_id).await,
            Self::IndexedDb(storage) => storage.history(memory_id).await,
            Self::Kv(storage) => storage.history(memory_id).await,
            Self::Sqlite(storage) => storage.history(memory_id).await,
        }
    }

    async fn clear(&self) -> Result<()> {
        match self {
            Self::Memory(storage) => storage.clear().await,
            Self::IndexedDb(storage) => storage.clear().await,
            Self::Kv(storage) => storage.clear().await,
            Self::Sqlite(storage) => storage.clear().await,
        }
    }

    async fn load_scope(&self, scope: &Scope) -> Result<Option<Vec<StoredMemory>>> {
        match self {
            Self::Memory(storage) => storage.load_scope(scope).await,
            Self::IndexedDb(storage) => storage.load_scope(scope).await,
            Self::Kv(storage) => storage.load_scope(scope).await,
            Self::Sqlite(storage) => storage.load_scope(scope).await,
        }
    }

    async fn load_memory(&self, id: &str) -> Result<Option<StoredMemory>> {
        match self {
            Self::Memory(storage) => storage.load_memory(id).await,
            Self::IndexedDb(storage) => storage.load_memory(id).await,
            Self::Kv(storage) => storage.load_memory(id).await,
            Self::Sqlite(storage) => storage.load_memory(id).await,
        }
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        match self {
            Self::Memory(storage) => storage.all_history().await,
            Self::IndexedDb(storage) => storage.all_history().await,
            Self::Kv(storage) => storage.all_history().await,
            Self::Sqlite(storage) => storage.all_history().await,
        }
    }

    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        match self {
            Self::Memory(storage) => storage.load_graph().await,
            Self::IndexedDb(storage) => storage.load_graph().await,
            Self::Kv(storage) => storage.load_graph().await,
            Self::Sqlite(storage) => storage.load_graph().await,
        }
    }

    async fn load_scope_graph(&self, scope: &Scope) -> Result<Vec<GraphRecord>> {
        match self {
            Self::Memory(storage) => storage.load_scope_graph(scope).await,
            Self::IndexedDb(storage) => storage.load_scope_graph(scope).await,
            Self::Kv(storage) => storage.load_scope_graph(scope).await,
            Self::Sqlite(storage) => storage.load_scope_graph(scope).await,
        }
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        match self {
            Self::Memory(storage) => storage.load_side(kind).await,
            Self::IndexedDb(storage) => storage.load_side(kind).await,
            Self::Kv(storage) => storage.load_side(kind).await,
            Self::Sqlite(storage) => storage.load_side(kind).await,
        }
    }

    async fn all_side(&self) -> Result<Option<Vec<(String, SideRecord)>>> {
        match self {
            Self::Memory(storage) => storage.all_side().await,
            _ => Ok(None),
        }
    }

    async fn hold(&self, key: &str) -> Result<Option<SharedTurn>> {
        match self {
            Self::IndexedDb(storage) => storage.hold(key).await,
            _ => Ok(None),
        }
    }

    fn keeps_memories(&self) -> bool {
        !matches!(self, Self::Memory(_))
    }

    fn close(&self) {
        if let Self::Sqlite(storage) = self {
            storage.close();
        }
    }

    fn watch(&self, listener: RemoteListener) {
        match self {
            Self::Memory(storage) => storage.watch(listener),
            Self::IndexedDb(storage) => storage.watch(listener),
            Self::Kv(storage) => storage.watch(listener),
            Self::Sqlite(storage) => storage.watch(listener),
        }
    }
}
