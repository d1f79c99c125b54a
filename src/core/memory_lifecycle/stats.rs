//! `stats()`: counts over the memories held.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::core::error::Result;
use crate::core::memory_lifecycle::MemoryLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::MemoryType;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// One scope's count in `stats()`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScopeCount {
    #[serde(flatten)]
    pub scope: Scope,
    pub count: usize,
    /// How many of them have a key (agent key/value entries).
    pub keyed: usize,
}

/// What `stats()` reports over the memories held.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Live memories (not expired, not soft-deleted).
    pub total_entries: usize,
    /// How many of them have a key (agent key/value entries).
    pub keyed: usize,
    pub by_scope: Vec<ScopeCount>,
    pub by_type: BTreeMap<&'static str, usize>,
    pub pinned: usize,
    /// Expired memories not purged yet.
    pub expired: usize,
    /// Live memories without a vector while an embedder is configured (their embedding failed or is still
    /// due): only keyword ranking finds them.
    pub keyword_only: usize,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryLifecycle<'_, L, E, S, V> {
    /// Counts over the memories of `scope` (every memory held for an empty scope).
    pub async fn stats(&self, scope: &Scope) -> Result<Stats> {
        let now = self.now_iso();
        let memories = self.scope_memories(scope, &|item| !item.lifecycle.is_deleted()).await?;
        let mut stats = Stats::default();
        let embedded = self.embedder.is_configured();
        let mut by_scope: BTreeMap<Scope, (usize, usize)> = BTreeMap::new();
        for kind in MemoryType::ALL {
            stats.by_type.insert(kind.as_str(), 0);
        }
        for memory in memories.iter().map(|m| &m.item) {
            if memory.lifecycle.is_expired(&now) {
                stats.expired += 1;
                continue;
            }
            let keyed = usize::from(memory.lifecycle.key.is_some());
            stats.total_entries += 1;
            stats.keyed += keyed;
            stats.pinned += usize::from(memory.lifecycle.pinned);
            stats.keyword_only += usize::from(embedded && !self.has_vector(&memory.id));
            *stats.by_type.entry(memory.lifecycle.memory_type.as_str()).or_default() += 1;
            let counts = by_scope.entry(memory.scope.clone()).or_default();
            *counts = (counts.0 + 1, counts.1 + keyed);
        }
        stats.by_scope =
            by_scope.into_iter().map(|(scope, (count, keyed))| ScopeCount { scope, count, keyed }).collect();
        Ok(stats)
    }
}
