//! What `add()` skipped, or a read did in a degraded way, instead of failing the whole call: a stable code,
//! a message, and the code and HTTP status of the error behind it, so a caller can tell a rate limit from a
//! bad key.

use serde::Serialize;

use super::error::MemoryError;

/// Why part of an `add()` was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum WarningCode {
    /// The fact-extraction call failed or its reply was unusable; nothing was stored.
    ExtractionFailed,
    /// The update-decision call failed or its reply was unusable; nothing was stored.
    DecisionFailed,
    /// One operation of the decision reply was malformed and was ignored.
    InvalidDecision,
    /// A text could not be embedded and was skipped.
    EmbeddingFailed,
    /// The LLM named a memory it was not shown (or one deleted meanwhile); ignored.
    UnknownMemoryId,
    /// The graph extraction call failed; memories were stored without graph changes.
    GraphFailed,
    /// A new memory's importance was below `importance.minToStore`; it was not stored.
    LowImportance,
    /// `store()` could not embed the value; it was stored without a vector (found by keywords only).
    NotEmbedded,
    /// `addMessage`'s boundary call failed or its reply was unusable; the message joined the buffer.
    BoundaryFailed,
    /// `search(…, {method: "agentic"})` had no LLM, or a call of it failed: it ran a hybrid search instead.
    AgenticFailed,
    /// `compress()` could not summarise a session (its call failed or the reply was unusable); the session
    /// stays uncompressed.
    CompressionFailed,
    /// A read's query could not be embedded (the embedding service is unavailable): it was ranked by keywords.
    EmbeddingUnavailable,
    /// Memories the read ranked have no vector (their embedding failed or is still due): only the keyword
    /// ranking can find them.
    VectorsPending,
    /// A context window's newest turn alone was over the window's budget: it was cut to fit.
    TurnTruncated,
    /// The memory was opened with another embedding model than the one its vectors come from.
    EmbeddingModelChanged,
    /// `search(…, {rerank: true})`: the reranker failed or its answer was unusable; the results keep the
    /// ranking's order.
    RerankFailed,
}

impl WarningCode {
    /// Every code, for documentation and type checks.
    pub const ALL: &'static [WarningCode] = &[
        Self::ExtractionFailed,
        Self::DecisionFailed,
        Self::InvalidDecision,
        Self::EmbeddingFailed,
        Self::UnknownMemoryId,
        Self::GraphFailed,
        Self::LowImportance,
        Self::NotEmbedded,
        Self::BoundaryFailed,
        Self::AgenticFailed,
        Self::CompressionFailed,
        Self::EmbeddingUnavailable,
        Self::VectorsPending,
        Self::TurnTruncated,
        Self::EmbeddingModelChanged,
        Self::RerankFailed,
    ];

    /// The code as callers see it, e.g. `EXTRACTION_FAILED`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ExtractionFailed => "EXTRACTION_FAILED",
            Self::DecisionFailed => "DECISION_FAILED",
            Self::InvalidDecision => "INVALID_DECISION",
            Self::EmbeddingFailed => "EMBEDDING_FAILED",
            Self::UnknownMemoryId => "UNKNOWN_MEMORY_ID",
            Self::GraphFailed => "GRAPH_FAILED",
            Self::LowImportance => "LOW_IMPORTANCE",
            Self::NotEmbedded => "NOT_EMBEDDED",
            Self::BoundaryFailed => "BOUNDARY_FAILED",
            Self::AgenticFailed => "AGENTIC_FAILED",
            Self::CompressionFailed => "COMPRESSION_FAILED",
            Self::EmbeddingUnavailable => "EMBEDDING_UNAVAILABLE",
            Self::VectorsPending => "VECTORS_PENDING",
            Self::TurnTruncated => "TURN_TRUNCATED",
            Self::EmbeddingModelChanged => "EMBEDDING_MODEL_CHANGED",
            Self::RerankFailed => "RERANK_FAILED",
        }
    }
}

/// Something `add()` skipped instead of failing the whole call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AddWarning {
    pub code: WarningCode,
    pub message: String,
    /// The code of the error behind the warning (e.g. `LLM_HTTP`), when one failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<&'static str>,
    /// The HTTP status behind it, when a model service answered with one (e.g. 429).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
}

impl AddWarning {
    /// A warning with no error behind it.
    pub fn new(code: WarningCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), cause: None, status: None }
    }

    /// A warning caused by `error`, keeping its code and HTTP status.
    pub fn caused_by(code: WarningCode, error: &MemoryError) -> Self {
        Self { code, message: error.to_string(), cause: Some(error.code()), status: error.http_status() }
    }

    /// Like `caused_by`, with `context` before the error's message.
    pub fn caused_by_with(code: WarningCode, context: &str, error: &MemoryError) -> Self {
        Self { message: format!("{context}: {error}"), ..Self::caused_by(code, error) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::UpstreamError;

    #[test]
    fn a_warning_keeps_the_code_and_status_of_its_cause() {
        let limited = MemoryError::Llm(UpstreamError::new(Some(429), "slow down"));
        let warning = AddWarning::caused_by(WarningCode::ExtractionFailed, &limited);
        let json = serde_json::to_value(&warning).unwrap();
        assert_eq!(json["code"], "EXTRACTION_FAILED");
        assert_eq!((json["cause"].as_str(), json["status"].as_u64()), (Some("LLM_HTTP"), Some(429)));
        let down = MemoryError::Llm(UpstreamError::new(None, "refused"));
        let json = serde_json::to_value(AddWarning::caused_by(WarningCode::DecisionFailed, &down)).unwrap();
        assert_eq!(json["cause"], "LLM_NETWORK");
        assert!(json.get("status").is_none());
        for code in WarningCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
        }
    }
}
