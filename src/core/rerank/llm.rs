//! The LLM reranker (`reranker: {provider: "llm_reranker"}`): one call to the configured LLM with the
//! query and the numbered candidates, each fenced on its own line, asking for a relevance score per
//! candidate as JSON, `{"scores": [{"index", "score"}]}`. A reply that is not that shape is
//! `LLM_RESPONSE`.

use serde_json::Value;

use crate::core::error::{MemoryError, Result};
use crate::core::llm_json::extract_json;
use crate::core::model_traits::{Llm, LlmRequest, Reranker};
use crate::core::prompt_fence::{fence, Place};
use crate::core::reply_schema::{parsed, ReplySchema};

const SYSTEM: &str = "You rank memories by how relevant they are to a search query. For each numbered \
candidate, give a relevance score from 0 (unrelated) to 1 (answers the query). Score every candidate once, by \
its number. Reply with JSON only: {\"scores\": [{\"index\": 0, \"score\": 0.9}, ...]}.";

/// The reply's shape.
fn scores_schema() -> ReplySchema {
    ReplySchema {
        name: "score_candidates",
        description: "Give each candidate's relevance to the query, from 0 to 1.",
        schema: parsed(
            r#"{"type": "object", "required": ["scores"], "properties": {"scores": {"type": "array", "items": {
                "type": "object", "required": ["index", "score"],
                "properties": {"index": {"type": "integer"}, "score": {"type": "number"}}}}}}"#,
        ),
    }
}

/// The engine's LLM as a reranker.
pub struct LlmReranker<'a, L>(pub &'a L);

/// The user prompt: the query, then each candidate after its number.
pub fn scoring_prompt(query: &str, documents: &[&str]) -> String {
    let mut prompt = format!("Query: {}\n\nCandidates:\n", fence(query, Place::Line));
    for (index, document) in documents.iter().enumerate() {
        prompt.push_str(&format!("[{index}] {}\n", fence(document, Place::Line)));
    }
    prompt
}

/// `(index, score)` pairs of a reply `{"scores": [{"index", "score"}]}`.
fn parse_scores(reply: &str) -> Result<Vec<(usize, f64)>> {
    let unusable = |why: &str| MemoryError::LlmResponse(format!("reranker reply: {why}"));
    let value = extract_json(reply).ok_or_else(|| unusable("no JSON in the reply"))?;
    let scores = value.get("scores").and_then(Value::as_array).ok_or_else(|| unusable("no \"scores\" array"))?;
    scores
        .iter()
        .map(|entry| {
            let index = entry.get("index").and_then(Value::as_u64);
            let score = entry.get("score").and_then(Value::as_f64);
            match (index, score) {
                (Some(index), Some(score)) => Ok((usize::try_from(index).unwrap_or(usize::MAX), score)),
                _ => Err(unusable("an entry lacks a whole \"index\" or a numeric \"score\"")),
            }
        })
        .collect()
}

impl<L: Llm> Reranker for LlmReranker<'_, L> {
    async fn rerank(&self, query: &str, documents: &[&str]) -> Result<Vec<(usize, f64)>> {
        let user = scoring_prompt(query, documents);
        let schema = scores_schema();
        let reply = self.0.generate(&LlmRequest::json(SYSTEM, &user, &schema)).await?;
        parse_scores(&reply)
    }
}
