//! `search(query, {asOf})`: the engine's own ranking (`rank`, then `respond`) over the memories as they were
//! at a past time (see `as_of`), held in a throwaway in-RAM index of the scope for the one search.
//!
//! A memory whose text then is its text now keeps its stored vector. The others (changed or deleted since)
//! are embedded in one batch, at most [`MOST_EMBEDDED`] of them; when that batch fails they have no vector,
//! so they rank by keywords only, and the response warns `VECTORS_PENDING` as any search does. The query is
//! embedded as in any search (`EMBEDDING_UNAVAILABLE`: ranked by keywords). `agentic` and a search by vector
//! do not read as of a time (`INVALID_INPUT`).

use std::cell::RefCell;

use super::as_of::Then;
use super::memory::{index_keywords, MemoryEngine};
use super::search_response::SearchResponse;
use crate::core::error::{MemoryError, Result};
use crate::core::fusion::Method;
use crate::core::keyword::KeywordIndex;
use crate::core::model::types::StoredMemory;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// The most texts changed since T one search embeds; the rest rank by keywords only (`VECTORS_PENDING`).
pub const MOST_EMBEDDED: usize = 256;

/// `INVALID_INPUT` for an `asOf` read of a kind that cannot read as of a time (`what`).
pub(crate) fn not_as_of(what: &str) -> MemoryError {
    MemoryError::InvalidInput(format!(
        "asOf: {what} cannot read the memories as of a time; search by text with method \"hybrid\", \"rrf\", \
         \"vector\" or \"keyword\", or leave asOf out"
    ))
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The memories as they were at `at` that best match `text`, ranked as `search` ranks (see the module).
    pub(crate) async fn search_as_of(&self, text: &str, read: &Read, at: i64) -> Result<SearchResponse> {
        if read.method == Some(Method::Agentic) {
            return Err(not_as_of("method \"agentic\""));
        }
        let method = self.effective_method(read.method);
        self.load_scope(&read.scope).await?;
        self.settle_quietly().await;
        let then = self.memories_at(read, at).await?;
        let embedded = match method {
            Method::Keyword => None,
            _ => Some(self.embed_for_index(text).await),
        };
        let (vector, method, fell_back) = self.query_vector(embedded, method)?;
        let memories = self.with_vectors(then, method != Method::Keyword).await?;
        let (mut index, mut keywords) = (V::default(), KeywordIndex::default());
        index.reserve(memories.len());
        keywords.reserve(memories.len());
        for memory in memories {
            index_keywords(&mut keywords, &memory.item);
            index.upsert(memory)?;
        }
        self.reading_from(index, keywords, || {
            let ranking = self.rank((text, None), vector.as_deref(), None, method, read)?;
            let matched = ranking.len();
            let mut response = self.respond(text, (ranking, matched), method, read);
            response.warnings.extend(fell_back.into_iter().chain(self.vectors_pending(method, read)));
            Ok(response)
        })
    }

    /// `then` with their vectors when `vectors` (a ranking with a vector side): the stored one for a text
    /// unchanged since, else one embedded now (see the module); none when the batch fails.
    async fn with_vectors(&self, then: Vec<Then>, vectors: bool) -> Result<Vec<StoredMemory>> {
        if !vectors {
            return Ok(then.into_iter().map(|then| StoredMemory { item: then.item, embedding: None }).collect());
        }
        let unchanged: Vec<String> = then.iter().filter(|t| t.current_text).map(|t| t.item.id.clone()).collect();
        let mut stored = self.remote_vectors().vectors_of(&unchanged).await?;
        let changed: Vec<String> =
            then.iter().filter(|t| !t.current_text).take(MOST_EMBEDDED).map(|t| t.item.memory.clone()).collect();
        // In the order `changed` was taken: past the first MOST_EMBEDDED, `next` has no more.
        let mut embedded = self.embed_batch(&changed).await?.into_iter();
        Ok(then
            .into_iter()
            .map(|Then { item, current_text }| {
                let embedding = match current_text {
                    true => stored.remove(&item.id),
                    false => embedded.next().flatten(),
                };
                StoredMemory { item, embedding }
            })
            .collect())
    }

    /// `texts` embedded in one request, each checked against the index; all `None` when the request fails.
    /// A vector of the wrong length is a configuration error: it fails the search, as it fails any.
    async fn embed_batch(&self, texts: &[String]) -> Result<Vec<Option<Vec<f32>>>> {
        let vectors = match texts.is_empty() {
            true => return Ok(Vec::new()),
            false => self.embedder.embed(texts).await,
        };
        let Some(vectors) = vectors.ok().filter(|vectors| vectors.len() == texts.len()) else {
            return Ok(vec![None; texts.len()]);
        };
        let mut fitted = Vec::with_capacity(vectors.len());
        for vector in vectors {
            match self.fit_index(vector) {
                Ok(vector) => fitted.push(Some(vector)),
                Err(error @ MemoryError::DimensionMismatch { .. }) => return Err(error),
                Err(_) => fitted.push(None),
            }
        }
        Ok(fitted)
    }

    /// Runs `read` with `index` and `keywords` in place of the engine's own, which are back when it returns.
    /// `read` must not wait (nothing else may run on the engine meanwhile): `rank` and `respond` do not.
    fn reading_from<T>(&self, index: V, keywords: KeywordIndex, read: impl FnOnce() -> T) -> T {
        let _restore = Restore {
            index: &self.index,
            keywords: &self.keywords,
            own: Some((self.index.replace(index), self.keywords.replace(keywords))),
        };
        read()
    }
}

/// Puts the engine's own index and keyword index back when dropped (also if the read fails).
struct Restore<'a, V> {
    index: &'a RefCell<V>,
    keywords: &'a RefCell<KeywordIndex>,
    own: Option<(V, KeywordIndex)>,
}

impl<V> Drop for Restore<'_, V> {
    fn drop(&mut self) {
        if let Some((index, keywords)) = self.own.take() {
            self.index.replace(index);
            self.keywords.replace(keywords);
        }
    }
}
