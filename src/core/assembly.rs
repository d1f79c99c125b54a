//! The engine as this build opens it: the engine with the features this build holds attached to it (their
//! states and hooks, see `engine::extensions`). The engine itself names no feature; this file does.

use crate::core::config::Prompts;
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// A memory with an empty index, for storage that holds nothing yet (the in-memory default).
    pub fn new(llm: L, embedder: E, storage: S, prompts: Prompts) -> Self {
        Self::new_with_index(llm, embedder, storage, prompts, V::default())
    }

    /// Like `new`, with a configured empty search index (e.g. an int8 one).
    pub fn new_with_index(llm: L, embedder: E, storage: S, prompts: Prompts, index: V) -> Self {
        attached(Self::assemble(llm, embedder, storage, prompts, index))
    }

    /// Opens the memory: loads every stored memory into the search index.
    pub async fn open(llm: L, embedder: E, storage: S, prompts: Prompts) -> Result<Self> {
        Self::open_with_index(llm, embedder, storage, prompts, V::default()).await
    }

    /// Like `open`, loading into a configured empty search index (e.g. an int8 one).
    pub async fn open_with_index(llm: L, embedder: E, storage: S, prompts: Prompts, index: V) -> Result<Self> {
        Self::assemble_loaded(llm, embedder, storage, prompts, index).await.map(attached)
    }
}

/// `engine` with the hooks of this build's features attached, in the order they run.
fn attached<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default>(
    engine: MemoryEngine<L, E, S, V>,
) -> MemoryEngine<L, E, S, V> {
    #[cfg(feature = "core-features")]
    {
        engine.conversation_state();
        engine.extensions.get_or_attach::<crate::core::fast_add::FastPipeline>();
        engine.additive_state();
        // Graph memory's search step adds results before the access notes note what a search returned.
        #[cfg(feature = "extras")]
        engine.graph_state();
        engine.access_notes();
        engine.sync_recorder();
        engine.extensions.get_or_attach::<crate::core::provenance::ProvenanceState>();
    }
    engine
}
