//! `add()`'s fast pipeline (`pipeline: "fast"`): two model round trips where the exact one takes three or
//! four. While the extraction call runs, the conversation's sentences are embedded (one request) and their
//! nearest memories fetched; when the facts arrive, each fact's keyword (BM25) hits join that candidate set
//! and the update decision starts at once, with the facts embedded while it runs. Texts the decision rewrites
//! are embedded after `add()` resolves where the host can settle them in the background (`deferred`).
//!
//! The candidates differ from the exact path's (each fact's own nearest memories); `bench/add-quality.mjs`
//! measures how often the fast path still shows the decision the memory it must change.

mod candidates;
mod infer;
mod sentences;

crate::core::engine::handle::feature_handle!(
    /// The fast add pipeline, reached with `engine.fast_add()`.
    FastAdd,
    /// `add()`'s fast pipeline.
    fast_add
);

#[cfg(test)]
mod tests;
