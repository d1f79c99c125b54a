//! Reads while the embedder is down or some memories lack a vector. Keyword (BM25) ranking needs no
//! embedder, so a search whose query cannot be embedded because the embedding service is unavailable (a
//! network failure, a timeout, HTTP 408, 429 or 5xx: what the HTTP layer retries) is ranked by keywords
//! instead, with an `EMBEDDING_UNAVAILABLE` warning; `method: "vector"` has nothing to fall back on and
//! still fails, and so does every read on an error that will not pass by itself (a bad key, a wrong
//! dimension). A read with a vector side warns with `VECTORS_PENDING` while memories it ranks have no
//! vector (their embedding failed or is still due): the vector ranking cannot find them.

use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::fusion::Method;
use crate::core::model::types::{AddWarning, MemoryItem, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::storage::Storage;
use crate::core::vector_store::{Count, Plain, VectorStore};

/// True for an embedding failure that says the service is unavailable for now, not misconfigured.
pub fn is_unavailable(error: &MemoryError) -> bool {
    match error {
        MemoryError::Embedding(error) => error.is_transient(),
        _ => false,
    }
}

/// A query's vector, the method that really ranks with it, and the warning of a fallback.
pub(crate) type QueryVector = (Option<Vec<f32>>, Method, Option<AddWarning>);

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The unit vector of `text` for a `method` search (`None` for `keyword`); a fused method whose query
    /// cannot be embedded because the embedder is unavailable becomes `keyword`, with a warning.
    pub(crate) fn query_vector(&self, embedded: Option<Result<Vec<f32>>>, method: Method) -> Result<QueryVector> {
        match embedded {
            None => Ok((None, method, None)),
            Some(Ok(vector)) => Ok((Some(vector), method, None)),
            Some(Err(error)) if method != Method::Vector && is_unavailable(&error) => {
                let why = "the query could not be embedded; ranked by keywords only";
                Ok((
                    None,
                    Method::Keyword,
                    Some(AddWarning::caused_by_with(WarningCode::EmbeddingUnavailable, why, &error)),
                ))
            }
            Some(Err(error)) => Err(error),
        }
    }

    /// True when memory `id` has a vector the vector ranking can find (in the remote index, if one is used).
    pub(crate) fn has_vector(&self, id: &str) -> bool {
        match self.remote.index() {
            Some(_) => self.remote.holds(id),
            None => self.index.borrow().has_vector(id),
        }
    }

    /// How many memories passing `keep` have no vector (0 without an embedder: none is expected).
    /// `plain`: what `keep` comes down to for a plain memory (see `vector_store::Count`).
    pub(crate) fn count_keyword_only(&self, keep: &dyn Fn(&MemoryItem) -> bool, plain: Option<Plain>) -> usize {
        if !self.embedder.is_configured() {
            return 0;
        }
        let index = self.index.borrow();
        if self.remote.index().is_none() {
            return index.count(&Count { keep, vectorless: true, plain });
        }
        index.list(usize::MAX, keep).into_iter().filter(|m| !self.has_vector(&m.item.id)).count()
    }

    /// `VECTORS_PENDING` when a `method` ranking has a vector side and memories `read` keeps lack a vector.
    pub(crate) fn vectors_pending(&self, method: Method, read: &Read) -> Option<AddWarning> {
        if method == Method::Keyword {
            return None;
        }
        let now = self.now_iso();
        let missing = self.count_keyword_only(&|item| read.keeps(item, &now), read.plain());
        let why = format!(
            "{missing} memor{} without a vector (embedding failed or still due): the vector ranking cannot find {}",
            if missing == 1 { "y" } else { "ies" },
            if missing == 1 { "it" } else { "them" }
        );
        (missing > 0).then(|| AddWarning::new(WarningCode::VectorsPending, why))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::UpstreamError;

    #[test]
    fn only_passing_failures_of_the_embedding_service_are_unavailability() {
        let http = |status| MemoryError::Embedding(UpstreamError::new(status, "x"));
        for status in [None, Some(408), Some(429), Some(500), Some(503)] {
            assert!(is_unavailable(&http(status)), "{status:?}");
        }
        for status in [Some(400), Some(401), Some(403), Some(404)] {
            assert!(!is_unavailable(&http(status)), "{status:?}");
        }
        assert!(!is_unavailable(&MemoryError::DimensionMismatch { expected: 3, actual: 4 }));
        assert!(!is_unavailable(&MemoryError::EmbeddingResponse("not JSON".into())));
        assert!(!is_unavailable(&MemoryError::Llm(UpstreamError::new(Some(503), "x"))));
    }
}
