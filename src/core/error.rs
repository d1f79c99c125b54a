//! The core's error type. Every variant maps to one stable code that JS callers can match on.

pub use super::upstream_error::{transient_status, Failure, UpstreamError};

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
    /// The memory existed but its TTL has run out (it is purged now).
    #[error("memory {0} has expired")]
    Expired(String),
    /// The LLM call failed.
    #[error("LLM request failed: {0}")]
    Llm(UpstreamError),
    /// The LLM answered, but not in a usable shape.
    #[error("LLM response unusable: {0}")]
    LlmResponse(String),
    /// The embedding call failed.
    #[error("embedding request failed: {0}")]
    Embedding(UpstreamError),
    /// The embedding endpoint answered, but not in a usable shape.
    #[error("embedding response unusable: {0}")]
    EmbeddingResponse(String),
    /// The rerank service's call failed.
    #[error("reranker request failed: {0}")]
    Reranker(UpstreamError),
    /// The reranker answered, but not in a usable shape.
    #[error("reranker response unusable: {0}")]
    RerankerResponse(String),
    /// The app's own `generate` callback (or Workers AI binding) threw or rejected.
    #[error("LLM callback failed: {0}")]
    LlmCallback(String),
    /// The app's own `embed` callback (or Workers AI binding) threw or rejected.
    #[error("embedding callback failed: {0}")]
    EmbeddingCallback(String),
    /// The app's own `rerank` callback (`reranker: {provider: "custom"}`) threw or rejected.
    #[error("reranker callback failed: {0}")]
    RerankerCallback(String),
    /// A vector's length differs from the configured dimension.
    #[error(
        "embedding has {actual} dimensions, expected {expected}: the embedding model returns {actual}-dimensional \
         vectors, this memory holds {expected} (the embedder's `dimensions`, `embeddingDims` in a mem0 config, or \
         the vectors stored already). Set `dimensions` to {actual} for a new, empty store; a store that holds \
         {expected}-dimensional memories needs the model that made them, or a new store to re-add (re-embed) \
         them into"
    )]
    DimensionMismatch { expected: usize, actual: usize },
    /// An import's vectors differ in length from the memory's (`basis` says which length it keeps).
    #[error(
        "import line {line}: the embedding has {found} dimensions, but {expected} are expected ({basis}); nothing \
         was imported. Re-embed these memories with this memory's embedder, or import them into a memory \
         configured with the embedder that made them ({found} dimensions)"
    )]
    ImportDimensionMismatch { line: usize, found: usize, expected: usize, basis: String },
    /// The persistence layer failed.
    #[error("storage failed: {0}")]
    Storage(String),
    /// The browser's storage quota, or the disk, is full; nothing of the failed write was kept.
    #[error("storage quota exceeded: {0}")]
    StorageQuota(String),
    /// Persistent storage cannot be used here (no IndexedDB, e.g. some private modes, or it refused to open; a
    /// SQLite file another process holds or this one may not write).
    #[error("storage unavailable: {0}")]
    StorageUnavailable(String),
    /// The remote vector store (Chroma) could not be reached, kept failing (after retries) or answered
    /// in an unusable shape; nothing of the failed write was kept.
    #[error("vector store unavailable: {0}")]
    VectorStoreUnavailable(String),
    /// The feature is in memwasm's full module, and this module was built without it (the browser package
    /// loads the full module itself when a config or a call needs it; see docs/size.md).
    #[error("{0} is in memwasm's full module; this module was built without it")]
    NotInModule(String),
    /// The caller stopped the call (its `AbortSignal`); nothing of it was written.
    #[error("{0}")]
    Aborted(String),
    /// The stored vectors were made by another embedding model than the configured one (the warning at
    /// open, and the error under `strict`).
    #[error(
        "the memories' vectors were made by {stored}, but the embedder is now {current}: vectors of two \
         models do not compare, so search would rank by noise. Call memory.reembed() to re-embed every memory \
         with {current}, or configure {stored} again"
    )]
    EmbeddingModelChanged { stored: String, current: String },
    /// Sync: an entry pulled from the log is not one this library wrote (or of a newer format); nothing
    /// of the pull was applied.
    #[error("sync entry unusable: {0}")]
    SyncEntry(String),
    /// Sync: an entry did not decrypt with this key (another key, or a changed ciphertext); nothing of the
    /// pull was applied.
    #[error("{0}")]
    SyncKey(String),
    /// Sync: the sync server answered with an error (its status and code in the message).
    #[error("sync server answered {status}: {message}")]
    SyncHttp { status: u16, message: String },
    /// Sync: the sync server could not be reached in time (network, timeout).
    #[error("sync server unreachable: {0}")]
    SyncNetwork(String),
    /// `importConversations()`: the archive is not an export of its format, or a conversation in it is
    /// malformed (the message names it); nothing was added.
    #[error("archive unusable: {0}")]
    ImportFormat(String),
}

