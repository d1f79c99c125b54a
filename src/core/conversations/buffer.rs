//! A group's message buffer: the messages waiting for a boundary, kept as the side record
//! `message-buffer` / `<groupId>` so a reload or a worker restart loses none of them. It also remembers the
//! ids of the group's latest extracted messages, so a message sent twice is ignored rather than counted
//! twice.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::message::{GroupRef, PendingMessage};
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::side_records::SideWrite;

/// The side-record kind of message buffers (keyed by group id).
pub const BUFFER_KIND: &str = "message-buffer";
/// How many extracted message ids a group remembers for duplicate detection.
pub const REMEMBERED_IDS: usize = 1000;

/// The stored buffer of one group.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupBuffer {
    pub group_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_name: Option<String>,
    /// For a default group: the sender it belongs to (its memories are filed under that user too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_sender: Option<String>,
    /// The messages waiting for a boundary, in arrival order.
    #[serde(default)]
    pub messages: Vec<PendingMessage>,
    /// Ids of the latest extracted messages, oldest first (at most `REMEMBERED_IDS`).
    #[serde(default)]
    pub extracted_ids: Vec<String>,
}

impl GroupBuffer {
    /// The buffer stored for `group` (`record`), or a new empty one; the group's name is updated when given.
    pub fn load(group: &GroupRef, record: Option<Value>) -> Result<Self> {
        let mut buffer = Self::decode(&group.group_id, record)?;
        if group.group_name.is_some() {
            buffer.group_name = group.group_name.clone();
        }
        if group.default_sender.is_some() {
            buffer.default_sender = group.default_sender.clone();
        }
        Ok(buffer)
    }

    /// The buffer stored for `group_id`, or a new empty one.
    pub fn decode(group_id: &str, record: Option<Value>) -> Result<Self> {
        let Some(record) = record else {
            return Ok(Self { group_id: group_id.to_owned(), ..Self::default() });
        };
        crate::core::value_de::from_value(&record)
            .map_err(|e| MemoryError::Storage(format!("the message buffer of group {group_id:?} does not decode: {e}")))
    }

    /// The write that stores this buffer.
    pub fn write(&self) -> SideWrite {
        let value = serde_json::to_value(self).unwrap_or(Value::Null);
        SideWrite::put(BUFFER_KIND, &self.group_id, value)
    }

    /// True when a message with this id waits here or was extracted lately.
    pub fn has_seen(&self, message_id: &str) -> bool {
        self.messages.iter().any(|m| m.message_id == message_id) || self.extracted_ids.iter().any(|id| id == message_id)
    }

    /// Notes `messages` as extracted.
    pub fn remember(&mut self, messages: &[PendingMessage]) {
        self.extracted_ids.extend(messages.iter().map(|m| m.message_id.clone()));
        let excess = self.extracted_ids.len().saturating_sub(REMEMBERED_IDS);
        self.extracted_ids.drain(..excess);
    }

    /// Where the group's memories go: `{runId: groupId}`, plus `userId` for a default group.
    pub fn scope(&self) -> Scope {
        Scope { user_id: self.default_sender.clone(), agent_id: None, run_id: Some(self.group_id.clone()) }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(id: &str) -> PendingMessage {
        PendingMessage {
            message_id: id.into(),
            create_time: "2025-01-15T10:00:00.000Z".into(),
            sender: "a".into(),
            sender_name: None,
            role: None,
            content: "x".into(),
            refer_list: Vec::new(),
        }
    }

    #[test]
    fn a_buffer_round_trips_through_its_side_record_and_knows_its_ids() {
        let group = GroupRef { group_id: "g".into(), group_name: Some("G".into()), default_sender: None };
        let mut buffer = GroupBuffer::load(&group, None).unwrap();
        buffer.messages.push(message("m1"));
        buffer.remember(&[message("m0")]);
        let write = buffer.write();
        assert_eq!((write.kind.as_str(), write.key.as_str()), (BUFFER_KIND, "g"));
        let again = GroupBuffer::load(&GroupRef { group_name: None, ..group }, write.value).unwrap();
        assert_eq!(again, buffer);
        assert!(again.has_seen("m0") && again.has_seen("m1") && !again.has_seen("m2"));
        assert_eq!(again.scope(), Scope { run_id: Some("g".into()), ..Scope::default() });
        assert_eq!(GroupBuffer::decode("g", Some(json!(5))).unwrap_err().code(), "STORAGE");
    }

    #[test]
    fn only_the_latest_extracted_ids_are_remembered() {
        let mut buffer = GroupBuffer::default();
        let many: Vec<PendingMessage> = (0..REMEMBERED_IDS + 5).map(|i| message(&format!("m{i}"))).collect();
        buffer.remember(&many);
        assert_eq!(buffer.extracted_ids.len(), REMEMBERED_IDS);
        assert!(!buffer.has_seen("m4") && buffer.has_seen("m5"));
    }
}
