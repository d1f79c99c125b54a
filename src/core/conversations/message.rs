//! One chat message as `addMessage` takes it, checked, and the group it goes to.
//! Without `groupId` a message goes to a default group derived from its sender: `default:<sender>`.

use serde::{Deserialize, Serialize};

use crate::core::error::{MemoryError, Result};
use crate::core::limits::check_id_chars;
use crate::core::time::{iso_from_millis, millis_from_iso};

/// Longest `messageId`, `sender` and `groupId`, in characters.
pub const MAX_ID_CHARS: usize = 512;
/// Prefix of the default group of a sender.
pub const DEFAULT_GROUP_PREFIX: &str = "default:";

/// Who wrote a message: a human (`user`) or an AI (`assistant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

/// `addMessage(message)` as given: camelCase, or the conversation API's snake_case. Unknown keys are refused.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MessageInput {
    #[serde(alias = "message_id")]
    pub message_id: Option<String>,
    /// ISO 8601 with a time zone.
    #[serde(alias = "create_time")]
    pub create_time: Option<String>,
    pub sender: Option<String>,
    pub content: Option<String>,
    #[serde(alias = "group_id")]
    pub group_id: Option<String>,
    #[serde(alias = "group_name")]
    pub group_name: Option<String>,
    #[serde(alias = "sender_name")]
    pub sender_name: Option<String>,
    pub role: Option<Role>,
    #[serde(alias = "refer_list")]
    pub refer_list: Option<Vec<String>>,
}

/// A checked message, as it waits in its group's buffer (and as `pendingMessages` shows it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingMessage {
    pub message_id: String,
    /// ISO 8601 in UTC (`2025-01-15T10:00:00.000Z`), whatever zone it was given in.
    pub create_time: String,
    pub sender: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refer_list: Vec<String>,
}

impl PendingMessage {
    /// `createTime` in milliseconds since the epoch.
    pub fn millis(&self) -> i64 {
        millis_from_iso(&self.create_time).unwrap_or(0)
    }

    /// The sender's display name: `senderName`, else the sender id.
    pub fn display_name(&self) -> &str {
        self.sender_name.as_deref().unwrap_or(&self.sender)
    }
}

/// The group a message goes to.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRef {
    pub group_id: String,
    pub group_name: Option<String>,
    /// For a default group: the sender it belongs to.
    pub default_sender: Option<String>,
}

/// The default group of `sender`.
pub fn default_group(sender: &str) -> String {
    format!("{DEFAULT_GROUP_PREFIX}{sender}")
}

fn invalid(why: String) -> MemoryError {
    MemoryError::InvalidInput(why)
}