impl MemoryError {
    /// Every code `code()` can return: the `MemoryErrorCode` union of the package's TypeScript types.
    pub const CODES: &'static [&'static str] = &[
        "SCOPE_REQUIRED",
        "INVALID_FILTER",
        "INVALID_CONFIG",
        "INVALID_INPUT",
        "NOT_FOUND",
        "EXPIRED",
        "LLM_HTTP",
        "LLM_NETWORK",
        "LLM_TIMEOUT",
        "LLM_UNAVAILABLE",
        "LLM_RESPONSE",
        "EMBEDDING_HTTP",
        "EMBEDDING_NETWORK",
        "EMBEDDING_TIMEOUT",
        "EMBEDDING_UNAVAILABLE",
        "EMBEDDING_RESPONSE",
        "RERANKER_HTTP",
        "RERANKER_NETWORK",
        "RERANKER_TIMEOUT",
        "RERANKER_UNAVAILABLE",
        "RERANKER_RESPONSE",
        "LLM_CALLBACK",
        "EMBEDDING_CALLBACK",
        "RERANKER_CALLBACK",
        "DIMENSION_MISMATCH",
        "STORAGE",
        "STORAGE_QUOTA",
        "STORAGE_UNAVAILABLE",
        "VECTOR_STORE_UNAVAILABLE",
        "NOT_IN_MODULE",
        "ABORTED",
        "EMBEDDING_MODEL_CHANGED",
        "SYNC_ENTRY_INVALID",
        "SYNC_KEY",
        "SYNC_HTTP",
        "SYNC_NETWORK",
        "IMPORT_FORMAT",
    ];

    /// The stable, documented code for this error (e.g. `SCOPE_REQUIRED`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::ScopeRequired => "SCOPE_REQUIRED",
            Self::InvalidFilter(_) => "INVALID_FILTER",
            Self::InvalidConfig(_) => "INVALID_CONFIG",
            Self::InvalidInput(_) => "INVALID_INPUT",
            Self::NotFound(_) => "NOT_FOUND",
            Self::Expired(_) => "EXPIRED",
            Self::Llm(UpstreamError { failure: Failure::Timeout, .. }) => "LLM_TIMEOUT",
            Self::Llm(UpstreamError { failure: Failure::HostDown, .. }) => "LLM_UNAVAILABLE",
            Self::Llm(UpstreamError { status: None, .. }) => "LLM_NETWORK",
            Self::Llm(_) => "LLM_HTTP",
            Self::LlmResponse(_) => "LLM_RESPONSE",
            Self::Embedding(UpstreamError { failure: Failure::Timeout, .. }) => "EMBEDDING_TIMEOUT",
            Self::Embedding(UpstreamError { failure: Failure::HostDown, .. }) => "EMBEDDING_UNAVAILABLE",
            Self::Embedding(UpstreamError { status: None, .. }) => "EMBEDDING_NETWORK",
            Self::Embedding(_) => "EMBEDDING_HTTP",
            Self::EmbeddingResponse(_) => "EMBEDDING_RESPONSE",
            Self::Reranker(UpstreamError { failure: Failure::Timeout, .. }) => "RERANKER_TIMEOUT",
            Self::Reranker(UpstreamError { failure: Failure::HostDown, .. }) => "RERANKER_UNAVAILABLE",
            Self::Reranker(UpstreamError { status: None, .. }) => "RERANKER_NETWORK",
            Self::Reranker(_) => "RERANKER_HTTP",
            Self::RerankerResponse(_) => "RERANKER_RESPONSE",
            Self::LlmCallback(_) => "LLM_CALLBACK",
            Self::EmbeddingCallback(_) => "EMBEDDING_CALLBACK",
            Self::RerankerCallback(_) => "RERANKER_CALLBACK",
            Self::DimensionMismatch { .. } | Self::ImportDimensionMismatch { .. } => "DIMENSION_MISMATCH",
            Self::Storage(_) => "STORAGE",
            Self::StorageQuota(_) => "STORAGE_QUOTA",
            Self::StorageUnavailable(_) => "STORAGE_UNAVAILABLE",
            Self::VectorStoreUnavailable(_) => "VECTOR_STORE_UNAVAILABLE",
            Self::NotInModule(_) => "NOT_IN_MODULE",
            Self::Aborted(_) => "ABORTED",
            Self::EmbeddingModelChanged { .. } => "EMBEDDING_MODEL_CHANGED",
            Self::SyncEntry(_) => "SYNC_ENTRY_INVALID",
            Self::SyncKey(_) => "SYNC_KEY",
            Self::SyncHttp { .. } => "SYNC_HTTP",
            Self::SyncNetwork(_) => "SYNC_NETWORK",
            Self::ImportFormat(_) => "IMPORT_FORMAT",
        }
    }

    /// True for a failure to reach the LLM at all (its HTTP error, the network, a timeout, the app's callback), as
    /// opposed to a reply that could not be read: JS sees these as mem0's `LLMError`.
    pub fn is_llm_transport(&self) -> bool {
        matches!(self, Self::Llm(_) | Self::LlmCallback(_))
    }

    /// The HTTP status behind an `LLM_HTTP` / `EMBEDDING_HTTP` / `RERANKER_HTTP` error.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            Self::Llm(upstream) | Self::Embedding(upstream) | Self::Reranker(upstream) => upstream.status,
            Self::SyncHttp { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// Shorthand for core results.
pub type Result<T, E = MemoryError> = std::result::Result<T, E>;

#[cfg(test)]
#[path = "error_tests.rs"]
mod tests;
