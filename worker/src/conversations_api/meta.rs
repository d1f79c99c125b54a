//! `GET` / `POST` / `PATCH /api/v1/memories/conversation-meta`: a group's conversation metadata
//! (without `group_id`: the default config other groups fall back to), in snake_case.

use std::collections::BTreeMap;

use memwasm::core::conversations::{MetaInput, MetaPatch, MetaView, Role, Scene, UserDetail};
use memwasm::core::model::types::Metadata;
use memwasm::platform::compose::Engine;
use serde::Serialize;
use serde_json::Value;
use worker::Response;

use super::envelope::{ok, Failure};
use super::params::{gather, id_filter};
use crate::query::{Kinds, Query};
use crate::requests::parse;

/// One participant.
#[derive(Serialize)]
struct UserOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    full_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<Role>,
    #[serde(skip_serializing_if = "Option::is_none")]
    custom_role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extra: Option<Metadata>,
}

/// Conversation metadata on the wire.
#[derive(Serialize)]
pub struct MetaOut {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    group_id: Option<String>,
    version: String,
    scene: Scene,
    scene_desc: Metadata,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    default_timezone: Option<String>,
    user_details: BTreeMap<String, UserOut>,
    tags: Vec<String>,
    updated_at: String,
    /// True for the default config (what a group without its own metadata gets).
    is_default: bool,
    /// `PATCH`: the fields it set.
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_fields: Option<Vec<&'static str>>,
}

fn user(detail: UserDetail) -> UserOut {
    UserOut { full_name: detail.full_name, role: detail.role, custom_role: detail.custom_role, extra: detail.extra }
}

impl From<MetaView> for MetaOut {
    fn from(view: MetaView) -> Self {
        let meta = view.meta;
        Self {
            id: meta.id,
            group_id: meta.group_id,
            version: meta.version,
            scene: meta.scene,
            scene_desc: meta.scene_desc,
            name: meta.name,
            description: meta.description,
            created_at: meta.created_at,
            default_timezone: meta.default_timezone,
            user_details: meta.user_details.into_iter().map(|(id, detail)| (id, user(detail))).collect(),
            tags: meta.tags,
            updated_at: meta.updated_at,
            is_default: view.is_default,
            updated_fields: None,
        }
    }
}

/// The library's field names (`sceneDesc`) as the wire's (`scene_desc`).
fn snake(name: &'static str) -> &'static str {
    match name {
        "sceneDesc" => "scene_desc",
        "userDetails" => "user_details",
        "defaultTimezone" => "default_timezone",
        other => other,
    }
}

/// `GET …/conversation-meta?group_id=…`: the group's metadata, else the default config; 404 when neither.
pub async fn get(engine: &Engine, query: &Query) -> Result<Response, Failure> {
    let fields = gather(query, &[], &Kinds::default(), &["group_id"])?;
    let group = id_filter(&fields, "group_id")?;
    let Some(view) = engine.conversations().conversation_meta(group.as_deref()).await? else {
        let whose = group.map_or_else(|| "the default config".to_owned(), |g| format!("group {g:?}"));
        return Err(Failure::not_found(format!("no conversation metadata for {whose} (nor a default config)")));
    };
    ok("Conversation metadata retrieved successfully", MetaOut::from(view))
}

/// `POST …/conversation-meta`: saves (upserts) the metadata of its `group_id` (none: the default config).
pub async fn save(engine: &Engine, body: &[u8]) -> Result<Response, Failure> {
    let input: MetaInput = parse(body)?;
    let view = engine.conversations().save_conversation_meta(input).await?;
    ok("Conversation metadata saved successfully", MetaOut::from(view))
}

/// `PATCH …/conversation-meta`: changes the updatable fields; 404 when nothing was saved for the group.
pub async fn patch(engine: &Engine, body: &[u8]) -> Result<Response, Failure> {
    let value: Value = Value::Object(parse(body)?);
    let update = engine.conversations().update_conversation_meta(MetaPatch::parse(value)?).await?;
    let fields: Vec<&'static str> = update.updated_fields.into_iter().map(snake).collect();
    let message = format!("Conversation metadata updated successfully, {} fields updated", fields.len());
    ok(&message, MetaOut { updated_fields: Some(fields), ..MetaOut::from(update.view) })
}
