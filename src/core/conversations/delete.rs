//! `deleteMemories({eventId?, userId?, groupId?})` (the conversation API's DELETE): soft-deletes every live memory that
//! matches all the filters given, each with a DELETE record (`restore` brings one back). `eventId` matches a
//! memory's id or the `metadata.sessionId` of the episode it was extracted from; `userId` matches the
//! memory's `userId` (profiles, default groups, `add()` memories of that user), and with `groupId` also the
//! group's shared memories that list the user as a participant (`metadata.participants`); `groupId` matches
//! its `runId`. Shared memories belong to the group (see `membership`): a delete with a `userId` takes the
//! user off them (an UPDATE each, the text unchanged) and leaves them to the others. A filter that is absent,
//! blank or the conversation API's `"__all__"` is not given; at least one must be.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::membership::{is_shared, leave};
use crate::core::conversations::Conversations;
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::ANY;
use crate::core::model::types::{EventKind, MemoryItem};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::involves;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// The filters as given.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeleteFilter {
    #[serde(alias = "event_id")]
    pub event_id: Option<String>,
    #[serde(alias = "user_id")]
    pub user_id: Option<String>,
    #[serde(alias = "group_id")]
    pub group_id: Option<String>,
}

/// What `deleteMemories` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeleteOutcome {
    /// Memories soft-deleted.
    pub count: usize,
    /// The group's shared memories the user was taken off (kept for the others); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub left: usize,
    /// The filters that applied, e.g. `["userId", "groupId"]`.
    pub filters: Vec<&'static str>,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// A filter value that counts: not blank, not the conversation API's `"__all__"`.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty() && *v != ANY)
}

impl DeleteFilter {
    /// The filters that apply, by name; `INVALID_INPUT` when none does.
    pub fn names(&self) -> Result<Vec<&'static str>> {
        let names: Vec<&'static str> =
            [("eventId", &self.event_id), ("userId", &self.user_id), ("groupId", &self.group_id)]
                .into_iter()
                .filter(|(_, value)| given(value).is_some())
                .map(|(name, _)| name)
                .collect();
        if names.is_empty() {
            return Err(MemoryError::InvalidInput(
                "deleteMemories needs at least one of eventId, userId or groupId (not \"__all__\")".into(),
            ));
        }
        Ok(names)
    }

    /// True when `item` matches every filter given.
    pub fn matches(&self, item: &MemoryItem) -> bool {
        let event = given(&self.event_id).is_none_or(|event| {
            item.id == event || item.metadata.get("sessionId").and_then(Value::as_str) == Some(event)
        });
        let group = given(&self.group_id);
        let user = given(&self.user_id).is_none_or(|user| match group {
            Some(_) => involves(item, user),
            None => item.scope.user_id.as_deref() == Some(user),
        });
        let group = group.is_none_or(|group| item.scope.run_id.as_deref() == Some(group));
        event && user && group
    }

    /// The narrowest scope that holds every match (empty: every scope). With a group, the group's: its
    /// memories that involve the user are filed under no user.
    fn scope(&self) -> Scope {
        let owned = |value: &Option<String>| given(value).map(str::to_owned);
        let group = owned(&self.group_id);
        let user = if group.is_some() { None } else { owned(&self.user_id) };
        Scope { user_id: user, agent_id: None, run_id: group }
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// Soft-deletes every live memory matching `filter` (all filters given), each with a DELETE record.
    pub async fn delete_memories(&self, filter: &DeleteFilter) -> Result<DeleteOutcome> {
        let filters = filter.names()?;
        let now = self.now_iso();
        let matched = self
            .lifecycle()
            .scope_memories(&filter.scope(), &|item| item.lifecycle.is_live(&now) && filter.matches(item))
            .await?;
        let user = given(&filter.user_id).map(str::to_owned);
        let (shared, doomed): (Vec<_>, Vec<_>) =
            matched.into_iter().partition(|memory| user.is_some() && is_shared(&memory.item));
        let (count, left) = (doomed.len(), shared.len());
        let mut changes = self.deletion(doomed, true);
        for mut memory in shared {
            leave(&mut memory.item.metadata, user.as_deref().unwrap_or_default());
            memory.item.updated_at = now.clone();
            let text = Some(memory.item.memory.clone());
            changes.history.push(self.record(&memory.item, EventKind::Update, text.clone(), text));
            changes.upserts.push(memory);
        }
        self.commit(changes).await?;
        Ok(DeleteOutcome { count, left, filters })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn filter(value: Value) -> DeleteFilter {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn at_least_one_real_filter_is_needed() {
        for empty in [json!({}), json!({"userId": " "}), json!({"user_id": "__all__", "group_id": "__all__"})] {
            assert_eq!(filter(empty).names().unwrap_err().code(), "INVALID_INPUT");
        }
        assert_eq!(filter(json!({"group_id": "g", "event_id": "__all__"})).names().unwrap(), ["groupId"]);
        assert_eq!(filter(json!({"userId": "u", "groupId": "g"})).names().unwrap(), ["userId", "groupId"]);
        assert!(serde_json::from_value::<DeleteFilter>(json!({"memoryType": "profile"})).is_err());
    }

    #[test]
    fn every_given_filter_must_match() {
        let item: MemoryItem = serde_json::from_value(json!({
            "id": "m1", "memory": "x", "hash": "h", "createdAt": "t", "updatedAt": "t",
            "userId": "u", "runId": "g", "metadata": {"sessionId": "s1"}
        }))
        .unwrap();
        assert!(filter(json!({"eventId": "s1"})).matches(&item));
        assert!(filter(json!({"eventId": "m1", "userId": "u", "groupId": "g"})).matches(&item));
        assert!(!filter(json!({"eventId": "s2", "groupId": "g"})).matches(&item));
        assert!(!filter(json!({"userId": "v"})).matches(&item));
        assert_eq!(
            filter(json!({"userId": "u", "eventId": "s1"})).scope(),
            Scope { user_id: Some("u".into()), ..Scope::default() }
        );
    }
}
