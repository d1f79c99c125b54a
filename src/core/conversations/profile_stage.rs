//! Staging profile updates: each participant's updates are merged into their one profile memory of the
//! group (key `profile:<userId>`, scope `{userId, runId: groupId}`): an ADD the first time, an UPDATE (with
//! history) when its text changes, nothing when it does not.

use serde_json::{json, Value};

use super::episode::Episode;
use super::profile::{attributes_of, merge, profile_key, render, Attributes, ProfileUpdate};
use crate::core::conversations::Conversations;
use crate::core::engine::pipeline::event;
use crate::core::error::Result;
use crate::core::identity::{content_hash, new_id};
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddWarning, EventKind, MemoryEvent, MemoryItem, StoredMemory, WarningCode};
use crate::core::model::MemoryType;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// A profile that changes: who, its new attributes and text, and the memory it replaces (if any).
#[derive(Debug)]
pub(crate) struct ProfilePlan {
    pub(crate) user: String,
    pub(crate) scope: Scope,
    pub(crate) attributes: Attributes,
    pub(crate) text: String,
    pub(crate) existing: Option<StoredMemory>,
}

/// The scope of `user`'s profile in `episode`'s group.
fn profile_scope(episode: &Episode, user: &str) -> Scope {
    Scope { user_id: Some(user.to_owned()), agent_id: None, run_id: Some(episode.group_id.clone()) }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// The live profile memory (if any) of each human participant of `episode`.
    pub(crate) async fn current_profiles(&self, episode: &Episode) -> Result<Vec<(String, Option<StoredMemory>)>> {
        let now = self.now_iso();
        let mut profiles = Vec::new();
        for participant in episode.participants.iter().filter(|p| !p.assistant) {
            let scope = profile_scope(episode, &participant.user_id);
            self.load_scope(&scope).await?;
            let key = profile_key(&participant.user_id);
            let found = {
                let index = self.index.borrow();
                let keyed = |item: &MemoryItem| {
                    item.scope == scope && item.lifecycle.key.as_deref() == Some(&key) && item.lifecycle.is_live(&now)
                };
                index.list(1, &keyed).first().map(|m| m.item.id.clone())
            };
            profiles.push((participant.user_id.clone(), found.and_then(|id| self.indexed(&id))));
        }
        Ok(profiles)
    }

    /// The profiles `updates` change. Updates naming someone who is not a human participant of the episode
    /// are ignored with an `INVALID_DECISION` warning.
    pub(crate) fn plan_profiles(
        &self,
        episode: &Episode,
        updates: &[ProfileUpdate],
        current: Vec<(String, Option<StoredMemory>)>,
        warnings: &mut Vec<AddWarning>,
    ) -> Vec<ProfilePlan> {
        let mut plans: Vec<ProfilePlan> = Vec::new();
        for update in updates {
            let Some(participant) = episode.participant(&update.user).filter(|p| !p.assistant) else {
                let why = format!("profile of \"{}\" ignored: not a human participant of the episode", update.user);
                warnings.push(AddWarning::new(WarningCode::InvalidDecision, why));
                continue;
            };
            let user = participant.user_id.clone();
            let index = match plans.iter().position(|plan| plan.user == user) {
                Some(index) => index,
                None => {
                    let existing = current.iter().find(|(u, _)| *u == user).and_then(|(_, m)| m.clone());
                    let attributes = existing.as_ref().map(|m| attributes_of(&m.item)).unwrap_or_default();
                    let scope = profile_scope(episode, &user);
                    plans.push(ProfilePlan { user, scope, attributes, text: String::new(), existing });
                    plans.len() - 1
                }
            };
            let plan = &mut plans[index];
            plan.attributes = merge(&plan.attributes, &update.attributes);
            plan.text = render(&participant.name, &plan.user, &plan.attributes);
        }
        plans.retain(|plan| match &plan.existing {
            Some(existing) => existing.item.memory != plan.text,
            None => !plan.attributes.is_empty(),
        });
        plans
    }

    /// Stages `plan` (a new profile memory, or an UPDATE of the existing one) and returns its event.
    pub(crate) fn stage_profile(
        &self,
        episode: &Episode,
        plan: ProfilePlan,
        vector: Option<Vec<f32>>,
        changes: &mut Changeset,
    ) -> MemoryEvent {
        let now = self.now_iso();
        let name = episode.participant(&plan.user).map(|p| p.name.clone()).unwrap_or_else(|| plan.user.clone());
        let mut metadata = episode.metadata();
        metadata.remove("sessionId"); // a profile outlives its episodes: deleting one episode keeps it
        metadata.insert("userId".into(), Value::from(plan.user.as_str()));
        metadata.insert("name".into(), Value::from(name));
        metadata.insert("attributes".into(), json!(plan.attributes));
        metadata.insert("lastSessionId".into(), Value::from(episode.session_id.as_str()));
        let (item, kind, old) = match plan.existing {
            Some(mut memory) => {
                let old = std::mem::replace(&mut memory.item.memory, plan.text.clone());
                memory.item.hash = content_hash(&plan.text);
                memory.item.metadata = metadata.into();
                memory.item.updated_at = now;
                (memory.item, EventKind::Update, Some(old))
            }
            None => {
                let write = WriteLifecycle { memory_type: Some(MemoryType::Profile), ..WriteLifecycle::default() };
                let mut lifecycle = write.for_new(&plan.text, vector.as_deref(), self.centroid(&plan.scope).as_deref());
                lifecycle.key = Some(profile_key(&plan.user));
                let item = MemoryItem {
                    id: new_id(),
                    memory: plan.text.clone(),
                    hash: content_hash(&plan.text),
                    metadata: metadata.into(),
                    score: None,
                    fused_score: None,
                    created_at: now.clone(),
                    updated_at: now,
                    scope: plan.scope,
                    lifecycle,
                };
                (item, EventKind::Add, None)
            }
        };
        changes.history.push(self.record(&item, kind, old.clone(), Some(plan.text.clone())));
        let reported = event(kind, &item, old, Some(plan.text));
        changes.upserts.push(StoredMemory { item, embedding: vector });
        reported
    }
}
