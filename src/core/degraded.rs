//! Reads while the embedder is down or some memories lack a vector. Keyword (BM25) ranking needs no
//! embedder, so a search whose query cannot be embedded because the embedding service is unavailable (a
//! network failure, a timeout, HTTP 408, 429 or 5xx: what the HTTP layer retries) is ranked by keywords
//! instead, with an `EMBEDDING_UNAVAILABLE` warning; `method: "vector"` has nothing to fall back on and
//! still fails, and so does every read on an error that will not pass by itself (a bad key, a wrong
//! dimension).

use super::error::{MemoryError, Result, UpstreamError};
use super::fusion::Method;
use super::memory::MemoryEngine;
use super::models::{Embedder, Llm};
use super::storage::Storage;
use super::types::{AddWarning, WarningCode};
use super::vector_store::VectorStore;

/// True for an embedding failure that says the service is unavailable for now, not misconfigured.
pub fn is_unavailable(error: &MemoryError) -> bool {
    match error {
        MemoryError::Embedding(UpstreamError { status: None, .. }) => true,
        MemoryError::Embedding(UpstreamError { status: Some(status), .. }) => {
            matches!(status, 408 | 429) || *status >= 500
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_passing_failures_of_the_embedding_service_are_unavailability() {
        let http = |status| MemoryError::Embedding(UpstreamError { status, message: "x".into() });
        for status in [None, Some(408), Some(429), Some(500), Some(503)] {
            assert!(is_unavailable(&http(status)), "{status:?}");
        }
        for status in [Some(400), Some(401), Some(403), Some(404)] {
            assert!(!is_unavailable(&http(status)), "{status:?}");
        }
        assert!(!is_unavailable(&MemoryError::DimensionMismatch { expected: 3, actual: 4 }));
        assert!(!is_unavailable(&MemoryError::EmbeddingResponse("not JSON".into())));
        assert!(!is_unavailable(&MemoryError::Llm(UpstreamError { status: Some(503), message: "x".into() })));
    }
}
