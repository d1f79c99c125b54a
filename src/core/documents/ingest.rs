//! `ingest()`: clean → chunk → embed what is not cached (one request) → importance and type
//! per chunk → one commit of the chunks worth keeping, with no LLM call.
//!
//! - **Importance** is the write-time importance of every new memory (`0.6 · novelty + 0.4 · salience`,
//!   `lifecycle::importance`), against the scope's centroid taken once before the call, so the chunks of
//!   one document do not lower each other's novelty. A chunk below [`DISCARD_BELOW`] (or below
//!   `importance.minToStore` when the config sets it higher) is not stored: `reason: LOW_IMPORTANCE`.
//! - **Duplicates**: a chunk whose text a live memory of the scope already holds (the same md5), or an
//!   earlier chunk of the same call, is not stored again: `reason: DUPLICATE`, `id` the memory holding it.
//! - **Stored chunks** are memories with `metadata: {sessionId, documentHash, chunkIndex}` (the md5 of the
//!   cleaned text, and the chunk's place in `chunks`), the routed type, the computed importance, an ADD
//!   history record each, written in one commit with the cache records, and `limits` trimming.
//! - **Failures**: bad options or an empty text reject before any request; a failed embedding request
//!   rejects with its error (`EMBEDDING_HTTP`, `DIMENSION_MISMATCH`, …). Either way nothing is stored.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;

use super::cache::cache_write;
use super::chunk::chunk_counted;
use super::clean::clean;
use super::options::IngestOptions;
use super::route::route;
use crate::core::documents::Documents;
use crate::core::error::Result;
use crate::core::identity::{content_hash, new_id};
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::types::{EventKind, MemoryItem, Metadata, StoredMemory};
use crate::core::model::MemoryType;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Chunks less important than this are discarded.
pub const DISCARD_BELOW: f64 = 0.3;

/// Why a chunk was not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DiscardReason {
    /// Its importance is below the threshold.
    LowImportance,
    /// A live memory of the scope (or an earlier chunk) holds the same text.
    Duplicate,
}

/// One chunk of an ingested document and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngestedChunk {
    pub text: String,
    /// `estimate_tokens(text)`.
    pub tokens: usize,
    /// The computed importance, in [0, 1].
    pub importance: f64,
    pub memory_type: MemoryType,
    /// The new memory's id when stored; the holding memory's id for a duplicate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub stored: bool,
    /// Set when not stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<DiscardReason>,
}

/// What `ingest()` returns: every chunk in document order, and how many were stored and not stored
/// (`stored + discarded == chunks.length`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IngestResult {
    pub chunks: Vec<IngestedChunk>,
    pub stored: usize,
    pub discarded: usize,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Documents<'_, L, E, S, V> {
    /// Cuts `text` into chunks and stores those important enough as memories of the scope.
    pub async fn ingest(&self, text: &str, options: &IngestOptions) -> Result<IngestResult> {
        let (scope, session) = options.checked()?;
        let cleaned = clean(text)?;
        let chunks = chunk_counted(&cleaned, &|text| self.count_tokens(text));
        self.load_scope(&scope).await?;
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        let vectors = self.chunk_vectors(&texts).await?;
        let centroid = self.centroid(&scope);
        let threshold = DISCARD_BELOW.max(self.lifecycle.min_to_store);
        let mut held = self.held_in_scope(&scope, &texts);
        let document = content_hash(&cleaned);
        let now = self.now_iso();
        let mut changes = Changeset::default();
        let mut results = Vec::with_capacity(chunks.len());
        for (index, chunk) in chunks.into_iter().enumerate() {
            let hash = content_hash(&chunk.text);
            let vector = vectors.by_hash.get(&hash).cloned();
            let write = WriteLifecycle {
                memory_type: Some(route(&chunk.text, options.memory_type_hint)),
                ..WriteLifecycle::default()
            };
            let lifecycle = write.for_new(&chunk.text, vector.as_deref(), centroid.as_deref());
            let mut result = IngestedChunk {
                text: chunk.text,
                tokens: chunk.tokens,
                importance: lifecycle.importance,
                memory_type: lifecycle.memory_type,
                id: None,
                stored: false,
                reason: None,
            };
            if let Some(id) = held.get(&hash) {
                (result.id, result.reason) = (Some(id.clone()), Some(DiscardReason::Duplicate));
            } else if lifecycle.importance < threshold {
                result.reason = Some(DiscardReason::LowImportance);
            } else {
                let item = MemoryItem {
                    id: new_id(),
                    memory: result.text.clone(),
                    hash: hash.clone(),
                    metadata: chunk_metadata(&session, &document, index).into(),
                    score: None,
                    fused_score: None,
                    created_at: now.clone(),
                    updated_at: now.clone(),
                    scope: scope.clone(),
                    lifecycle,
                };
                changes.history.push(self.record(&item, EventKind::Add, None, Some(item.memory.clone())));
                held.insert(hash, item.id.clone());
                (result.id, result.stored) = (Some(item.id.clone()), true);
                changes.upserts.push(StoredMemory { item, embedding: vector });
            }
            results.push(result);
        }
        let stored_hashes: Vec<&str> = changes.upserts.iter().map(|m| m.item.hash.as_str()).collect();
        let mut fresh: Vec<&String> = vectors.fresh.iter().filter(|h| !stored_hashes.contains(&h.as_str())).collect();
        crate::core::sort::sort(&mut fresh);
        changes.side = fresh.into_iter().map(|hash| cache_write(hash, &vectors.by_hash[hash])).collect();
        self.trim(&scope, &mut changes);
        self.commit(changes).await?;
        let stored = results.iter().filter(|c| c.stored).count();
        Ok(IngestResult { discarded: results.len() - stored, stored, chunks: results })
    }

    /// The live memories `scope` sees that hold one of `texts`: their id by hash (the oldest of each text).
    fn held_in_scope(&self, scope: &Scope, texts: &[&str]) -> HashMap<String, String> {
        let hashes: HashSet<String> = texts.iter().map(|text| content_hash(text)).collect();
        let now = self.now_iso();
        let keep = |item: &MemoryItem| {
            hashes.contains(&item.hash) && scope.contains(&item.scope) && item.lifecycle.is_live(&now)
        };
        let index = self.index.borrow();
        let mut held = HashMap::new();
        for memory in index.list(usize::MAX, &keep) {
            held.entry(memory.item.hash.clone()).or_insert_with(|| memory.item.id.clone());
        }
        held
    }
}

/// `{sessionId, documentHash, chunkIndex}`.
fn chunk_metadata(session: &str, document: &str, index: usize) -> Metadata {
    let mut metadata = Metadata::new();
    metadata.insert("sessionId".into(), Value::String(session.to_owned()));
    metadata.insert("documentHash".into(), Value::String(document.to_owned()));
    metadata.insert("chunkIndex".into(), Value::from(index));
    metadata
}

#[cfg(test)]
#[path = "ingest_tests.rs"]
mod tests;
