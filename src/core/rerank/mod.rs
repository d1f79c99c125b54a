//! The reranker stage of `search(…, {rerank: true})`: the first `topK` results of the ranking go to a
//! reranker (a cross-encoder service, the app's function, or the configured LLM: `llm`) and come back in
//! its order, with its relevance as their score. What the engine holds (`RerankStage`), the object form
//! of a reranker, and the reordering itself (`reorder`), which checks the reranker's answer.

mod llm;

use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;

pub use llm::LlmReranker;

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::Reranker;

/// Candidates reranked when the config does not say (`reranker.config.topK`).
pub const DEFAULT_TOP_K: usize = 20;

/// [`Reranker`] as an object, so the engine's type does not change with the provider.
pub trait DynReranker {
    fn rerank<'a>(&'a self, query: &'a str, documents: &'a [&'a str]) -> LocalBoxFuture<'a, Result<Vec<(usize, f64)>>>;
}

impl<T: Reranker> DynReranker for T {
    fn rerank<'a>(&'a self, query: &'a str, documents: &'a [&'a str]) -> LocalBoxFuture<'a, Result<Vec<(usize, f64)>>> {
        Reranker::rerank(self, query, documents).boxed_local()
    }
}

/// Who reranks.
pub enum RerankBy {
    /// The engine's own LLM, asked for scores (`provider: "llm_reranker"`).
    Llm,
    /// A reranker object: a rerank service (Cohere, Jina, Voyage) over the platform's HTTP client, or the app's
    /// `rerank` function.
    Service(Box<dyn DynReranker>),
}

/// The configured reranker: who reranks, how many candidates, and its name for messages.
pub struct RerankStage {
    pub by: RerankBy,
    /// How many of the ranking's first results are reranked.
    pub top_k: usize,
    /// The config's `reranker.provider`, named in warnings.
    pub provider: String,
}

/// A ranking's first results in the reranker's order: `scores` holds `(index, relevance)` for each of the
/// `candidates` ids (every one exactly once, else `RERANKER_RESPONSE`). Returns the ids with their
/// relevance, best first (ties keep the ranking's order).
pub fn reorder(candidates: &[String], scores: Vec<(usize, f64)>) -> Result<Vec<(f64, String)>> {
    let bad = |why: String| MemoryError::RerankerResponse(why);
    let mut seen = vec![false; candidates.len()];
    for (index, score) in &scores {
        match seen.get_mut(*index) {
            None => return Err(bad(format!("index {index} is not one of the {} candidates", candidates.len()))),
            Some(true) => return Err(bad(format!("index {index} is scored twice"))),
            Some(slot) => *slot = true,
        }
        if !score.is_finite() {
            return Err(bad(format!("the score of index {index} is not a finite number")));
        }
    }
    if let Some(missing) = seen.iter().position(|seen| !seen) {
        return Err(bad(format!("index {missing} has no score ({} of {} scored)", scores.len(), candidates.len())));
    }
    let mut scores = scores;
    scores.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(scores.into_iter().map(|(index, score)| (score, candidates[index].clone())).collect())
}
