//! Storages that load on demand (KV): a scope's memories enter the search index on the scope's first use,
//! and a memory asked for by id is fetched on its own. Storages that load everything at open answer `None`.

use super::error::Result;
use super::memory::MemoryEngine;
use super::scope::Scope;
use super::storage::Storage;
use super::types::StoredMemory;
use super::vector_store::VectorStore;
use crate::providers::{Embedder, Llm};

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Puts the stored memories of `scope` into the index, unless storage has nothing to add.
    pub(crate) async fn load_scope(&self, scope: &Scope) -> Result<()> {
        let Some(memories) = self.storage.load_scope(scope).await? else {
            return Ok(());
        };
        // Removed and re-inserted oldest first, so the index lists the scope in creation order.
        let ids: Vec<String> = memories.iter().map(|memory| memory.item.id.clone()).collect();
        self.mirror(false, &ids, memories)
    }

    /// The memory with this id: from the index, else from storage (and then kept in the index).
    pub(crate) async fn find(&self, id: &str) -> Result<Option<StoredMemory>> {
        if let Some(memory) = self.index.borrow().get(id) {
            return Ok(Some(memory.clone()));
        }
        let Some(memory) = self.storage.load_memory(id).await? else {
            return Ok(None);
        };
        self.mirror(false, &[], vec![memory.clone()])?;
        Ok(Some(memory))
    }
}
