//! Provenance: where each memory came from. Every memory an `add()` writes (inferring, by any pipeline, or
//! `infer: false`) keeps the add's non-system messages as its sources (verbatim: each memory its own
//! message): the message's id (the caller's, else a hash of its role and text), conversation, role, time and
//! first 200 characters, with the event (ADD or UPDATE) and its history record. An UPDATE adds its messages
//! and keeps the older ones. Deleting a memory keeps its sources, as it keeps its history (`reset()` clears
//! both). Sources travel in exports and come back with imports, and sync entries carry them.
//!
//! The same feature keeps `add()`'s `idempotencyKey`s (`replay`).

mod record;
mod replay;
mod state;

pub use record::{message_hash, MemorySource, SourceMessage, SourceRecord, EXCERPT_CHARS, SOURCES_KIND};
pub use replay::KEYS_KIND;
pub use state::ProvenanceState;

use crate::core::error::{MemoryError, Result};
use crate::core::limits::memory_id;
use crate::core::model::types::EventKind;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

crate::core::engine::handle::feature_handle!(
    /// Where memories came from, reached with `engine.provenance()`.
    Provenance,
    /// The provenance feature: `sources()`.
    provenance
);

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Provenance<'_, L, E, S, V> {
    /// The messages memory `id` came from, oldest first; `[]` for a memory that has none, `NOT_FOUND` for
    /// an id that is neither a memory nor has sources kept (a deleted memory keeps them).
    pub async fn sources(&self, id: &str) -> Result<Vec<MemorySource>> {
        let id = memory_id(id)?;
        let prefix = format!("{id}/");
        let records = self.side_records_under(SOURCES_KIND, &prefix).await?;
        let mut records: Vec<SourceRecord> = (records.into_iter())
            .filter_map(|record| serde_json::from_value::<SourceRecord>(record.value).ok())
            .filter(|record| record.memory_id == id)
            .collect();
        if records.is_empty() {
            return match self.find(id).await? {
                Some(_) => Ok(Vec::new()),
                None => Err(MemoryError::NotFound(id.to_owned())),
            };
        }
        // Oldest first; an ADD and an UPDATE of one millisecond in that order.
        records.sort_by_key(|r| (r.recorded_at.clone(), r.event != EventKind::Add));
        Ok(records.into_iter().flat_map(SourceRecord::sources).collect())
    }
}

#[cfg(test)]
mod key_tests;
#[cfg(test)]
mod tests;
