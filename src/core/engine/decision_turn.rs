//! `add()`'s decision, one scope at a time. Two inferring `add()`s of one scope that run at once would each
//! be shown the memories as they were before either committed, so both could ADD contradicting facts ("lives
//! in Paris", "lives in Berlin"). An inferring `add()` therefore holds its scope's turn from the moment it
//! reads the scope's memories (before extraction, which the fast and additive pipelines run beside that
//! read) until its commit: the next `add()` of the scope is shown what this one decided. The turn is held in
//! this engine (and its peers), and against the other instances on the same storage that can write meanwhile
//! (other tabs on one IndexedDB database), whose writes this one has been told of reach the index before
//! the turn begins. `add()`s of
//! other scopes, and `infer: false` ones, do not wait. A model host that does not answer releases the turn
//! when its timeout ends the call.

use super::locks::Guard;
use super::memory::MemoryEngine;
use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{SharedTurn, Storage};
use crate::core::vector_store::VectorStore;

/// A scope's turn, held until dropped (after the `add()`'s commit). Fields drop in order: the other
/// instances' hold first, then this engine's.
pub(crate) struct DecisionTurn<'a> {
    _shared: Option<SharedTurn>,
    _local: Guard<'a>,
}

/// The lock key of `scope`'s turn: its ids as JSON, so no two scopes share one.
fn key(scope: &Scope) -> String {
    format!("memories:decide:{}", serde_json::to_string(scope).unwrap_or_default())
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Waits for the `add()`s of `scope` before this one to commit, here and in the other instances on the
    /// storage, then holds the scope's turn until the guard is dropped.
    pub(crate) async fn decision_turn(&self, scope: &Scope) -> Result<DecisionTurn<'_>> {
        let key = key(scope);
        let local = self.locks.lock(&key).await;
        let shared = self.storage.hold(&key).await?;
        Ok(DecisionTurn { _shared: shared, _local: local })
    }
}
