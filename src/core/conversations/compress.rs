//! `compress()`: when a scope holds more than `threshold` uncompressed episodic sessions, the
//! oldest `sessionsToCompress` are summarised, one LLM call per session, all at once. Each summary becomes a
//! `semantic` memory (`metadata.sourceSessionId`, `compressionSource: true`) and the session's episodic
//! memories are marked `metadata.compressed: true` (with `compressedAt`, `compressedInto`): nothing is
//! deleted, each mark is an UPDATE in their history, and reads hide them unless `includeCompressed`. Every
//! write of one call is one commit. A session whose call fails, or whose reply is unusable, stays as it was,
//! with a `COMPRESSION_FAILED` warning.

use futures_util::future::join_all;
use serde_json::Value;

use super::compress_options::{CompressOptions, CompressOutcome, CompressedSession};
use super::prompts::{compress_input, COMPRESS_PROMPT};
use super::sessions::{compressible, sessions, Session};
use super::uncover::mark;
use crate::core::conversations::Conversations;
use crate::core::engine::pipeline::Destination;
use crate::core::error::{MemoryError, Result};
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::llm_json::extract_json;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, AddWarning, StoredMemory, WarningCode};
use crate::core::model::MemoryType;
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::reply_schema;
use crate::core::retrieval::window::is_compressed;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The summary in a reply: `{"summary": "…"}`, or (a model that ignored the JSON shape) the plain text.
pub fn parse_summary(reply: &str) -> Result<String> {
    let unusable = |why: &str| MemoryError::LlmResponse(why.into());
    let text = match extract_json(reply) {
        Some(Value::Object(object)) => object.get("summary").and_then(Value::as_str).map(str::to_owned),
        Some(_) => None,
        None => Some(reply.rsplit("</think>").next().unwrap_or_default().to_owned()),
    };
    let text = text.ok_or_else(|| unusable("the reply has no \"summary\" string"))?;
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return Err(unusable("the summary is empty"));
    }
    Ok(text)
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// Compresses the oldest sessions of a scope that holds more than `threshold` of them (see the module).
    pub async fn compress(&self, options: &CompressOptions) -> Result<CompressOutcome> {
        let plan = options.check()?;
        if !self.llm.is_configured() {
            return Err(MemoryError::InvalidInput("compress needs an LLM to summarise sessions".into()));
        }
        let _guard = self.locks.lock(&format!("compress:{:?}", plan.scope)).await;
        let now = self.now_iso();
        let found = self
            .lifecycle()
            .scope_memories(&plan.scope, &|item| item.lifecycle.is_live(&now) && compressible(item))
            .await?;
        let all = sessions(found);
        let mut outcome = CompressOutcome { sessions: all.len(), compressed: Vec::new(), warnings: Vec::new() };
        if all.len() <= plan.threshold {
            return Ok(outcome);
        }
        let chosen: Vec<Session> = all.into_iter().take(plan.take).collect();
        let shape = reply_schema::session_summary();
        let inputs: Vec<String> = chosen.iter().map(compress_input).collect();
        let calls = inputs.iter().map(|input| {
            let shape = &shape;
            async move { self.llm.generate(&LlmRequest::json(COMPRESS_PROMPT, input, shape)).await }
        });
        let replies = join_all(calls).await;
        let mut summarised = Vec::new();
        for (session, reply) in chosen.into_iter().zip(replies) {
            match reply.and_then(|text| parse_summary(&text)) {
                Ok(summary) => summarised.push((session, summary)),
                Err(error) => {
                    let context = format!("session {} stays uncompressed", session.session_id);
                    outcome.warnings.push(AddWarning::caused_by_with(WarningCode::CompressionFailed, &context, &error));
                }
            }
        }
        let texts: Vec<String> = summarised.iter().map(|(_, summary)| summary.clone()).collect();
        let vectors = self.embed_leniently(&texts, &mut outcome.warnings).await?;
        let mut changes = Changeset::default();
        let mut staged = AddResult::default();
        let mut scopes: Vec<Scope> = Vec::new();
        for ((session, summary), vector) in summarised.into_iter().zip(vectors) {
            if let Some(done) = self.stage_compression(&session, &summary, vector, &mut changes, &mut staged) {
                scopes.push(session.scope());
                outcome.compressed.push(done);
            }
        }
        outcome.warnings.extend(staged.warnings);
        crate::core::sort::sort(&mut scopes);
        scopes.dedup();
        for scope in &scopes {
            self.trim(scope, &mut changes);
        }
        self.commit(changes).await?;
        Ok(outcome)
    }

    /// Stages `session`'s summary and the marks on its memories; `None` when nothing is left to compress
    /// (its memories changed meanwhile) or the summary is below `importance.minToStore`.
    fn stage_compression(
        &self,
        session: &Session,
        summary: &str,
        vector: Option<Vec<f32>>,
        changes: &mut Changeset,
        staged: &mut AddResult,
    ) -> Option<CompressedSession> {
        let now = self.now_iso();
        let unchanged = |m: &StoredMemory, was: &StoredMemory| {
            m.item.lifecycle.is_live(&now) && !is_compressed(&m.item) && m.item.hash == was.item.hash
        };
        let originals: Vec<StoredMemory> = session
            .memories
            .iter()
            .filter_map(|was| self.indexed(&was.item.id).filter(|m| unchanged(m, was)))
            .collect();
        if originals.is_empty() {
            return None;
        }
        let scope = session.scope();
        let to = Destination {
            centroid: self.centroid(&scope),
            scope,
            metadata: session.summary_metadata(),
            write: WriteLifecycle { memory_type: Some(MemoryType::Semantic), ..WriteLifecycle::default() },
        };
        let added = self.stage_add(summary, vector, &to, to.metadata.clone(), changes, staged)?;
        let mut memory_ids = Vec::new();
        for mut original in originals {
            mark(&mut original.item, &added.id, &now);
            memory_ids.push(original.item.id.clone());
            self.stage_mark_change(original, changes);
        }
        Some(CompressedSession {
            session_id: session.session_id.clone(),
            summary_id: added.id,
            summary: summary.to_owned(),
            memory_ids,
            start_time: session.start_time(),
            end_time: session.end_time(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_are_read_from_json_or_plain_text() {
        assert_eq!(
            parse_summary("```json\n{\"summary\": \" Alice  moved\\nthe launch. \"}\n```").unwrap(),
            "Alice moved the launch."
        );
        assert_eq!(parse_summary("<think>x</think>Alice moved the launch.").unwrap(), "Alice moved the launch.");
        for bad in [r#"{"text": "x"}"#, r#"{"summary": "  "}"#, "", "[1]"] {
            assert_eq!(parse_summary(bad).unwrap_err().code(), "LLM_RESPONSE", "{bad:?}");
        }
    }
}
