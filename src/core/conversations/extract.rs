//! Extraction at a boundary: one LLM call turns an episode into typed memories — an `episodic` narrative,
//! `event_log` facts (merged through `add()`'s dedup and update decision), `foresight` items (ending the
//! current plans they replace) and `profile` updates — staged in one `Changeset`. Without an LLM the
//! episode's transcript becomes the episodic memory.

use serde::Serialize;

use super::episode::Episode;
use super::membership::join;
use super::profile::attributes_of;
use super::prompts::{episode_input, EPISODE_PROMPT};
use super::reply::{parse_extraction, Extraction};
use crate::core::conversations::Conversations;
use crate::core::engine::pipeline::Destination;
use crate::core::error::{MemoryError, Result};
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::types::{AddResult, AddWarning, EventKind, MemoryEvent, MemoryItem, Metadata, WarningCode};
use crate::core::model::MemoryType;
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::reply_schema;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// What an extraction did to one memory: `add()`'s event plus the memory's type.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtractedMemory {
    #[serde(flatten)]
    pub event: MemoryEvent,
    pub memory_type: MemoryType,
}

/// The staged writes of one episode and the events they make.
#[derive(Debug, Default)]
pub(crate) struct Extracted {
    pub(crate) changes: Changeset,
    pub(crate) memories: Vec<ExtractedMemory>,
}

impl Extracted {
    pub(crate) fn push(&mut self, event: MemoryEvent, memory_type: MemoryType) {
        self.memories.push(ExtractedMemory { event, memory_type });
    }

