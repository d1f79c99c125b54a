//! Storages for tests: one that keeps everything in RAM (so a second engine can open it) and can refuse
//! commits, and a saboteur that makes a real storage refuse a commit half-way.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::core::error::{MemoryError, Result};
use crate::core::model::graph::GraphRecord;
use crate::core::model::scope::Scope;
use crate::core::model::types::{HistoryRecord, StoredMemory};
use crate::core::side_records::{SideMap, SideRecord};
use crate::core::storage::{Changeset, RemoteChange, RemoteListener, Storage};

#[derive(Default)]
struct Kept {
    memories: RefCell<Vec<StoredMemory>>,
    history: RefCell<Vec<HistoryRecord>>,
    commits_left: Cell<Option<usize>>,
    listener: RefCell<Option<RemoteListener>>,
    side: RefCell<SideMap>,
}

/// Memories and history in RAM that outlive the engine: an engine opened on a clone loads what the first
/// one committed. It can refuse commits (as a full disk would), and keeps the listener an engine registers
/// with `watch` so a test can play another tab. It does not keep graph records (graph memory is refused).
#[derive(Clone, Default)]
pub struct KeepingStorage(Rc<Kept>);

impl KeepingStorage {
    pub fn new() -> Self {
        Self::default()
    }

    /// A storage that already holds `memories`.
    pub fn holding(memories: Vec<StoredMemory>) -> Self {
        let storage = Self::new();
        *storage.0.memories.borrow_mut() = memories;
        storage
    }

    /// Accepts `commits` more commits, then refuses every one with `STORAGE`, writing nothing of it.
    pub fn refuse_commits_after(&self, commits: usize) {
        self.0.commits_left.set(Some(commits));
    }

    /// The memories stored now, in the order they were first written.
    pub fn memories(&self) -> Vec<StoredMemory> {
        self.0.memories.borrow().clone()
    }

    /// Plays another instance writing to this storage: hands `change` to the listener the engine registered.
    pub fn notify(&self, change: RemoteChange) {
        (self.0.listener.borrow().as_ref().expect("the engine watches this storage"))(change);
    }
}

impl Storage for KeepingStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        Ok(self.memories())
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        match self.0.commits_left.get() {
            Some(0) => return Err(MemoryError::Storage("disk full".into())),
            Some(left) => self.0.commits_left.set(Some(left - 1)),
            None => {}
        }
        let mut memories = self.0.memories.borrow_mut();
        for upsert in &changes.upserts {
            match memories.iter_mut().find(|m| m.item.id == upsert.item.id) {
                Some(stored) => *stored = upsert.clone(),
                None => memories.push(upsert.clone()),
            }
        }
        memories.retain(|m| !changes.deletes.contains(&m.item.id));
        self.0.history.borrow_mut().extend(changes.history.iter().cloned());
        self.0.side.borrow_mut().apply(&changes.side);
        Ok(())
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        Ok(self.0.side.borrow().records(kind))
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        Ok(self.0.history.borrow().iter().filter(|record| record.memory_id == memory_id).cloned().collect())
    }

    async fn clear(&self) -> Result<()> {
        self.0.memories.borrow_mut().clear();
        self.0.history.borrow_mut().clear();
        self.0.side.borrow_mut().clear();
        Ok(())
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        Ok(Some(self.0.history.borrow().clone()))
    }

    fn watch(&self, listener: RemoteListener) {
        self.0.listener.replace(Some(listener));
    }
}

/// A storage `S` that, while `armed`, adds to every commit a last memory whose metadata holds an integer
/// a JS number cannot hold exactly: a store that keeps JSON for JS (IndexedDB) refuses to encode it after
/// the commit's first requests went out, so the whole transaction must be undone. Everything else goes to
/// `inner` unchanged.
pub struct Sabotaged<S> {
    pub inner: S,
    pub armed: Rc<Cell<bool>>,
}

impl<S: Storage> Storage for Sabotaged<S> {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        self.inner.load_memories().await
    }

    async fn load_packed(&self) -> Result<crate::core::packed::Packed> {
        self.inner.load_packed().await
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        self.inner.load_side(kind).await
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        if !self.armed.get() {
            return self.inner.commit(changes).await;
        }
        let mut poisoned = changes.clone();
        poisoned.upserts.push(unstorable());
        self.inner.commit(&poisoned).await
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        self.inner.history(memory_id).await
    }

    async fn clear(&self) -> Result<()> {
        self.inner.clear().await
    }

    async fn load_scope(&self, scope: &Scope) -> Result<Option<crate::core::packed::Packed>> {
        self.inner.load_scope(scope).await
    }

    async fn load_memory(&self, id: &str) -> Result<Option<StoredMemory>> {
        self.inner.load_memory(id).await
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        self.inner.all_history().await
    }

    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        self.inner.load_graph().await
    }

    async fn load_scope_graph(&self, scope: &Scope) -> Result<Vec<GraphRecord>> {
        self.inner.load_scope_graph(scope).await
    }

    fn keeps_memories(&self) -> bool {
        self.inner.keeps_memories()
    }

    fn watch(&self, listener: RemoteListener) {
        self.inner.watch(listener);
    }
}

/// The memory `Sabotaged` adds: its metadata holds an integer a JS number cannot hold exactly.
fn unstorable() -> StoredMemory {
    let item = crate::core::model::types::MemoryItem {
        id: "unstorable".into(),
        memory: "unstorable".into(),
        hash: "unstorable".into(),
        metadata: serde_json::Map::from_iter([("unstorable".into(), serde_json::json!(u64::MAX))]).into(),
        score: None,
        fused_score: None,
        created_at: "2025-01-01T00:00:00.000Z".into(),
        updated_at: "2025-01-01T00:00:00.000Z".into(),
        scope: Scope::default(),
        lifecycle: Default::default(),
    };
    StoredMemory { item, embedding: None }
}
