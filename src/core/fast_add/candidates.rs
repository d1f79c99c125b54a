//! The memories the fast pipeline shows its update decision: the nearest ones of each conversation
//! sentence (by vector, fetched while extraction runs), then each fact's keyword hits (BM25, local).

use crate::core::error::Result;
use crate::core::memory::MemoryEngine;
use crate::core::models::{Embedder, Llm};
use crate::core::scope::Scope;
use crate::core::storage::Storage;
use crate::core::types::StoredMemory;
use crate::core::vector_store::{Predicate, VectorStore};

/// Nearest memories fetched per conversation sentence, as the exact path fetches per fact.
pub(crate) const PER_SENTENCE: usize = 5;
/// Keyword hits added per fact.
pub(crate) const PER_FACT: usize = 3;

/// Appends `found` to `shown`, skipping memories already there.
pub(crate) fn extend_unique(shown: &mut Vec<StoredMemory>, found: Vec<StoredMemory>) {
    for memory in found {
        if !shown.iter().any(|m| m.item.id == memory.item.id) {
            shown.push(memory);
        }
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Embeds `texts` in one request and returns each one's nearest memories in `scope` that pass `keep`,
    /// de-duplicated in order of first appearance. Fails when the request does (the caller falls back to
    /// the exact path) or a vector has the wrong length.
    pub(crate) async fn sentence_neighbours(
        &self,
        texts: &[String],
        scope: &Scope,
        keep: Predicate<'_>,
    ) -> Result<Vec<StoredMemory>> {
        let mut shown = Vec::new();
        if texts.is_empty() {
            return Ok(shown);
        }
        let vectors = self.embedder.embed(texts).await?;
        for (text, vector) in texts.iter().zip(vectors) {
            let vector = self.fit_index(vector)?;
            extend_unique(&mut shown, self.similar(text, Some(&vector), PER_SENTENCE, scope, keep).await?);
        }
        Ok(shown)
    }

    /// Each fact's best keyword matches in `scope` that pass `keep` (no model call).
    pub(crate) fn keyword_neighbours(&self, facts: &[String], keep: Predicate<'_>) -> Vec<StoredMemory> {
        let index = self.index.borrow();
        let keywords = self.keywords.borrow();
        let passes = |id: &str| index.get(id).is_some_and(|m| keep(&m.item));
        let mut shown = Vec::new();
        for fact in facts {
            let hits = keywords.search(fact, PER_FACT, &passes, &passes);
            extend_unique(&mut shown, hits.into_iter().filter_map(|(_, id)| index.get(id).cloned()).collect());
        }
        shown
    }
}
