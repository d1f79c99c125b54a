//! `search(query, {method: "agentic"})` (LLM-guided multi-round retrieval):
//!
//! 1. round one is a `hybrid` search for the query (`keyword` without an embedder);
//! 2. one LLM call judges whether its best memories answer the query;
//! 3. if they do, they are the answer (one LLM call in all);
//! 4. if not, a second call proposes up to 3 refined queries; round two ranks each of them the same way
//!    (embedded in one batch), and every ranking — the first round's included — is fused by RRF (two LLM
//!    calls in all, never more).
//!
//! Every round honours the read: scope, filters, types, time range, `currentTime`, `radius` (on the vector
//! side), `threshold` (on each round's hybrid scores). Without an LLM, or when a call fails or its reply is
//! unusable, the answer is round one as a plain hybrid search, with an `AGENTIC_FAILED` warning: never an
//! error. With the embedder unavailable, every round ranks by keywords (`EMBEDDING_UNAVAILABLE`, see
//! `degraded`). The response lists the queries that ran, the caller's first.

use crate::core::engine::memory::MemoryEngine;
use crate::core::engine::search::{Ranked, SearchResponse};
use crate::core::error::{MemoryError, Result};
use crate::core::fusion::{reciprocal_rank, Method, Ranking, RRF_K};
use crate::core::model::types::{AddWarning, MemoryItem, WarningCode};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::read::Read;
use crate::core::reply_schema;
use crate::core::retrieval::prompts::{judge_input, refine_input, JUDGE_PROMPT, REFINE_PROMPT};
use crate::core::retrieval::reply::{parse_judgement, parse_queries, Judgement};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// Reciprocal rank fusion of owned rankings.
fn fuse(lists: &[Ranked]) -> Ranked {
    let borrowed: Vec<Ranking> =
        lists.iter().map(|list| list.iter().map(|(s, id)| (*s, id.as_str())).collect()).collect();
    let refs: Vec<&Ranking> = borrowed.iter().collect();
    reciprocal_rank(&refs, RRF_K).into_iter().map(|(score, id)| (score, id.to_owned())).collect()
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Agentic retrieval of `text` (see the module docs).
    pub(crate) async fn agentic_search(&self, text: &str, read: &Read) -> Result<SearchResponse> {
        self.load_scope(&read.scope).await?;
        let hybrid = self.effective_method(Some(Method::Hybrid));
        let embedded = match hybrid {
            Method::Keyword => None,
            _ => Some(self.embed_for_index(text).await),
        };
        let (vector, hybrid, fell_back) = self.query_vector(embedded, hybrid)?;
        let degraded: Vec<AddWarning> = fell_back.into_iter().chain(self.vectors_pending(hybrid, read)).collect();
        let remote = self.remote_vectors().remote_ranking(vector.as_deref(), hybrid, read).await?;
        let first = self.rank((text, None), vector.as_deref(), remote.as_ref(), hybrid, read)?;
        let fall_back = |first: Ranked, warning: AddWarning| {
            let matched = first.len();
            let mut response = self.respond(text, (first, matched), hybrid, read);
            response.queries = Some(vec![text.to_owned()]);
            response.warnings.push(warning);
            response.warnings.extend(degraded.iter().cloned());
            response
        };
        if !self.llm.is_configured() {
            let why = "no LLM is configured: ran a hybrid search instead";
            return Ok(fall_back(first, AddWarning::new(WarningCode::AgenticFailed, why)));
        }
        let shown = self.items(&first[..first.len().min(read.limit)]);
        let judgement = match self.judge(text, &shown).await {
            Ok(judgement) => judgement,
            Err(error) => return Ok(fall_back(first, failed("the judgement", &error))),
        };
        if judgement.sufficient {
            return Ok(self.agentic_response(text, first, vec![text.to_owned()], read, degraded.clone()));
        }
        let refined = match self.refine(text, &shown, &judgement).await {
            Ok(refined) => refined,
            Err(error) => return Ok(fall_back(first, failed("the query refinement", &error))),
        };
        let vectors = self.embed_queries(&refined, vector.is_some()).await?;
        let mut lists = vec![first];
        for (query, vector) in refined.iter().zip(vectors) {
            let remote = self.remote_vectors().remote_ranking(vector.as_deref(), hybrid, read).await?;
            lists.push(self.rank((query, None), vector.as_deref(), remote.as_ref(), hybrid, read)?);
        }
        let queries = std::iter::once(text.to_owned()).chain(refined).collect();
        let ranking = if lists.len() > 1 { fuse(&lists) } else { lists.remove(0) };
        Ok(self.agentic_response(text, ranking, queries, read, degraded))
    }

    fn agentic_response(
        &self,
        text: &str,
        ranking: Ranked,
        queries: Vec<String>,
        read: &Read,
        warnings: Vec<AddWarning>,
    ) -> SearchResponse {
        let matched = ranking.len();
        let mut response = self.respond(text, (ranking, matched), Method::Agentic, read);
        response.queries = Some(queries);
        response.warnings = warnings;
        response
    }

    /// The memories of a ranking, in its order (the prompts show the first few).
    fn items(&self, ranking: &[(f64, String)]) -> Vec<MemoryItem> {
        let index = self.index.borrow();
        ranking.iter().filter_map(|(_, id)| index.get(id).map(|m| m.item.clone())).collect()
    }

    /// The first call: do `shown` answer `query`?
    async fn judge(&self, query: &str, shown: &[MemoryItem]) -> Result<Judgement> {
        let (input, shape) = (judge_input(query, shown), reply_schema::retrieval_judgement());
        let reply = self.llm.generate(&LlmRequest::json(JUDGE_PROMPT, &input, &shape)).await?;
        parse_judgement(&reply)
    }

    /// The second call: up to 3 queries for what the judgement found missing.
    async fn refine(&self, query: &str, shown: &[MemoryItem], judgement: &Judgement) -> Result<Vec<String>> {
        let (input, shape) = (refine_input(query, shown, &judgement.missing), reply_schema::refined_queries());
        let reply = self.llm.generate(&LlmRequest::json(REFINE_PROMPT, &input, &shape)).await?;
        parse_queries(&reply, query)
    }

    /// The refined queries' unit vectors, in one request (`None`s without an embedder).
    async fn embed_queries(&self, queries: &[String], embedded: bool) -> Result<Vec<Option<Vec<f32>>>> {
        if !embedded || queries.is_empty() {
            return Ok(vec![None; queries.len()]);
        }
        let vectors = self.embedder.embed(queries).await?;
        if vectors.len() != queries.len() {
            let why = format!("{} vectors for {} queries", vectors.len(), queries.len());
            return Err(MemoryError::EmbeddingResponse(why));
        }
        vectors.into_iter().map(|vector| self.fit_index(vector).map(Some)).collect()
    }
}

/// The warning of a fallback to hybrid after `what` failed.
fn failed(what: &str, error: &MemoryError) -> AddWarning {
    AddWarning::caused_by_with(
        WarningCode::AgenticFailed,
        &format!("{what} failed; ran a hybrid search instead"),
        error,
    )
}
