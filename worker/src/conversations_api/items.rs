//! A memory as the read routes answer it (fetch and search of the conversation API): the API's type
//! name, the text as `content`, the episode's title (else the text) as `summary`, the episode's time as
//! `timestamp`, the group as `group_id`, the episode (what `DELETE`'s `event_id` matches) as `event_id`.

use memwasm::core::conversations::{PendingMessage, Role};
use memwasm::core::model::types::{MemoryItem, Metadata};
use serde::Serialize;
use serde_json::Value;

use super::params::type_name;

/// One memory.
#[derive(Serialize)]
pub struct MemoryOut {
    id: String,
    memory_type: &'static str,
    content: String,
    summary: String,
    /// The first message's time of the episode it came from; else when it was stored.
    timestamp: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    group_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    group_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    event_id: Option<String>,
    importance: f64,
    created_at: String,
    updated_at: String,
    /// Everything the library keeps about it (camelCase keys: `sessionId`, `startTime`, `participants`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Metadata>,
}

fn text(metadata: &Metadata, key: &str) -> Option<String> {
    metadata.get(key).and_then(Value::as_str).map(str::to_owned)
}

impl MemoryOut {
    /// `item` on the wire, with its metadata when `with_metadata`.
    pub fn new(item: MemoryItem, with_metadata: bool) -> Self {
        let meta = &item.metadata;
        Self {
            memory_type: type_name(item.lifecycle.memory_type),
            summary: text(meta, "title").unwrap_or_else(|| item.memory.clone()),
            timestamp: text(meta, "startTime").unwrap_or_else(|| item.created_at.clone()),
            group_name: text(meta, "groupName"),
            event_id: text(meta, "sessionId"),
            importance: item.lifecycle.importance,
            id: item.id,
            content: item.memory,
            user_id: item.scope.user_id,
            group_id: item.scope.run_id,
            created_at: item.created_at,
            updated_at: item.updated_at,
            metadata: with_metadata.then(|| item.metadata.into_map()),
        }
    }
}

/// A message waiting in its group's buffer (`pending_messages`).
#[derive(Serialize)]
pub struct PendingOut {
    message_id: String,
    create_time: String,
    sender: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    sender_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<Role>,
    content: String,
    refer_list: Vec<String>,
}

impl From<PendingMessage> for PendingOut {
    fn from(message: PendingMessage) -> Self {
        Self {
            role: message.role,
            message_id: message.message_id,
            create_time: message.create_time,
            sender: message.sender,
            sender_name: message.sender_name,
            content: message.content,
            refer_list: message.refer_list,
        }
    }
}

/// The messages of `messages` on the wire.
pub fn pending(messages: Vec<PendingMessage>) -> Vec<PendingOut> {
    messages.into_iter().map(PendingOut::from).collect()
}
