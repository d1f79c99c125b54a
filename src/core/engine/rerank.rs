//! `search(…, {rerank: true})`: the ranking's first `topK` memories go to the configured reranker and come
//! back in its order, each with the reranker's relevance as `score` and the ranking's own as `fusedScore`;
//! the rest of the ranking follows. A reranker that fails (its service, a timeout, an unusable answer)
//! never fails the search: the ranking keeps its order and the response a `RERANK_FAILED` warning.

use super::memory::MemoryEngine;
use super::search::{Ranked, SearchResponse};
use crate::core::error::{MemoryError, Result};
use crate::core::fusion::Method;
use crate::core::model::types::{AddWarning, WarningCode};
use crate::core::model_traits::{Embedder, Llm, Reranker};
use crate::core::read::Read;
use crate::core::rerank::{reorder, LlmReranker, RerankBy, RerankStage};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// What reranking leaves for the response: the ranking's scores of the memories reranked, or why it failed.
#[derive(Debug, Default)]
pub(crate) struct RerankMarks {
    fused: Vec<(String, f64)>,
    warning: Option<AddWarning>,
}

impl RerankMarks {
    /// Gives the reranked results of `response` their `fusedScore`, and it the warning of a failure.
    pub fn mark(self, response: &mut SearchResponse) {
        for item in &mut response.results {
            item.fused_score = self.fused.iter().find(|(id, _)| *id == item.id).map(|(_, score)| *score);
        }
        response.warnings.extend(self.warning);
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The reranker `search(…, {rerank: true})` uses.
    pub fn set_reranker(&mut self, stage: RerankStage) {
        self.reranker = Some(stage);
    }

    /// `INVALID_INPUT` for `rerank: true` without a reranker configured, with `method: "agentic"` (whose
    /// own LLM calls judge the results), or with `asOf`.
    pub(crate) fn check_rerank(&self, read: &Read) -> Result<()> {
        if read.rerank && read.method == Some(Method::Agentic) {
            let why = "rerank: not with method \"agentic\" (its own LLM calls judge the results); use another method";
            return Err(MemoryError::InvalidInput(why.into()));
        }
        if read.rerank && read.window.as_of.is_some() {
            let why = "rerank: not with asOf (a read as of a time ranks the memories as they were, unreranked); leave one out";
            return Err(MemoryError::InvalidInput(why.into()));
        }
        match read.rerank && self.reranker.is_none() {
            true => Err(MemoryError::InvalidInput(
                "rerank: no reranker is configured; add reranker: {provider: \"cohere\" | \"jina\" | \"voyage\" | \
                 \"llm_reranker\", config: {…}} to the memory's config, or leave rerank out"
                    .into(),
            )),
            false => Ok(()),
        }
    }

    /// How many of a ranking's first memories the reranker reads for `read`: its `topK`, 0 when none runs.
    pub(crate) fn reranks(&self, read: &Read) -> usize {
        self.reranker.as_ref().filter(|_| read.rerank).map_or(0, |stage| stage.top_k)
    }

    /// `ranking` with its first `topK` in the reranker's order when `read.rerank` asks for it.
    pub(crate) async fn reranked(&self, text: &str, ranking: Ranked, read: &Read) -> (Ranked, RerankMarks) {
        let Some(stage) = self.reranker.as_ref().filter(|_| read.rerank) else {
            return (ranking, RerankMarks::default());
        };
        let count = stage.top_k.min(ranking.len());
        if count == 0 {
            return (ranking, RerankMarks::default());
        }
        let candidates: Vec<String> = ranking[..count].iter().map(|(_, id)| id.clone()).collect();
        let texts: Vec<String> = {
            let index = self.index.borrow();
            candidates.iter().map(|id| index.get(id).map(|m| m.item.memory.clone()).unwrap_or_default()).collect()
        };
        let documents: Vec<&str> = texts.iter().map(String::as_str).collect();
        let scores = match &stage.by {
            RerankBy::Llm => LlmReranker(&self.llm).rerank(text, &documents).await,
            RerankBy::Service(service) => service.rerank(text, &documents).await,
        };
        match scores.and_then(|scores| reorder(&candidates, scores)) {
            Ok(mut reordered) => {
                let mut ranking = ranking;
                let rest = ranking.split_off(count);
                let fused = ranking.into_iter().map(|(score, id)| (id, score)).collect();
                reordered.extend(rest);
                (reordered, RerankMarks { fused, warning: None })
            }
            Err(error) => {
                let why =
                    format!("the \"{}\" reranker failed, so the results keep the ranking's order", stage.provider);
                let warning = AddWarning::caused_by_with(WarningCode::RerankFailed, &why, &error);
                (ranking, RerankMarks { fused: Vec::new(), warning: Some(warning) })
            }
        }
    }
}
