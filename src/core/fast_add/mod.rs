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

use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use crate::core::add_pipeline::Pipeline;
use crate::core::engine::destination::{AddCall, Inferred};
use crate::core::engine::extensions::EngineHooks;
use crate::core::engine::MemoryEngine;
use crate::core::model::types::AddResult;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// The fast pipeline, attached to an engine: it runs `pipeline: "fast"` when an embedder is configured (the
/// exact pipeline runs it otherwise).
#[derive(Default)]
pub(crate) struct FastPipeline;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> EngineHooks<MemoryEngine<L, E, S, V>> for FastPipeline {
    fn add_pipeline<'a>(
        self: Rc<Self>,
        engine: &'a MemoryEngine<L, E, S, V>,
        pipeline: Pipeline,
        call: AddCall<'a>,
    ) -> Option<LocalBoxFuture<'a, Inferred>> {
        if pipeline != Pipeline::Fast || !engine.embedder.is_configured() {
            return None;
        }
        Some(Box::pin(async move {
            let AddCall { messages, to, filter, options } = call;
            engine.fast_add().infer_fast(messages, to, filter, options, AddResult::default()).await
        }))
    }
}

crate::core::engine::handle::feature_handle!(
    /// The fast add pipeline, reached with `engine.fast_add()`.
    FastAdd,
    /// `add()`'s fast pipeline.
    fast_add
);

#[cfg(test)]
mod tests;
