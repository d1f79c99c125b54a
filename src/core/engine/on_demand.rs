//! Storages that load on demand (KV): a scope's memories enter the search index on the scope's first use,
//! with its graph records when graph memory is on, and a memory asked for by id is fetched on its own (with
//! its scope's graph, so deleting it cascades). Storages that load everything at open answer `None`.

use super::memory::{fill, MemoryEngine};
use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model::types::StoredMemory;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Puts the stored memories of `scope` into the index, unless storage has nothing to add. Their vectors
    /// go from storage's rows straight into the index (an open image's, in a Durable Object), as at open.
    pub(crate) async fn load_scope(&self, scope: &Scope) -> Result<()> {
        let Some(packed) = self.storage.load_scope(scope).await? else {
            return Ok(());
        };
        // Removed and re-inserted oldest first, so the index lists the scope in creation order.
        let ids: Vec<String> = packed.memories.iter().map(|memory| memory.item.id.clone()).collect();
        self.clock.loaded_up_to(packed.memories.iter().map(|memory| memory.item.created_at.as_str()));
        if self.has_remote_vectors() {
            self.load_handing_over(&ids, packed.into_memories()).await?;
        } else {
            self.mirror(false, &ids, Vec::new())?;
            fill(&mut *self.index.borrow_mut(), &mut self.keywords.borrow_mut(), packed)?;
        }
        for hooks in self.extensions.hooks() {
            if let Some(load) = hooks.on_load_scope(self, scope) {
                load.await?;
            }
        }
        Ok(())
    }

    /// Like `mirror(false, ids, memories)` with a remote index: the vectors of memories stored before the
    /// switch to it are uploaded first, since the index drops every vector.
    async fn load_handing_over(&self, ids: &[String], memories: Vec<StoredMemory>) -> Result<()> {
        self.remote_vectors().hand_over(&memories.iter().collect::<Vec<_>>()).await?;
        // Room for the whole scope at once: growing by doubling would hold two copies of the records
        // beside the loaded ones at the peak.
        self.index.borrow_mut().reserve(memories.len());
        self.keywords.borrow_mut().reserve(memories.len());
        self.mirror(false, ids, memories)
    }

    /// How many loaded texts the keyword index has not indexed yet: the next keyword read (a search)
    /// indexes them first.
    pub fn unindexed_keywords(&self) -> usize {
        self.keywords.borrow().unindexed()
    }

    /// Builds now what a scope's first search would build (the keyword index of the loaded texts), from what
    /// is in memory: it reads no storage, so it never puts an older view over a newer one. A host that loaded
    /// a scope for another call (a list, an add) calls it, so the next search finds everything ready.
    pub fn prepare_search(&self) {
        self.keywords.borrow().build();
    }

    /// Does what storage left for after the answer (KV storage in a Durable Object writes the open images of
    /// the scopes it read in full); a host calls it once the answer is sent, and with `idle` when no request
    /// has come for a while (images of scopes whose journal grew long are written then).
    pub async fn settle_storage(&self, idle: bool) -> Result<()> {
        self.storage.settle(idle).await
    }

    /// How each scope loaded from storage so far (`Storage::scope_loads`), for tests and benches.
    pub fn scope_loads(&self) -> Vec<String> {
        self.storage.scope_loads()
    }

    /// The memory with this id, with its vector: from the index, else from storage (and then kept in the
    /// index).
    pub(crate) async fn find(&self, id: &str) -> Result<Option<StoredMemory>> {
        if let Some(memory) = self.indexed(id) {
            return Ok(Some(memory));
        }
        let Some(memory) = self.storage.load_memory(id).await? else {
            return Ok(None);
        };
        self.mirror(false, &[], vec![memory.clone()])?;
        if self.extensions.hooks().any(|hooks| hooks.needs_whole_scope()) {
            self.load_scope(&memory.item.scope).await?;
        }
        Ok(Some(memory))
    }

    /// The indexed memory with this id, its vector attached: the index keeps vectors apart from its
    /// records, and a record written back without its vector would lose it.
    pub(crate) fn indexed(&self, id: &str) -> Option<StoredMemory> {
        let index = self.index.borrow();
        Some(StoredMemory { item: index.get(id)?.item.clone(), embedding: index.vector(id) })
    }
}
