//! The engine's vector storage when a provider keeps the vectors: a vector index in another process
//! (Chroma, …), a handle of the engine like the in-RAM index, not a feature. With one configured, vectors live there only: the
//! in-RAM index keeps each memory's record and keywords but drops its vector (it notes which ids have one),
//! and vector rankings (search, the neighbours `add` shows the LLM, search by vector) come from the remote
//! index. Providers implement [`RemoteVectors`] (in `vector_store/remote.rs`, beside the in-RAM index); this
//! folder holds the engine's use of it, reached with `engine.remote_vectors()`.
//!
//! Consistency: vectors are written there *before* storage (a failure fails the whole call, nothing kept);
//! a write-back of an unchanged text (pin, decay, metadata) fetches its vector from there first when
//! storage keeps vectors or the remote copy's metadata must change; deletes and clears go *after*
//! storage, and one that fails is kept pending (in storage, as a side record) and replayed before the next
//! write, by this instance or another. Hits the in-RAM index does not know are dropped.

mod pending;
mod ranking;
#[cfg(all(test, feature = "extras"))]
mod tests;
mod writes;

pub use crate::core::vector_store::remote::{IdVectors, RemoteVectors, VectorPoint, VectorQuery};

crate::core::engine::handle::feature_handle!(
    /// The engine's use of a remote vector index, reached with `engine.remote_vectors()`.
    RemoteIndex,
    /// A remote vector index (Chroma), when vectors are kept and searched there.
    remote_vectors
);
