//! GroupChatFormat, the file format of the conversation API's batch import (`run_memorize.py --input`), as
//! `POST /api/v1/memories/batch` takes it:
//!
//! ```json
//! {"version": "1.0.0",
//!  "conversation_meta": {"scene": "group_chat", "scene_desc": {}, "name": "Team", "group_id": "g1",
//!    "description": "…", "created_at": "2025-02-01T01:00:00Z", "default_timezone": "UTC", "tags": ["…"],
//!    "user_details": {"u1": {"full_name": "Alex", "role": "user", "custom_role": "Tech Lead",
//!                            "email": "…", "avatar_url": "…", "department": "…", "extra": {}}},
//!    "extra": {}},
//!  "conversation_list": [{"message_id": "m1", "create_time": "2025-02-01T02:00:00Z", "sender": "u1",
//!    "sender_name": "Alex", "role": "user", "type": "text", "content": "…",
//!    "refer_list": ["m0", {"message_id": "m0", "content": "…"}], "extra": {}}]}
//! ```
//!
//! Every problem is reported, not only the first: each with its `path` (`conversation_list[3]`), the
//! message's `message_id` when it has one, and what is wrong.

use std::collections::{BTreeMap, HashSet};

use memwasm::core::conversations::{MessageInput, MetaInput, Role, Scene, UserDetail};
use memwasm::core::model::types::Metadata;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most messages one batch may hold (each costs KV writes; a Worker request may make 1,000 operations).
pub const MAX_BATCH_MESSAGES: usize = 200;

/// One problem of a batch.
#[derive(Debug, Serialize)]
pub struct Problem {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    pub message: String,
}

pub fn problem(path: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem { path: path.into(), message_id: None, message: message.into() }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileUser {
    full_name: Option<String>,
    role: Option<Role>,
    custom_role: Option<String>,
    email: Option<String>,
    avatar_url: Option<String>,
    department: Option<String>,
    extra: Option<Metadata>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileMeta {
    scene: Option<Scene>,
    scene_desc: Option<Metadata>,
    name: Option<String>,
    description: Option<String>,
    group_id: Option<String>,
    created_at: Option<String>,
    default_timezone: Option<String>,
    #[serde(default)]
    user_details: BTreeMap<String, FileUser>,
    tags: Option<Vec<String>>,
    /// Part of the format; not stored.
    #[allow(dead_code)]
    extra: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileMessage {
    pub message_id: Option<String>,
    pub create_time: Option<String>,
    pub sender: Option<String>,
    pub sender_name: Option<String>,
    pub role: Option<Role>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub content: Option<String>,
    pub refer_list: Option<Vec<Value>>,
    /// Part of the format; not stored.
    #[allow(dead_code)]
    extra: Option<Value>,
}

/// A batch that validated: its metadata and its messages in file order, each bound to the group.
pub struct Plan {
    pub group_id: String,
    pub meta: MetaInput,
    pub messages: Vec<MessageInput>,
}

/// A participant as the library keeps it: email, avatar and department go into `extra`.
fn detail(user: FileUser) -> UserDetail {
    let mut extra = user.extra.unwrap_or_default();
    for (key, value) in [("email", user.email), ("avatar_url", user.avatar_url), ("department", user.department)] {
        if let Some(value) = value {
            extra.insert(key.to_owned(), Value::String(value));
        }
    }
    let extra = (!extra.is_empty()).then_some(extra);
    UserDetail { full_name: user.full_name, role: user.role, custom_role: user.custom_role, extra }
}

/// The ids of a `refer_list`: strings, or objects with a string `message_id`.
pub fn references(list: Vec<Value>) -> Result<Vec<String>, String> {
    list.into_iter()
        .map(|entry| match entry {
            Value::String(id) => Ok(id),
            Value::Object(mut reference) => match reference.remove("message_id") {
                Some(Value::String(id)) => Ok(id),
                _ => Err("refer_list: an object reference needs a string message_id".to_owned()),
            },
            other => Err(format!("refer_list: entries are message ids or {{message_id, …}} objects, got {other}")),
        })
        .collect()
}

/// The metadata to save (from `conversation_meta`, the file's `version` and the `scene` parameter; the
/// first message's time stands in for a missing `created_at`) and the participants' ids.
pub fn meta(
    raw: Option<Value>,
    version: Option<String>,
    scene: Option<Scene>,
    first: Option<String>,
) -> Result<(MetaInput, HashSet<String>), Problem> {
    let raw = raw.ok_or_else(|| problem("conversation_meta", "required"))?;
    let file: FileMeta = serde_json::from_value(raw).map_err(|e| problem("conversation_meta", e.to_string()))?;
    let scene = match (file.scene, scene) {
        (Some(given), Some(asked)) if given != asked => {
            return Err(problem("conversation_meta.scene", "differs from the scene parameter"))
        }
        (given, asked) => given.or(asked).ok_or_else(|| {
            problem("conversation_meta.scene", "required (\"group_chat\" or \"assistant\"), here or as ?scene=")
        })?,
    };
    if file.group_id.as_deref().is_none_or(|g| g.trim().is_empty()) {
        return Err(problem("conversation_meta.group_id", "required: the group the messages go to"));
    }
    let users: HashSet<String> = file.user_details.keys().cloned().collect();
    let input = MetaInput {
        version,
        scene: Some(scene),
        scene_desc: Some(file.scene_desc.unwrap_or_default()),
        name: file.name,
        description: file.description,
        group_id: file.group_id,
        created_at: file.created_at.or(first),
        default_timezone: file.default_timezone,
        user_details: Some(file.user_details.into_iter().map(|(id, user)| (id, detail(user))).collect()),
        tags: file.tags,
    };
    // `version` is the file's (reported on its own when missing).
    let probe = MetaInput { version: input.version.clone().or(Some("-".into())), ..input.clone() };
    probe.check(String::new(), String::new()).map_err(|e| problem("conversation_meta", e.to_string()))?;
    Ok((input, users))
}
