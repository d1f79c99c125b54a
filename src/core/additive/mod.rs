//! `add()`'s additive pipeline (`pipeline: "additive"`), mem0 v3's add: one LLM call extracts the facts of
//! the new messages while shown the scope's related memories (keyword (BM25) hits of the conversation,
//! which need no round trip), and every new fact is added; nothing is updated or deleted, so no second
//! call decides. A fact is not stored when a live memory of the scope has its md5 or, by vector, is at least
//! `nearDuplicate` similar: that memory gets a NONE event instead (a fact that close to an earlier one of
//! the same call is dropped). A fact the embedder fails on is stored without a vector (keyword search finds
//! it) with a `NOT_EMBEDDED` warning, and embedded later.
//! Cost: one LLM call, then one embedding request for the facts, both before `add()` resolves.

mod particulars;
pub(crate) mod prompt;

pub use crate::core::config::{AdditiveSettings, NearDuplicate, DEFAULT_NEAR_DUPLICATE};
pub use prompt::{additive_input, system_prompt, ADDITIVE_EXTRACTION_PROMPT};

use std::cell::Cell;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use particulars::same_particulars;

use crate::core::add_pipeline::Pipeline;
use crate::core::engine::destination::{AddCall, Inferred};
use crate::core::engine::extensions::EngineHooks;
use crate::core::engine::pipeline::{attribute, event, stopped, Destination, Extracted};
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::filter::Filter;
use crate::core::llm_json::parse_extraction;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, EventKind, MemoryItem, Message, StoredMemory, WarningCode};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::{cosine, Predicate, VectorStore};

/// The nearest memories a fact is checked against for a near duplicate (the nearest may state another
/// number; one a little further may restate it).
const NEAREST: usize = 3;

/// Related memories shown to the extraction call (mem0 v3 shows its 10 nearest).
pub const SHOWN: usize = 10;

/// A fact kept so far, with its unit vector (`None` without an embedder).
type Kept = (String, Option<Vec<f32>>);

/// What a fact is a near duplicate of.
enum Near {
    No,
    /// A memory of the scope.
    Stored(Box<MemoryItem>),
    /// A fact of the same `add()` kept before it.
    Kept,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Additive<'_, L, E, S, V> {
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
        let keep = |item: &MemoryItem| to.holds(item, filter, &now);
        let said: Vec<&str> = messages.iter().filter(|m| m.role != "system").map(|m| m.content.as_str()).collect();
        let shown = self.similar(&said.join("\n"), None, SHOWN, scope, &keep).await?;
        let (facts, attributions) = match self.extract_additive(messages, &shown, options).await {
            Ok(parsed) => parsed,
            Err(why) => return Ok(stopped(result, WarningCode::ExtractionFailed, &why)),
        };
        let fresh = self.drop_exact_duplicates(facts, scope, &mut result);
        // A fact the embedder fails on is stored keyword-only (NOT_EMBEDDED) and embedded later: never lost.
        let embedded = self.embed_or_keyword_only(&fresh, &mut result.warnings).await?;
        let mut kept: Vec<Kept> = Vec::new();
        for fact in fresh {
            let vector = embedded.get(&fact).cloned().flatten();
            match self.near_duplicate(&fact, vector.as_deref(), &kept, scope, &keep).await? {
                Near::No => kept.push((fact, vector)),
                Near::Stored(memory) => result.record(event(EventKind::None, &memory, None, None)),
                Near::Kept => {}
            }
        }
        let (mut changes, mut texts) = (Changeset::default(), Vec::with_capacity(kept.len()));
        for (text, vector) in kept {
            if let Some(added) = self.stage_add(&text, vector, to, to.metadata.clone(), &mut changes, &mut result) {
                result.results.push(added);
            }
            texts.push(text);
        }
        self.note_unsettled(&mut changes, &texts); // those without a vector: embedded later
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

    /// Whether `fact` (its unit `vector`) is at least `nearDuplicate` similar to a fact `kept` so far or to one
    /// of the nearest memories passing `keep`, stating the same numbers, dates and negations (a changed count
    /// is news, however close). `No` when the check is off or the fact has no vector.
    async fn near_duplicate(
        &self,
        fact: &str,
        vector: Option<&[f32]>,
        kept: &[Kept],
        scope: &Scope,
        keep: Predicate<'_>,
    ) -> Result<Near> {
        let (Some(threshold), Some(vector)) = (self.additive_settings().near_duplicate, vector) else {
            return Ok(Near::No);
        };
        let close = |other: &[f32]| cosine(other, vector) >= threshold;
        let restates = |text: &str| same_particulars(fact, text);
        if kept.iter().any(|(text, other)| other.as_deref().is_some_and(close) && restates(text)) {
            return Ok(Near::Kept);
        }
        let nearest: Vec<(f32, MemoryItem)> =
            match self.remote_vectors().remote_hits(vector, NEAREST, scope, None, keep).await? {
                Some(ranked) => {
                    ranked.into_iter().filter_map(|(score, id)| Some((score as f32, self.indexed(&id)?.item))).collect()
                }
                None => self
                    .index
                    .borrow()
                    .search(vector, NEAREST, keep)?
                    .into_iter()
                    .map(|(s, m)| (s, m.item.clone()))
                    .collect(),
            };
        let same = nearest.into_iter().find(|(score, memory)| *score >= threshold && restates(&memory.memory));
        Ok(same.map_or(Near::No, |(_, memory)| Near::Stored(Box::new(memory))))
    }
}

/// The additive pipeline, attached to an engine: it runs `pipeline: "additive"` with its duplicate checks
/// (`additive` in the config).
#[derive(Default)]
pub(crate) struct AdditiveState(Cell<AdditiveSettings>);

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> EngineHooks<MemoryEngine<L, E, S, V>>
    for AdditiveState
{
    fn add_pipeline<'a>(
        self: Rc<Self>,
        engine: &'a MemoryEngine<L, E, S, V>,
        pipeline: Pipeline,
        call: AddCall<'a>,
    ) -> Option<LocalBoxFuture<'a, Inferred>> {
        if pipeline != Pipeline::Additive {
            return None;
        }
        Some(Box::pin(async move {
            let AddCall { messages, to, filter, options } = call;
            engine.additive().infer_additive(messages, to, filter, options, AddResult::default()).await
        }))
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The additive pipeline's state, attached with its hooks on first use (an engine attaches it when opened).
    pub(crate) fn additive_state(&self) -> Rc<AdditiveState> {
        self.extensions.get_or_attach()
    }

    /// Uses `settings` for the additive pipeline's duplicate checks.
    pub fn set_additive(&mut self, settings: AdditiveSettings) {
        self.additive_state().0.set(settings);
    }

    fn additive_settings(&self) -> AdditiveSettings {
        self.extensions.get::<AdditiveState>().map(|state| state.0.get()).unwrap_or_default()
    }
}

crate::core::engine::handle::feature_handle!(
    /// The additive add pipeline, reached with `engine.additive()`.
    Additive,
    /// `add()`'s additive pipeline.
    additive
);

#[cfg(test)]
mod particulars_tests;
#[cfg(test)]
mod tests;
