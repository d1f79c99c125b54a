//! Checks a GroupChatFormat body (see `batch_format`) into a `Plan`, collecting every problem.

use std::collections::HashSet;

use memwasm::core::conversations::{MessageInput, Scene};
use serde_json::Value;

use super::batch_format::{meta, problem, references, FileMessage, Plan, Problem, MAX_BATCH_MESSAGES};

/// Message `index` of the list, bound to `group` (id, name): the library's own checks, plus: a text
/// message, an id not seen earlier in the file, a sender listed in `user_details` (when it lists any).
fn message(
    index: usize,
    raw: Value,
    group: (&str, Option<&str>),
    users: &HashSet<String>,
    seen: &mut HashSet<String>,
) -> Result<MessageInput, Problem> {
    let path = format!("conversation_list[{index}]");
    let id = raw.get("message_id").and_then(Value::as_str).map(str::to_owned);
    let fail = |message: String| Problem { path: path.clone(), message_id: id.clone(), message };
    let file: FileMessage = serde_json::from_value(raw).map_err(|e| fail(e.to_string()))?;
    if file.kind.as_deref().is_some_and(|kind| kind != "text") {
        return Err(fail(format!("type {:?}: only text messages can be stored", file.kind.unwrap_or_default())));
    }
    let refer_list = references(file.refer_list.unwrap_or_default()).map_err(fail)?;
    let sender = file.sender.clone().unwrap_or_default();
    if !users.is_empty() && !users.contains(&sender) {
        return Err(fail(format!("sender {sender:?} is not in conversation_meta.user_details")));
    }
    let input = MessageInput {
        message_id: file.message_id,
        create_time: file.create_time,
        sender: file.sender,
        content: file.content,
        group_id: Some(group.0.to_owned()),
        group_name: group.1.map(str::to_owned),
        sender_name: file.sender_name,
        role: file.role,
        refer_list: Some(refer_list),
    };
    let (_, checked) = input.clone().check().map_err(|e| fail(e.to_string()))?;
    if !seen.insert(checked.message_id.clone()) {
        return Err(fail(format!("message_id {:?} appears earlier in the list", checked.message_id)));
    }
    Ok(input)
}

/// Reads and checks a GroupChatFormat body; every problem when it does not validate.
pub fn validate(body: &[u8], scene: Option<Scene>) -> Result<Plan, Vec<Problem>> {
    let parsed = serde_json::from_slice(body).map_err(|e| vec![problem("", format!("malformed JSON: {e}"))])?;
    let Value::Object(mut file) = parsed else {
        return Err(vec![problem("", "the body must be a GroupChatFormat object")]);
    };
    let mut problems: Vec<Problem> = file
        .keys()
        .filter(|key| !["version", "conversation_meta", "conversation_list"].contains(&key.as_str()))
        .map(|key| problem(key.as_str(), "unknown field (version, conversation_meta, conversation_list)"))
        .collect();
    let version = match file.remove("version") {
        Some(Value::String(version)) if !version.trim().is_empty() => Some(version),
        _ => {
            problems.push(problem("version", "required: a non-empty string (\"1.0.0\")"));
            None
        }
    };
    let list = match file.remove("conversation_list") {
        Some(Value::Array(list)) if !list.is_empty() && list.len() <= MAX_BATCH_MESSAGES => list,
        _ => {
            let why = format!("required: a list of 1 to {MAX_BATCH_MESSAGES} messages");
            problems.push(problem("conversation_list", why));
            return Err(problems);
        }
    };
    let first = list[0].get("create_time").and_then(Value::as_str).map(str::to_owned);
    let (meta, users) = match meta(file.remove("conversation_meta"), version, scene, first) {
        Ok((meta, users)) => (Some(meta), users),
        Err(why) => {
            problems.push(why);
            (None, HashSet::new())
        }
    };
    let group_id = meta.as_ref().and_then(|m| m.group_id.clone()).unwrap_or_else(|| "unknown".to_owned());
    let group = (group_id.as_str(), meta.as_ref().and_then(|m| m.name.as_deref()));
    let mut seen = HashSet::new();
    let mut messages = Vec::new();
    for (index, raw) in list.into_iter().enumerate() {
        match message(index, raw, group, &users, &mut seen) {
            Ok(input) => messages.push(input),
            Err(why) => problems.push(why),
        }
    }
    match meta {
        Some(meta) if problems.is_empty() => Ok(Plan { group_id: group_id.trim().to_owned(), meta, messages }),
        _ => Err(problems),
    }
}
