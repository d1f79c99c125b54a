//! The core's error type. Every variant maps to one stable code that JS callers can match on.

use crate::http::HttpError;

/// Everything the memory engine can fail with.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MemoryError {
    /// No userId, agentId or runId was given.
    #[error("At least one of userId, agentId, or runId must be provided")]
    ScopeRequired,
    /// A filter expression is malformed.
    #[error("invalid filter: {0}")]
    InvalidFilter(String),
    /// The configuration is unusable; the message names the field.
    #[error("invalid config: {0}")]
    InvalidConfig(String),
    /// An argument has the wrong type or value.
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// No memory has this id.
    #[error("memory {0} not found")]
    NotFound(String),
    /// The LLM call failed.
    #[error("LLM request failed: {0}")]
    Llm(HttpError),
    /// The LLM answered, but not in a usable shape.
    #[error("LLM response unusable: {0}")]
    LlmResponse(String),
    /// The embedding call failed.
    #[error("embedding request failed: {0}")]
    Embedding(HttpError),
    /// The embedding endpoint answered, but not in a usable shape.
    #[error("embedding response unusable: {0}")]
    EmbeddingResponse(String),
    /// The app's own `generate` callback (or Workers AI binding) threw or rejected.
    #[error("LLM callback failed: {0}")]
    LlmCallback(String),
    /// The app's own `embed` callback (or Workers AI binding) threw or rejected.
    #[error("embedding callback failed: {0}")]
    EmbeddingCallback(String),
    /// A vector's length differs from the configured dimension.
    #[error("embedding has {actual} dimensions, expected {expected}")]
    DimensionMismatch { expected: usize, actual: usize },
    /// The persistence layer failed.
    #[error("storage failed: {0}")]
    Storage(String),
    /// The browser's storage quota is used up; nothing of the failed write was kept.
    #[error("storage quota exceeded: {0}")]
    StorageQuota(String),
    /// Persistent storage cannot be used here (no IndexedDB, e.g. some private modes, or it refused to open).
    #[error("storage unavailable: {0}")]
    StorageUnavailable(String),
}

impl MemoryError {
    /// The stable, documented code for this error (e.g. `SCOPE_REQUIRED`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::ScopeRequired => "SCOPE_REQUIRED",
            Self::InvalidFilter(_) => "INVALID_FILTER",
            Self::InvalidConfig(_) => "INVALID_CONFIG",
            Self::InvalidInput(_) => "INVALID_INPUT",
            Self::NotFound(_) => "NOT_FOUND",
            Self::Llm(HttpError::Network(_)) => "LLM_NETWORK",
            Self::Llm(_) => "LLM_HTTP",
            Self::LlmResponse(_) => "LLM_RESPONSE",
            Self::Embedding(HttpError::Network(_)) => "EMBEDDING_NETWORK",
            Self::Embedding(_) => "EMBEDDING_HTTP",
            Self::EmbeddingResponse(_) => "EMBEDDING_RESPONSE",
            Self::LlmCallback(_) => "LLM_CALLBACK",
            Self::EmbeddingCallback(_) => "EMBEDDING_CALLBACK",
            Self::DimensionMismatch { .. } => "DIMENSION_MISMATCH",
            Self::Storage(_) => "STORAGE",
            Self::StorageQuota(_) => "STORAGE_QUOTA",
            Self::StorageUnavailable(_) => "STORAGE_UNAVAILABLE",
        }
    }

    /// The HTTP status behind an `LLM_HTTP` / `EMBEDDING_HTTP` error.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            Self::Llm(HttpError::Status { status, .. }) | Self::Embedding(HttpError::Status { status, .. }) => {
                Some(*status)
            }
            _ => None,
        }
    }
}

/// Shorthand for core results.
pub type Result<T, E = MemoryError> = std::result::Result<T, E>;
