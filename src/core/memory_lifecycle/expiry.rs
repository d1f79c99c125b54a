//! Forgetting over time: `purgeExpired`, `pin`, and `decay` (importance halves every `halfLifeDays` since
//! the last access; what falls below `forgetBelow` is deleted, with history).

use serde::Serialize;

use crate::core::error::{MemoryError, Result};
use crate::core::lifecycle::decay::{decayed, DecayPlan};
use crate::core::limits::memory_id;
use crate::core::memory_lifecycle::MemoryLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::time::millis_from_iso;
use crate::core::vector_store::VectorStore;

/// What `decay()` did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DecayOutcome {
    /// Memories whose importance was lowered and kept.
    pub decayed: usize,
    /// Memories that fell below `forgetBelow` and were deleted.
    pub forgotten: usize,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryLifecycle<'_, L, E, S, V> {
    /// The stored memories of `scope` (every scope for an empty one) passing `keep`.
    pub(crate) async fn scope_memories(
        &self,
        scope: &Scope,
        keep: &dyn Fn(&MemoryItem) -> bool,
    ) -> Result<Vec<StoredMemory>> {
        self.load_scope(scope).await?;
        let ids: Vec<String> = {
            let index = self.index.borrow();
            let listed = index.list(usize::MAX, &|item| scope.contains(&item.scope) && keep(item));
            listed.into_iter().map(|m| m.item.id.clone()).collect()
        };
        Ok(ids.iter().filter_map(|id| self.indexed(id)).collect())
    }

    /// Deletes the expired memories of `scope` (every scope for an empty one), each with a DELETE record.
    pub async fn purge_expired(&self, scope: &Scope) -> Result<usize> {
        let now = self.now_iso();
        let expired = self.scope_memories(scope, &|item| item.lifecycle.is_expired(&now)).await?;
        self.purge(expired.into_iter().map(|m| m.item).collect()).await
    }

    /// Pins (or unpins) a live memory: pinned memories never decay, are never trimmed, and are recalled
    /// right after procedural ones.
    pub async fn pin(&self, id: &str, pinned: bool) -> Result<MemoryItem> {
        let mut memory = self.existing(memory_id(id)?).await?;
        memory.item.lifecycle.pinned = pinned;
        let item = memory.item.clone();
        self.commit(Changeset { upserts: vec![memory], ..Changeset::default() }).await?;
        Ok(item)
    }

    /// Lowers the importance of every unpinned live memory of `scope` (every scope for an empty one) that
    /// `plan` takes (by type, and by key when it takes keyed entries only) by
    /// `0.5^(days since its last access / halfLifeDays)` and deletes those that end below `forgetBelow`.
    /// Last accesses noted by searches are written first, in the same transaction.
    pub async fn decay(&self, scope: &Scope, plan: DecayPlan) -> Result<DecayOutcome> {
        let now_ms = self.now_ms();
        let now = self.now_iso();
        let mut touched = self.lifecycle().take_accesses();
        let takes = |item: &MemoryItem| plan.takes(item.lifecycle.memory_type, item.lifecycle.key.is_some());
        let candidates = self.scope_memories(scope, &|item| item.lifecycle.is_live(&now) && takes(item)).await?;
        let mut outcome = DecayOutcome::default();
        let mut doomed = Vec::new();
        let mut kept = Vec::new();
        for mut memory in candidates {
            let newer = touched.iter().position(|m| m.item.id == memory.item.id);
            let newer_access = newer.is_some();
            if let Some(newer) = newer {
                memory = touched.swap_remove(newer);
            }
            let life = &mut memory.item.lifecycle;
            if life.pinned {
                if newer_access {
                    kept.push(memory); // its access is written, its importance left alone
                }
                continue;
            }
            let since = [life.last_accessed_at.as_deref(), life.decayed_at.as_deref(), Some(&memory.item.updated_at)]
                .into_iter()
                .flatten()
                .filter_map(millis_from_iso)
                .max()
                .unwrap_or(now_ms);
            life.importance = decayed(life.importance, now_ms - since, plan.half_life_days);
            life.decayed_at = Some(now.clone());
            if life.importance < plan.forget_below {
                doomed.push(memory);
            } else {
                kept.push(memory);
            }
        }
        (outcome.decayed, outcome.forgotten) = (kept.len(), doomed.len());
        let mut changes = self.deletion(doomed, false);
        changes.upserts.extend(kept);
        changes.upserts.extend(touched);
        self.commit(changes).await?;
        Ok(outcome)
    }
}

/// `NOT_FOUND` or `EXPIRED` for a key, as `getByKey` reports them.
pub(crate) fn missing_key(key: &str, expired: bool) -> MemoryError {
    if expired {
        MemoryError::Expired(format!("with key {key:?}"))
    } else {
        MemoryError::NotFound(format!("with key {key:?}"))
    }
}
