//! The way from the engine to each feature: one handle type per feature, declared here, whose methods live
//! in the feature's own folder (`impl Conversations<'_, …>` in `conversations/`). The engine names no feature.

use super::handle::feature_handle;
use super::memory::MemoryEngine;

feature_handle!(
    /// The additive add pipeline, reached with `engine.additive()`.
    Additive
);
feature_handle!(
    /// Conversation memories, reached with `engine.conversations()`.
    Conversations
);
feature_handle!(
    /// Documents, reached with `engine.documents()`.
    Documents
);
feature_handle!(
    /// The fast add pipeline, reached with `engine.fast_add()`.
    FastAdd
);
feature_handle!(
    /// Graph memory, reached with `engine.graph()`.
    GraphMemory
);
feature_handle!(
    /// The memory lifecycle, reached with `engine.lifecycle()`.
    MemoryLifecycle
);
feature_handle!(
    /// The engine's use of a remote vector index, reached with `engine.remote_vectors()`.
    RemoteIndex
);
feature_handle!(
    /// The agent tiers, reached with `engine.tiers()`.
    Tiers
);

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
