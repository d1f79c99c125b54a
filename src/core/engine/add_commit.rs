//! `add()`'s commit, one at a time. Concurrent `add()`s of one scope may each decide to ADD the same fact,
//! each having checked for it before the other committed (the fast pipeline's decision runs beside the
//! facts' embedding, so that window is wide). Under one lock, a new memory whose text a live memory of its
//! scope holds by now is dropped from the commit, and its ADD event becomes a NONE event for that memory:
//! identical facts are stored once, whatever the interleaving, at the cost of a hash lookup per new memory.

use super::memory::MemoryEngine;
use crate::core::identity::content_hash;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, EventKind, MemoryEvent, MemoryItem};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The lock every `add()` commit holds.
const LOCK: &str = "memories:add-commit";

/// The lock's guard: dropped after the commit.
pub(crate) type AddCommitGuard<'a> = super::locks::Guard<'a>;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Waits for the commits of other `add()`s, then drops from `changes` the new memories of `scope` whose
    /// text was stored meanwhile (see the module). Hold the guard until `changes` is committed.
    pub(crate) async fn lock_add_commit(
        &self,
        scope: &Scope,
        result: &mut AddResult,
        changes: &mut Changeset,
    ) -> AddCommitGuard<'_> {
        let guard = self.locks.lock(LOCK).await;
        let now = self.now_iso();
        let live = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(&now);
        let stored: Vec<(String, MemoryItem)> = {
            let index = self.index.borrow();
            let new = changes.upserts.iter().filter(|m| index.get(&m.item.id).is_none());
            new.filter_map(|m| {
                Some((m.item.id.clone(), index.find_by_hash(&content_hash(&m.item.memory), &live)?.item.clone()))
            })
            .collect()
        };
        for (dropped, existing) in stored {
            changes.upserts.retain(|m| m.item.id != dropped);
            changes.history.retain(|h| h.memory_id != dropped);
            self.forget_unsettled(changes, &dropped);
            let reported = result.results.iter().any(|e| e.id == existing.id);
            result.results.retain(|e| e.id != dropped || reported);
            if let Some(event) = result.results.iter_mut().find(|e| e.id == dropped) {
                *event = MemoryEvent {
                    id: existing.id,
                    event: EventKind::None,
                    memory: existing.memory,
                    old_memory: None,
                    new_memory: None,
                    metadata: None,
                };
            }
        }
        guard
    }
}