/// `value` trimmed, when it is non-blank; blank counts as absent.
fn given(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// A required id: non-blank, as `optional_id` checks it.
fn id(name: &str, value: Option<String>) -> Result<String> {
    optional_id(name, value)?.ok_or_else(|| invalid(format!("{name} must be a non-empty string")))
}

/// An id that may be left out (blank counts as absent): trimmed, at most `MAX_ID_CHARS`, without control
/// characters or line separators (anywhere, even at an end trimming would drop).
fn optional_id(name: &str, value: Option<String>) -> Result<Option<String>> {
    if let Some(raw) = &value {
        check_id_chars(name, raw)?;
    }
    let value = given(value);
    if value.as_ref().is_some_and(|v| v.chars().count() > MAX_ID_CHARS) {
        return Err(invalid(format!("{name} must be at most {MAX_ID_CHARS} characters")));
    }
    Ok(value)
}

impl MessageInput {
    /// Checks the message: `messageId`, `sender` and `content` non-empty, `createTime` an ISO 8601 time with
    /// a time zone (stored in UTC), no id (`referList`'s too) with a control character or line separator.
    /// Returns its group and the message.
    pub fn check(self) -> Result<(GroupRef, PendingMessage)> {
        let message_id = id("messageId", self.message_id)?;
        let text = given(self.create_time.clone())
            .ok_or_else(|| invalid("createTime must be an ISO 8601 time with a time zone".into()))?;
        let millis = millis_from_iso(&text).ok_or_else(|| {
            invalid(format!(
                "createTime must be an ISO 8601 time with a time zone (e.g. 2025-01-15T10:00:00+00:00), got {text:?}"
            ))
        })?;
        let sender = id("sender", self.sender)?;
        let content = self.content.filter(|c| !c.trim().is_empty());
        let content = content.ok_or_else(|| invalid("content must be a non-empty string".into()))?;
        let refer_list = self.refer_list.unwrap_or_default();
        refer_list.iter().try_for_each(|refer| check_id_chars("referList", refer))?;
        let refer_list = refer_list.into_iter().filter(|r| !r.trim().is_empty()).collect();
        let group = match optional_id("groupId", self.group_id)? {
            Some(group_id) => GroupRef { group_id, group_name: given(self.group_name), default_sender: None },
            None => GroupRef {
                group_id: default_group(&sender),
                group_name: given(self.group_name),
                default_sender: Some(sender.clone()),
            },
        };
        let message = PendingMessage {
            message_id,
            create_time: iso_from_millis(millis),
            sender,
            sender_name: given(self.sender_name),
            role: self.role,
            content,
            refer_list,
        };
        Ok((group, message))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn input(value: serde_json::Value) -> MessageInput {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn a_message_is_checked_and_its_time_kept_in_utc() {
        let (group, message) = input(json!({
            "message_id": "m1", "create_time": "2025-01-15T11:00:00+01:00", "sender": "u1",
            "content": "Hello", "group_id": "g1", "group_name": "Team", "sender_name": "John",
            "role": "user", "refer_list": ["m0"]
        }))
        .check()
        .unwrap();
        assert_eq!(group, GroupRef { group_id: "g1".into(), group_name: Some("Team".into()), default_sender: None });
        assert_eq!(message.create_time, "2025-01-15T10:00:00.000Z");
        assert_eq!((message.display_name(), message.role, message.refer_list.len()), ("John", Some(Role::User), 1));
    }

    #[test]
    fn without_a_group_id_the_sender_gets_a_default_group() {
        let message =
            json!({"messageId": "m1", "createTime": "2025-01-15T10:00:00Z", "sender": "alice", "content": "hi"});
        let (group, message) = input(message).check().unwrap();
        assert_eq!(group.group_id, "default:alice");
        assert_eq!(group.default_sender.as_deref(), Some("alice"));
        assert_eq!(message.display_name(), "alice");
    }

    #[test]
    fn bad_messages_are_invalid_input_naming_the_field() {
        let good = json!({"messageId": "m1", "createTime": "2025-01-15T10:00:00Z", "sender": "a", "content": "x"});
        for (key, value, field) in [
            ("messageId", json!(null), "messageId"),
            ("messageId", json!("  "), "messageId"),
            ("createTime", json!("2025-01-15T10:00:00"), "createTime"),
            ("createTime", json!("2025-01-15"), "createTime"),
            ("createTime", json!(null), "createTime"),
            ("sender", json!(""), "sender"),
            ("content", json!(" "), "content"),
        ] {
            let mut bad = good.clone();
            bad[key] = value;
            let error = input(bad).check().unwrap_err();
            assert_eq!(error.code(), "INVALID_INPUT");
            assert!(error.to_string().contains(field), "{error}");
        }
        assert!(serde_json::from_value::<MessageInput>(json!({"messageId": "m", "memoryType": "x"})).is_err());
        assert!(serde_json::from_value::<MessageInput>(json!({"role": "system"})).is_err());
    }

    #[test]
    fn ids_with_control_characters_or_line_separators_are_invalid_input() {
        let good = json!({"messageId": "m1", "createTime": "2025-01-15T10:00:00Z", "sender": "a", "content": "x"});
        for field in ["messageId", "sender", "groupId"] {
            for bad in ["a\u{0}b", "m\u{1b}[2J", "a\u{7f}", "a\u{9f}", "a\u{2028}b", "a\u{2029}"] {
                let mut message = good.clone();
                message[field] = json!(bad);
                let error = input(message).check().unwrap_err();
                assert_eq!(error.code(), "INVALID_INPUT", "{field} {bad:?}");
                assert!(error.to_string().contains(field), "{error}");
            }
        }
        let mut refers = good.clone();
        refers["referList"] = json!(["m0", "m\u{0}"]);
        assert!(input(refers).check().unwrap_err().to_string().contains("referList"));
        let mut unicode = good.clone();
        (unicode["messageId"], unicode["sender"], unicode["groupId"]) = (json!("消息-1"), json!("Zoë"), json!("🙂"));
        let (group, message) = input(unicode).check().unwrap();
        assert_eq!(
            (group.group_id.as_str(), message.message_id.as_str(), message.sender.as_str()),
            ("🙂", "消息-1", "Zoë")
        );
    }
}
