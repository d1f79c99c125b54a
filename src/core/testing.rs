//! Test doubles of the engine's parts, shared by the unit tests, the integration tests in `tests/` and the
//! browser tests: models that answer without a network, storages that keep or refuse what they are given,
//! and a KV namespace in RAM. Hidden from the docs, and nothing the package exports uses it (LTO drops it
//! from the `.wasm`); like the rest of the core it builds for every target.
//!
//! The doubles are cheap handles: clones share their state, so a test keeps one clone to script and
//! inspect, and gives another to the engine ([`Doubles`] does that for all three).

mod embedders;
mod kv;
mod llm;
mod remote_vectors;
mod seeded;
mod storage;
mod yield_once;

pub use embedders::{Letters, NoEmbedder, TableEmbedder};
pub use kv::MapKv;
pub use llm::{LlmCall, NoLlm, ScriptedLlm};
pub use remote_vectors::MapRemote;
pub use seeded::Seeded;
pub use storage::{KeepingStorage, Sabotaged};
pub use yield_once::yield_once;

use super::config::Prompts;
use super::engine::memory::MemoryEngine;
use super::error::Result;
use super::model_traits::{Embedder, Llm};
use super::storage::Storage;

/// An engine's model, embedder and storage, kept by the test; the engines it builds get clones.
#[derive(Clone, Default)]
pub struct Doubles<L, E, S> {
    pub llm: L,
    pub embedder: E,
    pub storage: S,
}

impl<L: Llm + Clone, E: Embedder + Clone, S: Storage + Clone> Doubles<L, E, S> {
    /// A new engine over clones of the doubles, with the built-in prompts.
    pub fn engine(&self) -> MemoryEngine<L, E, S> {
        MemoryEngine::new(self.llm.clone(), self.embedder.clone(), self.storage.clone(), Prompts::default())
    }

    /// Like `engine`, loading what the storage holds first (a reopen).
    pub async fn open(&self) -> Result<MemoryEngine<L, E, S>> {
        MemoryEngine::open(self.llm.clone(), self.embedder.clone(), self.storage.clone(), Prompts::default()).await
    }
}

/// An engine over `storage` with no LLM and 26 letter-frequency dimensions.
pub fn letter_engine<S: Storage>(storage: S) -> MemoryEngine<NoLlm, Letters, S> {
    MemoryEngine::new(NoLlm, Letters::new(26), storage, Prompts::default())
}
