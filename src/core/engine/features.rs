//! The way from the engine to each feature: one handle per feature, holding that feature's methods.

use super::memory::MemoryEngine;
use crate::core::additive::Additive;
use crate::core::conversations::Conversations;
use crate::core::documents::Documents;
use crate::core::fast_add::FastAdd;
use crate::core::graph::GraphMemory;
use crate::core::lifecycle::MemoryLifecycle;
use crate::core::remote_vectors::RemoteIndex;
use crate::core::tiers::Tiers;

impl<L, E, S, V> MemoryEngine<L, E, S, V> {
    /// Conversation memories: messages, episodes, profiles, conversation metadata, compression.
    pub fn conversations(&self) -> Conversations<'_, L, E, S, V> {
        Conversations(self)
    }

    /// The agent tiers: the context window, the background writer, journals and dreams.
    pub fn tiers(&self) -> Tiers<'_, L, E, S, V> {
        Tiers(self)
    }

    /// Documents: ingestion into chunks.
    pub fn documents(&self) -> Documents<'_, L, E, S, V> {
        Documents(self)
    }

    /// The memory lifecycle: pinning, expiry, decay, keys, sharing and stats.
    pub fn lifecycle(&self) -> MemoryLifecycle<'_, L, E, S, V> {
        MemoryLifecycle(self)
    }

    /// Graph memory: entities and relations.
    pub fn graph(&self) -> GraphMemory<'_, L, E, S, V> {
        GraphMemory(self)
    }

    /// A remote vector index (Chroma), when vectors are kept and searched there.
    pub fn remote_vectors(&self) -> RemoteIndex<'_, L, E, S, V> {
        RemoteIndex(self)
    }

    /// `add()`'s fast pipeline.
    pub fn fast_add(&self) -> FastAdd<'_, L, E, S, V> {
        FastAdd(self)
    }

    /// `add()`'s additive pipeline.
    pub fn additive(&self) -> Additive<'_, L, E, S, V> {
        Additive(self)
    }
}
