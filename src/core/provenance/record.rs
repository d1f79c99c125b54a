//! What provenance keeps: one side record per memory and event (`sources` kind, keyed
//! `<memoryId>/<recordedAt>/<historyId>`), holding the messages that event came from, and the
//! `MemorySource`s `sources()` answers with, one per message.

use serde::{Deserialize, Serialize};

use crate::core::identity::content_hash;
use crate::core::model::types::{EventKind, Message};

/// The side-record kind of sources.
pub const SOURCES_KIND: &str = "sources";
/// The characters of a message an excerpt keeps.
pub const EXCERPT_CHARS: usize = 200;

/// A message as a memory's source: its id (the caller's, else `md5:` of role and text), who said it (its
/// `name`), where and when it was said, and its first `EXCERPT_CHARS` characters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceMessage {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    pub role: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    pub excerpt: String,
}

impl SourceMessage {
    pub fn of(message: &Message) -> Self {
        let id = message.id.clone().unwrap_or_else(|| message_hash(&message.role, &message.content));
        SourceMessage {
            id,
            conversation_id: message.conversation_id.clone(),
            role: message.role.clone(),
            name: message.name.clone(),
            created_at: message.created_at.clone(),
            excerpt: message.content.chars().take(EXCERPT_CHARS).collect(),
        }
    }
}

/// The id of a message the caller gave none: `md5:` and the hex MD5 of `role + "\n" + content`.
pub fn message_hash(role: &str, content: &str) -> String {
    format!("md5:{}", content_hash(&format!("{role}\n{content}")))
}

/// One stored record: the messages one event (ADD or UPDATE) of a memory came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceRecord {
    pub memory_id: String,
    pub event: EventKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_id: Option<String>,
    /// When the event was committed (ISO 8601).
    pub recorded_at: String,
    pub messages: Vec<SourceMessage>,
}

impl SourceRecord {
    /// Its key: the memory's id first (so a memory's records are together, oldest first), then the time.
    pub fn key(&self) -> String {
        let tail = self.history_id.as_deref().unwrap_or("");
        format!("{}/{}/{tail}", self.memory_id, self.recorded_at)
    }

    /// Its messages as `MemorySource`s.
    pub fn sources(self) -> impl Iterator<Item = MemorySource> {
        let (event, history_id, recorded_at) = (self.event, self.history_id, self.recorded_at);
        self.messages.into_iter().map(move |message| MemorySource {
            id: message.id,
            conversation_id: message.conversation_id,
            role: message.role,
            name: message.name,
            created_at: message.created_at,
            excerpt: message.excerpt,
            event,
            history_id: history_id.clone(),
            recorded_at: recorded_at.clone(),
        })
    }
}

/// One message a memory came from, as `sources()` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemorySource {
    /// The message's id in its source, else `md5:` and the MD5 of its role, a line break and its text.
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    pub role: String,
    /// Who said it: the message's `name`, when it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// The message's first 200 characters.
    pub excerpt: String,
    /// ADD or UPDATE: the event of the memory this message caused.
    pub event: EventKind,
    /// That event's history record (none when history is off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_id: Option<String>,
    /// When the event was committed (ISO 8601).
    pub recorded_at: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_without_an_id_is_named_by_the_hash_of_its_role_and_text() {
        let source = SourceMessage::of(&Message::new("user", "I live in Lyon"));
        assert_eq!(source.id, format!("md5:{}", content_hash("user\nI live in Lyon")));
        let long = SourceMessage::of(&Message::new("user", "é".repeat(300)));
        assert_eq!(long.excerpt.chars().count(), EXCERPT_CHARS);
    }
}
