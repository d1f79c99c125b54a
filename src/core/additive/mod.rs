//! `add()`'s additive pipeline (`pipeline: "additive"`), mem0 v3's add: one LLM call extracts the facts of
//! the new messages while shown the scope's related memories (keyword (BM25) hits of the conversation,
//! which need no round trip), and every new fact is added; nothing is updated or deleted, so no second
//! call decides. A fact is dropped, with no event, when a live memory of the scope has its md5 or, by
//! vector, is at least `nearDuplicate` similar (as is a fact that close to an earlier one of the same call).
//! Cost: one LLM call, then one embedding request for the facts.

mod prompt;
mod settings;

pub use prompt::{additive_input, system_prompt, ADDITIVE_EXTRACTION_PROMPT};
pub use settings::{AdditiveSettings, NearDuplicate, DEFAULT_NEAR_DUPLICATE};

use crate::core::error::Result;
use crate::core::filter::Filter;
use crate::core::identity::content_hash;
use crate::core::llm_json::parse_extraction;
use crate::core::memory::MemoryEngine;
use crate::core::models::{Embedder, Llm, LlmRequest};
use crate::core::options::AddOptions;
use crate::core::pipeline::{attribute, stopped, Destination, Extracted};
use crate::core::scope::Scope;
use crate::core::storage::{Changeset, Storage};
use crate::core::types::{AddResult, MemoryItem, Message, StoredMemory, WarningCode};
use crate::core::vector_store::{Predicate, VectorStore};

/// Related memories shown to the extraction call (mem0 v3 shows its 10 nearest).
pub const SHOWN: usize = 10;

/// A fact kept so far, with its unit vector (`None` without an embedder).
type Kept = (String, Option<Vec<f32>>);

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Uses `settings` for the additive pipeline's duplicate checks.
    pub fn set_additive(&mut self, settings: AdditiveSettings) {
        self.additive = settings;
    }

    /// The additive path of an inferring `add()` (see the module): the events and the writes, not yet committed.
    pub(crate) async fn infer_additive(
        &self,
        messages: &[Message],
        to: &Destination,
        filter: &Option<Filter>,
        options: &AddOptions,
        mut result: AddResult,
    ) -> Result<(AddResult, Changeset)> {
        let scope = &to.scope;
        let now = self.now_iso();
        let live = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(&now);
        let keep = |item: &MemoryItem| live(item) && filter.as_ref().is_none_or(|f| f.matches(item));
        let said: Vec<&str> = messages.iter().filter(|m| m.role != "system").map(|m| m.content.as_str()).collect();
        let shown = self.similar(&said.join("\n"), None, SHOWN, scope, &keep).await?;
        let (facts, attributions) = match self.extract_additive(messages, &shown, options).await {
            Ok(parsed) => parsed,
            Err(why) => return Ok(stopped(result, WarningCode::ExtractionFailed, &why)),
        };
        let fresh = self.not_held(facts, &live);
        let embedded = self.embed_all(&fresh, &mut result.warnings).await?;
        let mut kept: Vec<Kept> = Vec::new();
        for fact in fresh {
            // A fact missing here could not be embedded: skipped, with the EMBEDDING_FAILED warning.
            let Some(vector) = embedded.get(&fact) else { continue };
            if !self.near_duplicate(vector.as_deref(), &kept, scope, &keep).await? {
                kept.push((fact, vector.clone()));
            }
        }
        let mut changes = Changeset::default();
        for (text, vector) in kept {
            if let Some(added) = self.stage_add(&text, vector, to, to.metadata.clone(), &mut changes, &mut result) {
                result.results.push(added);
            }
        }
        attribute(&mut changes, &attributions);
        Ok((result, changes))
    }

    /// The extraction call, shown `related` memories under temporary ids.
    async fn extract_additive(
        &self,
        messages: &[Message],
        related: &[StoredMemory],
        options: &AddOptions,
    ) -> Result<Extracted> {
        let system = match options.prompt.as_deref().filter(|p| !p.trim().is_empty()) {
            Some(prompt) => prompt.to_owned(),
            None => system_prompt(&self.prompts.fact_extraction),
        };
        let existing: Vec<String> = related.iter().map(|m| m.item.memory.clone()).collect();
        let today = self.now_iso().chars().take(10).collect::<String>();
        let (input, shape) = (additive_input(&existing, messages, &today), prompt::additive_reply());
        let reply = self.llm.generate(&LlmRequest::json(&system, &input, &shape)).await?;
        parse_extraction(&reply)
    }

    /// `facts`, trimmed and de-duplicated, without those whose md5 a memory passing `live` has.
    fn not_held(&self, facts: Vec<String>, live: Predicate<'_>) -> Vec<String> {
        let index = self.index.borrow();
        let mut fresh: Vec<String> = Vec::new();
        for fact in facts {
            let fact = fact.trim().to_owned();
            let held = index.find_by_hash(&content_hash(&fact), live).is_some();
            if !fact.is_empty() && !held && !fresh.contains(&fact) {
                fresh.push(fact);
            }
        }
        fresh
    }

    /// Whether `vector` is at least `nearDuplicate` similar to a fact `kept` so far or to the nearest memory
    /// passing `keep`. False when the check is off or the fact has no vector.
    async fn near_duplicate(
        &self,
        vector: Option<&[f32]>,
        kept: &[Kept],
        scope: &Scope,
        keep: Predicate<'_>,
    ) -> Result<bool> {
        let (Some(threshold), Some(vector)) = (self.additive.near_duplicate, vector) else { return Ok(false) };
        let close = |other: &[f32]| dot(other, vector) >= threshold;
        if kept.iter().any(|(_, other)| other.as_deref().is_some_and(close)) {
            return Ok(true);
        }
        let nearest = match self.remote_hits(vector, 1, scope, None, keep).await? {
            Some(ranked) => ranked.first().map(|(score, _)| *score as f32),
            None => self.index.borrow().search(vector, 1, keep)?.first().map(|(score, _)| *score),
        };
        Ok(nearest.is_some_and(|score| score >= threshold))
    }
}

/// The cosine similarity of two unit vectors (0 when their lengths differ).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests;
