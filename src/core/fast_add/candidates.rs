//! The memories the fast pipeline shows its update decision: the nearest ones of each conversation
//! sentence (by vector, fetched while extraction runs), then each fact's keyword (BM25) hits, which need no
//! round trip.

use crate::core::engine::pipeline::{Embedded, NEIGHBOURS_PER_FACT};
use crate::core::error::Result;
use crate::core::fast_add::FastAdd;
use crate::core::model::scope::Scope;
use crate::core::model::types::StoredMemory;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::{Predicate, VectorStore};

/// Keyword hits added per fact.
pub(crate) const PER_FACT: usize = 3;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> FastAdd<'_, L, E, S, V> {
    /// Embeds `texts` in one request and returns each one's nearest memories in `scope` that pass `keep`
    /// (as many per sentence as the exact path takes per fact), de-duplicated in order of first appearance.
    /// Fails when the request does (the caller falls back to the exact path) or a vector has the wrong length.
    pub(crate) async fn sentence_neighbours(
        &self,
        texts: &[String],
        scope: &Scope,
        keep: Predicate<'_>,
    ) -> Result<Vec<StoredMemory>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut embedded = Embedded::new();
        for (text, vector) in texts.iter().zip(self.embedder.embed(texts).await?) {
            embedded.insert(text.clone(), Some(self.fit_index(vector)?));
        }
        self.neighbours(texts, &embedded, NEIGHBOURS_PER_FACT, scope, keep).await
    }

    /// Each fact's best keyword matches in `scope` that pass `keep` (no model call).
    pub(crate) async fn keyword_neighbours(
        &self,
        facts: &[String],
        scope: &Scope,
        keep: Predicate<'_>,
    ) -> Result<Vec<StoredMemory>> {
        self.neighbours(facts, &Embedded::new(), PER_FACT, scope, keep).await
    }
}
