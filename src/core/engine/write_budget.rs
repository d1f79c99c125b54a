//! What every write shares: the scope's centroid (for a new memory's importance), and trimming a scope back
//! under `limits.maxMemoriesPerScope` and `limits.maxFacts`.

use super::memory::MemoryEngine;
use super::pipeline::event;
use crate::core::lifecycle::facts::{is_fact, FACT_TYPES};
use crate::core::lifecycle::write::over_limit;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, EventKind, MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::{Count, Plain, VectorStore};

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The mean of the unit vectors of the live memories in `scope`, for novelty; with a remote index, the
    /// running mean of the vectors this instance saw for it (see `RemoteSlot::centroid`).
    pub(crate) fn centroid(&self, scope: &Scope) -> Option<Vec<f64>> {
        if self.has_remote_vectors() {
            return self.remote.centroid(scope);
        }
        self.index.borrow().centroid(scope, &self.now_iso())
    }

    /// Adds to `changes` the deletion (with history) of the least important, oldest unpinned memories of
    /// `scope` that the write would leave over `limits.maxMemoriesPerScope` (every memory) or, when it writes a
    /// fact, over `limits.maxFacts` (facts only: see [`is_fact`]).
    pub(crate) fn trim(&self, scope: &Scope, changes: &mut Changeset) {
        if let Some(max) = self.lifecycle.max_memories_per_scope {
            self.trim_to(scope, changes, max, Plain::mask(None), &|_| true);
        }
        let writes_a_fact = changes.upserts.iter().any(|m| &m.item.scope == scope && is_fact(&m.item));
        if let (Some(max), true) = (self.lifecycle.max_facts, writes_a_fact) {
            self.trim_to(scope, changes, max, Plain::mask(Some(&FACT_TYPES)), &is_fact);
        }
    }

    /// [`trim`](Self::trim) for an `add()`: each memory the budget deletes is also a DELETE event of `result`,
    /// so the caller sees what the write took (an import over `limits.maxFacts` would otherwise lose facts
    /// without a word).
    pub(crate) fn trim_recorded(&self, scope: &Scope, result: &mut AddResult, changes: &mut Changeset) {
        let before = changes.deletes.len();
        self.trim(scope, changes);
        let index = self.index.borrow();
        for memory in changes.deletes[before..].iter().filter_map(|id| index.get(id)) {
            let old = Some(memory.item.memory.clone());
            result.record(event(EventKind::Delete, &memory.item, old, None));
        }
    }

    /// Trims the memories of `scope` that `counts` to `max`; `types` is the mask of the types they can have.
    fn trim_to(
        &self,
        scope: &Scope,
        changes: &mut Changeset,
        max: usize,
        types: u8,
        counts: &dyn Fn(&MemoryItem) -> bool,
    ) {
        let now = self.now_iso();
        let index = self.index.borrow();
        // Under the limit even counting every live memory of these types the scope contains (a count the
        // index keeps, an upper bound of what `counts`): no need to list and rank them.
        let live = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(&now) && counts(item);
        let held = index.count(&Count { keep: &live, vectorless: false, plain: Some(Plain { scope, types }) });
        if held + changes.upserts.len() <= max {
            return;
        }
        let written = |id: &str| changes.upserts.iter().any(|m| m.item.id == id);
        let deleted = |id: &str| changes.deletes.iter().any(|d| d == id);
        let existing = index.list(usize::MAX, &|item| {
            scope == &item.scope
                && item.lifecycle.is_live(&now)
                && counts(item)
                && !written(&item.id)
                && !deleted(&item.id)
        });
        let fresh = changes
            .upserts
            .iter()
            .filter(|m| &m.item.scope == scope && m.item.lifecycle.is_live(&now) && counts(&m.item));
        let mut all: Vec<&MemoryItem> = existing.iter().map(|m| &m.item).collect();
        all.extend(fresh.map(|m| &m.item));
        let doomed: Vec<StoredMemory> =
            over_limit(&all, max, &written).into_iter().filter_map(|item| index.get(&item.id).cloned()).collect();
        drop(index);
        let trimmed = self.deletion(doomed, false);
        changes.deletes.extend(trimmed.deletes);
        changes.history.extend(trimmed.history);
    }
}
