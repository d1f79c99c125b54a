//! The embedding cache: a chunk whose text was embedded before is never embedded again.
//! Texts are keyed by their content hash (the md5 of `identity::content_hash`, as memories' `hash`), and a
//! vector is kept once:
//!
//! - **in its memory** when the chunk is stored: any memory whose `hash` equals the chunk's, in any scope
//!   and in any state, lends its vector (it is the embedding of the very same text);
//! - **as a side record** of kind [`CACHE_KIND`], key the hash, value `{"vector": "<base64>"}` (the
//!   little-endian `f32` bytes, as the JSONL export writes them: 8 KB for 1536 dimensions, against about
//!   20 KB as a JSON number array), for a chunk that was not stored (discarded, or no memory holds it). It
//!   is written in the same commit as the memories, so it persists with them, and `reset()` clears it.
//!
//! So a stored chunk costs no cache space, and only a memory deleted later takes its vector with it. A
//! cached vector whose length differs from the index's (another embedding model) is ignored and replaced.
//! Everything else is embedded in **one** batched request.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::core::codec::{vector_from_base64, vector_to_base64};
use crate::core::documents::Documents;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::content_hash;
use crate::core::model::types::MemoryItem;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// The side-record kind of the embedding cache.
pub const CACHE_KIND: &str = "embedding-cache";

/// The unit vectors of a call's texts, by content hash, and which of them this call embedded.
#[derive(Debug, Default)]
pub(super) struct Vectors {
    pub by_hash: HashMap<String, Vec<f32>>,
    pub fresh: HashSet<String>,
}

/// The cache record of `vector` under `hash`.
pub(super) fn cache_write(hash: &str, vector: &[f32]) -> SideWrite {
    SideWrite::put(CACHE_KIND, hash, json!({ "vector": vector_to_base64(vector) }))
}

fn cached_vector(value: &Value) -> Option<Vec<f32>> {
    vector_from_base64(value.get("vector")?.as_str()?).ok()
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Documents<'_, L, E, S, V> {
    /// The vector of every text of `texts` (none without an embedder): lent by a memory with the same
    /// hash, else read from the cache, else embedded, all of those in one request.
    pub(super) async fn chunk_vectors(&self, texts: &[&str]) -> Result<Vectors> {
        let mut vectors = Vectors::default();
        if !self.embedder.is_configured() {
            return Ok(vectors);
        }
        let mut wanted: Vec<(String, &str)> = Vec::new();
        for text in texts {
            let hash = content_hash(text);
            if !wanted.iter().any(|(held, _)| *held == hash) {
                wanted.push((hash, text));
            }
        }
        self.lend_memory_vectors(&wanted, &mut vectors).await?;
        let mut missing: Vec<(String, String)> = Vec::new();
        for (hash, text) in wanted {
            if vectors.by_hash.contains_key(&hash) {
                continue;
            }
            let cached = self.side_record(CACHE_KIND, &hash).await?;
            match cached.as_ref().and_then(cached_vector).and_then(|v| self.fit_index(v).ok()) {
                Some(vector) => drop(vectors.by_hash.insert(hash, vector)),
                None => missing.push((hash, text.to_owned())),
            }
        }
        if missing.is_empty() {
            return Ok(vectors);
        }
        let inputs: Vec<String> = missing.iter().map(|(_, text)| text.clone()).collect();
        let embedded = self.embedder.embed(&inputs).await?;
        if embedded.len() != inputs.len() {
            let why = format!("{} vectors for {} texts", embedded.len(), inputs.len());
            return Err(MemoryError::EmbeddingResponse(why));
        }
        for ((hash, _), vector) in missing.into_iter().zip(embedded) {
            vectors.by_hash.insert(hash.clone(), self.fit_index(vector)?);
            vectors.fresh.insert(hash);
        }
        Ok(vectors)
    }

    /// Puts in `vectors` the vectors of the memories (any scope, any state) whose hash is wanted (read
    /// from the remote index in one request when vectors live there).
    async fn lend_memory_vectors(&self, wanted: &[(String, &str)], vectors: &mut Vectors) -> Result<()> {
        let hashes: HashSet<&str> = wanted.iter().map(|(hash, _)| hash.as_str()).collect();
        let lendable =
            |item: &MemoryItem| hashes.contains(item.hash.as_str()) && !vectors.by_hash.contains_key(&item.hash);
        let by_id: Vec<(String, String)> = {
            let index = self.index.borrow();
            let listed = index.list(usize::MAX, &lendable);
            listed.into_iter().map(|m| (m.item.id.clone(), m.item.hash.clone())).collect()
        };
        let ids: Vec<String> = by_id.iter().map(|(id, _)| id.clone()).collect();
        let mut found = self.remote_vectors().vectors_of(&ids).await?;
        for (id, hash) in by_id {
            if let Some(vector) = found.remove(&id) {
                vectors.by_hash.entry(hash).or_insert(vector);
            }
        }
        Ok(())
    }
}