    fn absorb(&mut self, changes: Changeset) {
        self.changes.upserts.extend(changes.upserts);
        self.changes.deletes.extend(changes.deletes);
        self.changes.history.extend(changes.history);
        self.changes.side.extend(changes.side);
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// Stages the memories of `episode`; `None` (with an `EXTRACTION_FAILED` warning) when the extraction call
    /// failed or its reply was unusable, so the caller keeps the messages pending.
    pub(crate) async fn extract_episode(
        &self,
        episode: &Episode,
        warnings: &mut Vec<AddWarning>,
    ) -> Result<Option<Extracted>> {
        self.load_scope(&episode.scope).await?;
        let profiles = self.current_profiles(episode).await?;
        let shown_plans = if self.llm.is_configured() { self.current_plans(episode).await? } else { Vec::new() };
        let extraction = if self.llm.is_configured() {
            let shown: Vec<_> = profiles
                .iter()
                .filter_map(|(user, m)| Some((user.clone(), attributes_of(&m.as_ref()?.item))))
                .collect();
            let (input, shape) = (episode_input(episode, &shown, &shown_plans), reply_schema::episode());
            let reply = self.llm.generate(&LlmRequest::json(EPISODE_PROMPT, &input, &shape)).await;
            match reply.and_then(|text| parse_extraction(&text)) {
                Ok(extraction) => extraction,
                Err(why) => {
                    warnings.push(AddWarning::caused_by(WarningCode::ExtractionFailed, &why));
                    return Ok(None);
                }
            }
        } else {
            Extraction { summary: Some(episode.transcript()), ..Extraction::default() }
        };
        let centroid = self.centroid(&episode.scope);
        let to = |kind: MemoryType, metadata: Metadata| Destination {
            scope: episode.scope.clone(),
            metadata,
            write: WriteLifecycle { memory_type: Some(kind), ..WriteLifecycle::default() },
            centroid: centroid.clone(),
        };
        let mut out = Extracted::default();

        // Event log: add()'s exact-duplicate check and update decision, against the group's event log only.
        let is_event_log = |item: &MemoryItem| item.lifecycle.memory_type == MemoryType::EventLog;
        let facts_to = to(MemoryType::EventLog, episode.shared_metadata());
        let (facts, mut changes) =
            self.merge_facts(extraction.event_log.clone(), &facts_to, &is_event_log, AddResult::default()).await?;
        // A fact this episode updates is its participants' too.
        for fact in changes.upserts.iter_mut().filter(|m| m.item.scope == episode.scope) {
            join(&mut fact.item.metadata, &episode.participant_ids());
        }
        warnings.extend(facts.warnings);
        for event in facts.results {
            let kind = self.type_of(&event, MemoryType::EventLog);
            out.push(event, kind);
        }
        out.absorb(changes);

        // Episodic, foresight and profiles: texts first, one embedding batch, then the writes.
        let mut seen = AddResult::default();
        let texts: Vec<String> = extraction.foresight.iter().map(|f| f.text.clone()).collect();
        let fresh_foresight = self.drop_exact_duplicates(texts, &episode.scope, &mut seen);
        for event in seen.results {
            let kind = self.type_of(&event, MemoryType::Foresight);
            out.push(event, kind);
        }
        let plans = self.plan_profiles(episode, &extraction.profiles, profiles, warnings);
        let mut texts: Vec<String> = extraction.summary.iter().cloned().collect();
        texts.extend(fresh_foresight.iter().cloned());
        texts.extend(plans.iter().map(|plan| plan.text.clone()));
        let mut vectors = self.embed_leniently(&texts, warnings).await?.into_iter();

        let mut staged = AddResult::default();
        if let Some(summary) = &extraction.summary {
            let vector = vectors.next().flatten();
            let metadata = episode.episodic_metadata(extraction.title.as_deref());
            let episodic = to(MemoryType::Episodic, metadata.clone());
            if let Some(event) = self.stage_add(summary, vector, &episodic, metadata, &mut out.changes, &mut staged) {
                out.push(event, MemoryType::Episodic);
            }
        }
        let fresh: Vec<_> = fresh_foresight.into_iter().map(|text| (text, vectors.next().flatten())).collect();
        let foresight = to(MemoryType::Foresight, episode.shared_metadata());
        self.stage_foresight(&extraction.foresight, fresh, &shown_plans, &foresight, &mut out, &mut staged);
        warnings.extend(staged.warnings);
        let mut scopes = vec![episode.scope.clone()];
        for plan in plans {
            let vector = vectors.next().flatten();
            scopes.push(plan.scope.clone());
            let event = self.stage_profile(episode, plan, vector, &mut out.changes);
            out.push(event, MemoryType::Profile);
        }
        crate::core::sort::sort(&mut scopes);
        scopes.dedup();
        for scope in &scopes {
            self.trim(scope, &mut out.changes);
        }
        Ok(Some(out))
    }

    /// The type of the memory an event is about: `added` for a new one, else the indexed memory's.
    fn type_of(&self, event: &MemoryEvent, added: MemoryType) -> MemoryType {
        if event.event == EventKind::Add {
            return added;
        }
        let index = self.index.borrow();
        index.get(&event.id).map_or(added, |memory| memory.item.lifecycle.memory_type)
    }

    /// A unit vector per text (in one request when possible); a text that cannot be embedded gets `None`
    /// and a `NOT_EMBEDDED` warning: it is stored anyway, found by keywords. A wrong length fails the call.
    pub(crate) async fn embed_leniently(
        &self,
        texts: &[String],
        warnings: &mut Vec<AddWarning>,
    ) -> Result<Vec<Option<Vec<f32>>>> {
        if !self.embedder.is_configured() || texts.is_empty() {
            return Ok(vec![None; texts.len()]);
        }
        let vectors = match self.embedder.embed(texts).await {
            Ok(vectors) if vectors.len() == texts.len() => vectors.into_iter().map(Ok).collect(),
            _ => {
                let mut vectors = Vec::with_capacity(texts.len());
                for text in texts {
                    vectors.push(self.embedder.embed_one(text).await);
                }
                vectors
            }
        };
        let mut out = Vec::with_capacity(texts.len());
        for (text, vector) in texts.iter().zip(vectors) {
            match vector.and_then(|v| self.fit_index(v)) {
                Ok(vector) => out.push(Some(vector)),
                Err(error @ MemoryError::DimensionMismatch { .. }) => return Err(error),
                Err(error) => {
                    let context = format!("stored \"{text}\" without a vector");
                    warnings.push(AddWarning::caused_by_with(WarningCode::NotEmbedded, &context, &error));
                    out.push(None);
                }
            }
        }
        Ok(out)
    }
}
