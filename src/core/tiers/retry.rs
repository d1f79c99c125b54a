//! Whether the background writer runs a failed batch again. A model call has one retry budget (`retry`),
//! spent by the HTTP layer within the call; running the batch again would start it over, so only failures
//! nothing below retried are worth another run.

use crate::core::error::transient_status;

/// Whether running a batch again may help, by the code of its failure (an error's, or the cause of the
/// warning that made its `add()` store nothing):
/// - a model or vector-store request that failed (`*_HTTP`, `*_NETWORK`, `*_TIMEOUT`, `*_UNAVAILABLE`,
///   `VECTOR_STORE_UNAVAILABLE`): no. A transient failure (408, 429, 5xx, no answer) was already retried
///   within the call's budget; any other status is refused again; a host remembered down fails at once;
/// - what another run does not change (`INVALID_*`, `SCOPE_REQUIRED`, `DIMENSION_MISMATCH`, an embedding
///   reply in the wrong shape, a call its caller stopped): no;
/// - the rest: yes. An LLM reply that did not parse (a model answers differently each time), an app's
///   callback or the Workers AI binding (no retry of their own), storage.
pub fn worth_running_again(code: &str) -> bool {
    !spent_or_refused(code)
}

/// True for a model or vector-store failure that is only for now (408, 429, 5xx, no answer, a timeout): its
/// call spent its retry budget, and the next flush may go through.
pub fn failed_for_now(code: &str, status: Option<u16>) -> bool {
    match code {
        "LLM_NETWORK"
        | "LLM_TIMEOUT"
        | "LLM_UNAVAILABLE"
        | "EMBEDDING_NETWORK"
        | "EMBEDDING_TIMEOUT"
        | "EMBEDDING_UNAVAILABLE"
        | "VECTOR_STORE_UNAVAILABLE" => true,
        "LLM_HTTP" | "EMBEDDING_HTTP" => status.is_some_and(transient_status),
        _ => false,
    }
}

fn spent_or_refused(code: &str) -> bool {
    matches!(
        code,
        "LLM_HTTP"
            | "LLM_NETWORK"
            | "LLM_TIMEOUT"
            | "LLM_UNAVAILABLE"
            | "EMBEDDING_HTTP"
            | "EMBEDDING_NETWORK"
            | "EMBEDDING_TIMEOUT"
            | "EMBEDDING_UNAVAILABLE"
            | "VECTOR_STORE_UNAVAILABLE"
            | "INVALID_CONFIG"
            | "INVALID_INPUT"
            | "INVALID_FILTER"
            | "SCOPE_REQUIRED"
            | "DIMENSION_MISMATCH"
            | "EMBEDDING_RESPONSE"
            | "ABORTED"
            | "EMBEDDING_MODEL_CHANGED"
            | "RERANKER_HTTP"
            | "RERANKER_NETWORK"
            | "RERANKER_TIMEOUT"
            | "RERANKER_UNAVAILABLE"
            | "RERANKER_RESPONSE"
            | "RERANKER_CALLBACK"
            | "SYNC_ENTRY_INVALID"
            | "SYNC_KEY"
            | "SYNC_HTTP"
            | "SYNC_NETWORK"
            | "IMPORT_FORMAT"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{MemoryError, UpstreamError};

    #[test]
    fn failures_retried_below_or_refused_are_not_run_again() {
        let spent = [
            MemoryError::Llm(UpstreamError::new(Some(503), "busy")),
            MemoryError::Llm(UpstreamError::new(Some(429), "slow down")),
            MemoryError::Llm(UpstreamError::new(Some(401), "bad key")),
            MemoryError::Llm(UpstreamError::new(None, "refused")),
            MemoryError::Llm(UpstreamError::timeout(300)),
            MemoryError::Embedding(UpstreamError::new(Some(408), "slow")),
            MemoryError::Embedding(UpstreamError::timeout(300)),
            MemoryError::Llm(UpstreamError::host_down("http://h", 0, Some(1))),
            MemoryError::InvalidInput("x".into()),
            MemoryError::DimensionMismatch { expected: 3, actual: 4 },
            MemoryError::EmbeddingResponse("no data".into()),
        ];
        for error in spent {
            assert!(!worth_running_again(error.code()), "{error}");
        }
        for error in [
            MemoryError::LlmResponse("not JSON".into()),
            MemoryError::LlmCallback("threw".into()),
            MemoryError::EmbeddingCallback("threw".into()),
            MemoryError::Storage("busy".into()),
        ] {
            assert!(worth_running_again(error.code()), "{error}");
        }
    }

    #[test]
    fn every_code_is_classified_on_purpose() {
        let run_again: Vec<&str> =
            MemoryError::CODES.iter().copied().filter(|code| worth_running_again(code)).collect();
        let expected = [
            "NOT_FOUND",
            "EXPIRED",
            "LLM_RESPONSE",
            "LLM_CALLBACK",
            "EMBEDDING_CALLBACK",
            "STORAGE",
            "STORAGE_QUOTA",
            "STORAGE_UNAVAILABLE",
            "NOT_IN_MODULE",
        ];
        assert_eq!(run_again, expected, "a new code needs a decision here");
    }
}
