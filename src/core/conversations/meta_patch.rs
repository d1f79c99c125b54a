//! `updateConversationMeta(patch)`: the group whose metadata to change and the updatable fields; any other
//! key is refused, naming it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::meta::{invalid, required, ConversationMeta, MetaView, UserDetail};
use crate::core::error::Result;
use crate::core::model::types::Metadata;

/// The fields `updateConversationMeta` may change.
pub const UPDATABLE: &[&str] = &["name", "description", "sceneDesc", "tags", "userDetails", "defaultTimezone"];

/// `updateConversationMeta(patch)` as given: the group (absent: the default config) and updatable fields.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetaPatch {
    #[serde(alias = "group_id")]
    pub group_id: Option<String>,
    pub name: Option<String>,
    pub description: Option<String>,
    #[serde(alias = "scene_desc")]
    pub scene_desc: Option<Metadata>,
    pub tags: Option<Vec<String>>,
    #[serde(alias = "user_details")]
    pub user_details: Option<BTreeMap<String, UserDetail>>,
    #[serde(alias = "default_timezone")]
    pub default_timezone: Option<String>,
}

/// What `updateConversationMeta` returns: the metadata now, and the fields the patch set.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MetaUpdate {
    #[serde(flatten)]
    pub view: MetaView,
    pub updated_fields: Vec<&'static str>,
}

impl MetaPatch {
    /// Reads a patch; a key that is not updatable is named in the error.
    pub fn parse(value: Value) -> Result<Self> {
        let Value::Object(object) = &value else {
            return Err(invalid("patch must be an object".into()));
        };
        let keys = ["groupId", "group_id", "scene_desc", "user_details", "default_timezone"];
        if let Some(key) = object.keys().find(|k| !UPDATABLE.contains(&k.as_str()) && !keys.contains(&k.as_str())) {
            return Err(invalid(format!("{key} cannot be updated (updatable: {})", UPDATABLE.join(", "))));
        }
        crate::core::value_de::from_value_path(&value).map_err(|(path, e)| invalid(format!("{path}: {e}")))
    }

    /// Applies the patch to `meta` at `now`; returns the fields it set (none: `INVALID_INPUT`).
    pub fn apply(self, meta: &mut ConversationMeta, now: String) -> Result<Vec<&'static str>> {
        let mut fields = Vec::new();
        if let Some(name) = self.name {
            meta.name = required("name", Some(name))?;
            fields.push("name");
        }
        if let Some(description) = self.description {
            meta.description = Some(description);
            fields.push("description");
        }
        if let Some(scene_desc) = self.scene_desc {
            meta.scene_desc = scene_desc;
            fields.push("sceneDesc");
        }
        if let Some(tags) = self.tags {
            meta.tags = tags;
            fields.push("tags");
        }
        if let Some(user_details) = self.user_details {
            meta.user_details = user_details;
            fields.push("userDetails");
        }
        if let Some(zone) = self.default_timezone {
            meta.default_timezone = Some(zone).filter(|z| !z.trim().is_empty());
            fields.push("defaultTimezone");
        }
        if fields.is_empty() {
            return Err(invalid(format!("the patch sets no field (updatable: {})", UPDATABLE.join(", "))));
        }
        meta.updated_at = now;
        Ok(fields)
    }
}
