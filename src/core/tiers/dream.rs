//! `dream()` ("Deep Dream"): reads the core profile and the journals of the last days not yet
//! consolidated, and with one LLM call rewrites the profile and proposes facts, which go through `add()`'s
//! ADD / UPDATE / DELETE decision with history. The dream diary records what changed and why; a journal
//! already consolidated as it is (same content hash) is never sent again, so a second dream costs no call.

use serde::Serialize;
use serde_json::{json, Value};

use super::dream_state::{CoreProfile, DiaryEntry, DreamState};
use super::journal::day_of;
use super::prompts::{dream_input, dream_reply, DREAM_PROMPT};
use super::{CORE_PROFILE, PENDING_DREAM};
use crate::core::engine::pipeline::Destination;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::content_hash;
use crate::core::llm_json::extract_json;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, AddWarning, MemoryEvent, Metadata};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::tiers::Tiers;
use crate::core::vector_store::VectorStore;

const DAY_MS: i64 = 86_400_000;

/// What `dream()` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DreamResult {
    /// False when no journal in the window was new: nothing was sent to the model.
    pub dreamed: bool,
    /// The journal days consolidated.
    pub journals: Vec<String>,
    /// The core profile after the dream (`null` when there is none yet).
    pub profile: Option<CoreProfile>,
    /// The memory changes applied, as `add()` reports them.
    pub results: Vec<MemoryEvent>,
    pub warnings: Vec<AddWarning>,
    /// The model's reason for the changes (empty when it did not dream).
    pub reason: String,
}

/// The dream reply, parsed.
struct DreamReply {
    profile: String,
    facts: Vec<String>,
    reason: String,
}

fn parse_reply(reply: &str) -> Result<DreamReply> {
    let unusable = |why: &str| MemoryError::LlmResponse(format!("dream reply: {why}"));
    let value = extract_json(reply).ok_or_else(|| unusable("no JSON found"))?;
    let profile = value.get("profile").and_then(Value::as_str).ok_or_else(|| unusable("no \"profile\" string"))?;
    let facts = match value.get("facts") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::trim).map(str::to_owned),
        _ => return Err(unusable("no \"facts\" array")),
    };
    let reason = value.get("reason").and_then(Value::as_str).unwrap_or_default();
    Ok(DreamReply {
        profile: profile.trim().to_owned(),
        facts: facts.filter(|fact| !fact.is_empty()).collect(),
        reason: reason.trim().to_owned(),
    })
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Tiers<'_, L, E, S, V> {
    /// Consolidates `scope`'s journals of the last `lookback_days` days (and today) into its core profile
    /// and memories. Fails with the model's coded error (nothing written) when the call or its reply fails.
    pub async fn dream(&self, scope: &Scope, lookback_days: usize) -> Result<DreamResult> {
        let from = day_of(self.now_ms() - lookback_days as i64 * DAY_MS);
        let mut state = DreamState::load(self, scope).await?;
        let mut fresh = Vec::new();
        for record in self.journal_records(scope, Some(&from)).await? {
            let markdown = record.markdown();
            let hash = content_hash(&markdown);
            if !state.consolidated(&record.date, &hash) {
                fresh.push((record.date, hash, markdown));
            }
        }
        let profile = self.core_profile(scope).await?;
        if fresh.is_empty() {
            // Nothing new in the window: the scope is no longer waiting for a dream (older journals are out of it).
            if self.side_record(PENDING_DREAM, &scope.key()).await?.is_some() {
                self.write_side(vec![SideWrite::delete(PENDING_DREAM, &scope.key())]).await?;
            }
            let result = DreamResult {
                dreamed: false,
                journals: Vec::new(),
                profile,
                results: Vec::new(),
                warnings: Vec::new(),
                reason: String::new(),
            };
            return Ok(result);
        }
        let journals: Vec<String> = fresh.iter().map(|(_, _, markdown)| markdown.clone()).collect();
        let input = dream_input(profile.as_ref().map(|p| p.markdown.as_str()), &journals);
        let reply = self.llm.generate(&LlmRequest::json(DREAM_PROMPT, &input, &dream_reply())).await?;
        let reply = parse_reply(&reply)?;

        self.load_scope(scope).await?;
        let metadata: Metadata = [("source".to_owned(), json!("dream"))].into_iter().collect();
        let to =
            Destination { centroid: self.centroid(scope), scope: scope.clone(), metadata, write: Default::default() };
        let (result, mut changes) = self.merge_facts(reply.facts, &to, &|_| true, AddResult::default()).await?;
        let now = self.now_iso();
        let (profile, profile_changed) = match profile {
            Some(kept) if kept.markdown == reply.profile => (kept, false),
            _ => (CoreProfile { markdown: reply.profile, updated_at: now.clone() }, true),
        };
        let days: Vec<(String, String)> = fresh.into_iter().map(|(date, hash, _)| (date, hash)).collect();
        let entry = DiaryEntry {
            at: now,
            journals: days.iter().map(|(date, _)| date.clone()).collect(),
            reason: reply.reason.clone(),
            profile_changed,
            events: result.results.clone(),
        };
        state.record(&days, entry);
        if profile_changed {
            let value = serde_json::to_value(&profile).unwrap_or(Value::Null);
            changes.side.push(SideWrite::put(CORE_PROFILE, &scope.key(), value));
        }
        changes.side.push(state.write(scope));
        changes.side.push(SideWrite::delete(PENDING_DREAM, &scope.key()));
        self.trim(scope, &mut changes);
        self.commit(changes).await?;
        Ok(DreamResult {
            dreamed: true,
            journals: days.into_iter().map(|(date, _)| date).collect(),
            profile: Some(profile),
            results: result.results,
            warnings: result.warnings,
            reason: reply.reason,
        })
    }
}
