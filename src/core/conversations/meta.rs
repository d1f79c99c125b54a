//! Conversation metadata: a group's scene, name, participants and tags, or
//! the default config (no `groupId`) that groups without their own fall back to. Stored as the side record
//! `conversation-meta` / `group:<groupId>` (`default` for the default config). The participants' names
//! and roles in `userDetails` are given to the extraction prompt.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::message::Role;
use crate::core::error::{MemoryError, Result};
use crate::core::model::types::Metadata;
use crate::core::time::{iso_from_millis, millis_from_iso};

/// The side-record kind of conversation metadata.
pub const META_KIND: &str = "conversation-meta";
/// The side-record key of a group's metadata (`None`: the default config).
pub fn meta_key(group_id: Option<&str>) -> String {
    group_id.map_or_else(|| "default".to_owned(), |group| format!("group:{group}"))
}

/// What kind of conversation it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scene {
    /// A user talking with an AI assistant.
    Assistant,
    /// Several people (and maybe assistants) in one chat.
    GroupChat,
}

/// One participant of `userDetails`, keyed by user id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserDetail {
    #[serde(default, alias = "full_name", skip_serializing_if = "Option::is_none")]
    pub full_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// Job title or position.
    #[serde(default, alias = "custom_role", skip_serializing_if = "Option::is_none")]
    pub custom_role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Metadata>,
}

/// `saveConversationMeta(meta)` as given.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetaInput {
    pub version: Option<String>,
    pub scene: Option<Scene>,
    #[serde(alias = "scene_desc")]
    pub scene_desc: Option<Metadata>,
    pub name: Option<String>,
    pub description: Option<String>,
    #[serde(alias = "group_id")]
    pub group_id: Option<String>,
    #[serde(alias = "created_at")]
    pub created_at: Option<String>,
    #[serde(alias = "default_timezone")]
    pub default_timezone: Option<String>,
    #[serde(alias = "user_details")]
    pub user_details: Option<BTreeMap<String, UserDetail>>,
    pub tags: Option<Vec<String>>,
}

/// Stored conversation metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationMeta {
    /// Stays the same across saves.
    pub id: String,
    /// Absent for the default config.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    pub version: String,
    pub scene: Scene,
    pub scene_desc: Metadata,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// When the conversation began (ISO 8601, UTC).
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_timezone: Option<String>,
    #[serde(default)]
    pub user_details: BTreeMap<String, UserDetail>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// When it was last saved or updated (the engine's clock).
    pub updated_at: String,
}

/// Metadata as `getConversationMeta` returns it: `isDefault` for the default config.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MetaView {
    #[serde(flatten)]
    pub meta: ConversationMeta,
    pub is_default: bool,
}

impl From<ConversationMeta> for MetaView {
    fn from(meta: ConversationMeta) -> Self {
        Self { is_default: meta.group_id.is_none(), meta }
    }
}

pub(crate) fn invalid(why: String) -> MemoryError {
    MemoryError::InvalidInput(why)
}

pub(crate) fn required(name: &str, value: Option<String>) -> Result<String> {
    value.filter(|v| !v.trim().is_empty()).ok_or_else(|| invalid(format!("{name} must be a non-empty string")))
}

/// `groupId` trimmed; blank counts as absent.
pub fn group_of(group_id: Option<String>) -> Option<String> {
    group_id.map(|g| g.trim().to_owned()).filter(|g| !g.is_empty())
}

impl MetaInput {
    /// Checks the required fields (`version`, `scene`, `sceneDesc`, `name`, `createdAt` with a time zone) and
    /// builds the metadata to store with `id` at `now`.
    pub fn check(self, id: String, now: String) -> Result<ConversationMeta> {
        let version = required("version", self.version)?;
        let scene = self.scene.ok_or_else(|| invalid("scene must be \"assistant\" or \"group_chat\"".into()))?;
        let scene_desc = self.scene_desc.ok_or_else(|| invalid("sceneDesc must be an object".into()))?;
        let name = required("name", self.name)?;
        let created = required("createdAt", self.created_at)?;
        let millis = millis_from_iso(created.trim())
            .ok_or_else(|| invalid(format!("createdAt must be an ISO 8601 time with a time zone, got {created:?}")))?;
        Ok(ConversationMeta {
            id,
            group_id: group_of(self.group_id),
            version,
            scene,
            scene_desc,
            name,
            description: self.description,
            created_at: iso_from_millis(millis),
            default_timezone: self.default_timezone.filter(|z| !z.trim().is_empty()),
            user_details: self.user_details.unwrap_or_default(),
            tags: self.tags.unwrap_or_default(),
            updated_at: now,
        })
    }
}

#[cfg(test)]
#[path = "meta_tests.rs"]
mod tests;
