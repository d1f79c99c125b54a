//! Foresight of an episode, and plans that change. The extraction is shown the group's current plans,
//! numbered; a new plan that names one in `replaces` ends it: the old plan's `metadata.validUntil` becomes
//! the time of the change (the new plan's `endTime`, unless the old one ran out earlier), `supersededBy`
//! names the new plan, and its history gets an UPDATE. Nothing is deleted: a read at a `currentTime`
//! before the change still finds the old plan, one after it only the new one.

use serde_json::json;

use super::episode::Episode;
use super::extract::Extracted;
use super::reply::ForesightItem;
use crate::core::conversations::Conversations;
use crate::core::engine::pipeline::{event, Destination};
use crate::core::error::Result;
use crate::core::model::types::{AddResult, AddWarning, EventKind, MemoryItem, StoredMemory, WarningCode};
use crate::core::model::MemoryType;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::retrieval::window::valid_until;
use crate::core::storage::Storage;
use crate::core::time::millis_from_iso;
use crate::core::vector_store::VectorStore;

/// The most plans the extraction is shown (the latest ones).
pub const PLANS_SHOWN: usize = 20;

/// True for a plan that a later one replaced (`metadata.supersededBy`).
pub fn is_superseded(item: &MemoryItem) -> bool {
    item.metadata.contains_key("supersededBy")
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// The group's current plans: the live foresight of the episode's scope that no plan replaced and whose
    /// validity had not ended when the episode began, oldest first, the latest `PLANS_SHOWN`.
    pub(crate) async fn current_plans(&self, episode: &Episode) -> Result<Vec<StoredMemory>> {
        let now = self.now_iso();
        let start = millis_from_iso(&episode.start_time()).unwrap_or(i64::MIN);
        let current = |item: &MemoryItem| {
            item.lifecycle.memory_type == MemoryType::Foresight
                && item.lifecycle.is_live(&now)
                && !is_superseded(item)
                && valid_until(item).is_none_or(|until| until >= start)
        };
        let mut plans = self.lifecycle().scope_memories(&episode.scope, &current).await?;
        plans.drain(..plans.len().saturating_sub(PLANS_SHOWN));
        Ok(plans)
    }

    /// Stages each new plan of `fresh` (a text of `items` and its vector) with its validity, and ends the
    /// `plans` (as the extraction was shown them) that it replaces.
    pub(crate) fn stage_foresight(
        &self,
        items: &[ForesightItem],
        fresh: Vec<(String, Option<Vec<f32>>)>,
        plans: &[StoredMemory],
        to: &Destination,
        out: &mut Extracted,
        staged: &mut AddResult,
    ) {
        for (text, vector) in fresh {
            let item = items.iter().find(|f| f.text == text).cloned().unwrap_or_default();
            let mut metadata = to.metadata.clone();
            for (key, value) in [("validFrom", item.valid_from), ("validUntil", item.valid_until)] {
                if let Some(value) = value {
                    metadata.insert(key.into(), json!(value));
                }
            }
            let Some(event) = self.stage_add(&text, vector, to, metadata, &mut out.changes, staged) else {
                continue;
            };
            let by = event.id.clone();
            out.push(event, MemoryType::Foresight);
            for label in &item.replaces {
                let plan = label.parse::<usize>().ok().and_then(|n| plans.get(n.checked_sub(1)?));
                match plan {
                    Some(plan) => self.end_plan(&plan.item.id, &by, to, out),
                    None => {
                        let why = format!("\"{text}\" replaces plan \"{label}\", which is not a current plan: ignored");
                        staged.warnings.push(AddWarning::new(WarningCode::InvalidDecision, why));
                    }
                }
            }
        }
    }

    /// Ends plan `id` at the change (`to`'s `endTime`), replaced by plan `by`; nothing when it is gone, no
    /// longer live or already replaced (also by another plan of this episode).
    fn end_plan(&self, id: &str, by: &str, to: &Destination, out: &mut Extracted) {
        let now = self.now_iso();
        if out.changes.upserts.iter().any(|m| m.item.id == id) {
            return;
        }
        let current = |m: &StoredMemory| m.item.lifecycle.is_live(&now) && !is_superseded(&m.item);
        let Some(mut plan) = self.indexed(id).filter(current) else { return };
        let at = to.metadata.get("endTime").cloned().unwrap_or_else(|| json!(now));
        let change = at.as_str().and_then(millis_from_iso);
        if valid_until(&plan.item).is_none_or(|until| change.is_some_and(|change| change < until)) {
            plan.item.metadata.insert("validUntil".into(), at);
        }
        plan.item.metadata.insert("supersededBy".into(), json!(by));
        plan.item.updated_at = now;
        let text = Some(plan.item.memory.clone());
        out.changes.history.push(self.record(&plan.item, EventKind::Update, text.clone(), text.clone()));
        out.push(event(EventKind::Update, &plan.item, text.clone(), text), MemoryType::Foresight);
        out.changes.upserts.push(plan);
    }
}
