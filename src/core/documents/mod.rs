//! Document ingestion: `ingest(text, {…scope, sessionId, memoryTypeHint?})` cleans a text,
//! cuts it into semantic chunks, embeds the chunks not seen before in one batched request, scores each
//! chunk's importance, routes it to a memory type, and stores the chunks worth keeping, in one commit and
//! with no LLM call. One concept per file:
//!
//! - `fence`: which lines belong to a ``` / ~~~ fenced code block (never split, never cleaned inside);
//! - `clean`: trim, NFC, line breaks, blank-line runs collapsed;
//! - `sentences`: sentence boundaries inside a paragraph;
//! - `chunk`: paragraphs, long ones split at sentences, short ones merged;
//! - `route`: the memory type of a chunk;
//! - `cache`: the embedding cache by content hash, persisted as side records;
//! - `options`, `ingest`: the call itself (importance and its 0.3 threshold, the commit).

mod cache;
pub mod chunk;
pub mod clean;
mod fence;
mod ingest;
pub mod options;
pub mod route;
mod sentences;

pub use cache::CACHE_KIND;
pub use chunk::{chunk, Chunk, MAX_CHUNK_TOKENS, MIN_CHUNK_TOKENS};
pub use clean::clean;
pub use ingest::{DiscardReason, IngestResult, IngestedChunk, DISCARD_BELOW};
pub use options::IngestOptions;
pub use route::route;

crate::core::engine::handle::feature_handle!(
    /// Documents, reached with `engine.documents()`.
    Documents,
    /// Documents: ingestion into chunks.
    documents
);
