//! The optional fields of an `add()` message that say where it came from (`id`, `conversationId`,
//! `createdAt`, snake_case aliases too, and who said it, `name`), and the `idempotencyKey` option: checked
//! here, kept as the sources of the memories the add writes (`provenance`) and, for `name`, as the `actor_id`
//! of the memories a message stored as it was said becomes.

use serde_json::Value;

use super::error::{MemoryError, Result};
use super::model::types::Message;

/// The metadata key that holds who said a message stored as it was said (its `name`), as mem0 names it.
pub const ACTOR_KEY: &str = "actor_id";
/// The longest message id or conversation id kept, in characters.
pub const MAX_SOURCE_ID_CHARS: usize = 256;
/// The longest `idempotencyKey`, in characters.
pub const MAX_IDEMPOTENCY_KEY_CHARS: usize = 512;

/// `message` with the origin fields of `item` (the `index`th message), checked: `INVALID_INPUT` names the
/// field (`messages[2].createdAt`). `null` is the same as leaving a field out.
pub fn with_origin(index: usize, item: &Value, mut message: Message) -> Result<Message> {
    message.id = id_field(index, item, &["id"])?;
    message.conversation_id = id_field(index, item, &["conversationId", "conversation_id"])?;
    message.created_at = match text_field(index, item, &["createdAt", "created_at"])? {
        None => None,
        Some((name, time)) => {
            let time = time.trim();
            if crate::core::retrieval::window::time_or_day(time).is_none() {
                let why = format!(
                    "messages[{index}].{name} must be an ISO 8601 time with a time zone or a date YYYY-MM-DD, got \
                     {time:?}"
                );
                return Err(MemoryError::InvalidInput(why));
            }
            Some(time.to_owned())
        }
    };
    message.name = name_field(index, item)?;
    Ok(message)
}

/// The `name` field: one line of at most `MAX_SOURCE_ID_CHARS` characters, not blank, kept trimmed.
fn name_field(index: usize, item: &Value) -> Result<Option<String>> {
    let Some((_, name)) = text_field(index, item, &["name"])? else { return Ok(None) };
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_SOURCE_ID_CHARS || name.chars().any(char::is_control) {
        let why = format!(
            "messages[{index}].name must be a non-blank line of at most {MAX_SOURCE_ID_CHARS} characters (who said it)"
        );
        return Err(MemoryError::InvalidInput(why));
    }
    Ok(Some(name.to_owned()))
}

/// An id field: a non-blank string of at most `MAX_SOURCE_ID_CHARS` characters.
fn id_field(index: usize, item: &Value, names: &[&'static str]) -> Result<Option<String>> {
    let Some((name, text)) = text_field(index, item, names)? else { return Ok(None) };
    if text.trim().is_empty() || text.chars().count() > MAX_SOURCE_ID_CHARS {
        let why =
            format!("messages[{index}].{name} must be a non-blank string of at most {MAX_SOURCE_ID_CHARS} characters");
        return Err(MemoryError::InvalidInput(why));
    }
    Ok(Some(text.to_owned()))
}

/// The first of `names` that `item` holds (not null), which must be a string: (its name, its text).
fn text_field<'a>(index: usize, item: &'a Value, names: &[&'static str]) -> Result<Option<(&'static str, &'a str)>> {
    for name in names {
        match item.get(*name) {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => return Ok(Some((name, text))),
            Some(_) => return Err(MemoryError::InvalidInput(format!("messages[{index}].{name} must be a string"))),
        }
    }
    Ok(None)
}

/// `idempotencyKey` checked: not blank, at most `MAX_IDEMPOTENCY_KEY_CHARS` characters.
pub fn idempotency_key(key: Option<&str>) -> Result<Option<&str>> {
    match key {
        None => Ok(None),
        Some(key) if !key.trim().is_empty() && key.chars().count() <= MAX_IDEMPOTENCY_KEY_CHARS => Ok(Some(key)),
        Some(_) => Err(MemoryError::InvalidInput(format!(
            "idempotencyKey must be a non-blank string of at most {MAX_IDEMPOTENCY_KEY_CHARS} characters"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::core::pipeline_options::parse_messages;

    #[test]
    fn origin_fields_are_kept_with_their_snake_case_aliases() {
        let parsed = parse_messages(&json!([
            {"role": "user", "content": "a", "id": "m1", "conversationId": "c1", "createdAt": "2024-05-01T10:00:00Z"},
            {"role": "user", "content": "b", "conversation_id": "c2", "created_at": "2024-05-02", "id": null},
            {"role": "user", "content": "c"}
        ]))
        .unwrap();
        assert_eq!(parsed[0].id.as_deref(), Some("m1"));
        assert_eq!(parsed[0].conversation_id.as_deref(), Some("c1"));
        assert_eq!(parsed[0].created_at.as_deref(), Some("2024-05-01T10:00:00Z"));
        assert_eq!((parsed[1].id.as_deref(), parsed[1].conversation_id.as_deref()), (None, Some("c2")));
        assert_eq!(parsed[2], crate::core::model::types::Message::new("user", "c"));
    }

    #[test]
    fn wrong_origin_fields_are_coded_errors_naming_the_field() {
        for (message, field) in [
            (json!({"role": "user", "content": "x", "id": 7}), "messages[0].id"),
            (json!({"role": "user", "content": "x", "id": " "}), "messages[0].id"),
            (json!({"role": "user", "content": "x", "id": "i".repeat(257)}), "messages[0].id"),
            (json!({"role": "user", "content": "x", "conversationId": {}}), "messages[0].conversationId"),
            (json!({"role": "user", "content": "x", "conversation_id": false}), "messages[0].conversation_id"),
            (json!({"role": "user", "content": "x", "createdAt": "yesterday"}), "messages[0].createdAt"),
            (json!({"role": "user", "content": "x", "created_at": 1714557600}), "messages[0].created_at"),
        ] {
            let error = parse_messages(&json!([message])).unwrap_err();
            assert_eq!(error.code(), "INVALID_INPUT");
            assert!(error.to_string().contains(field), "{error} names {field}");
        }
    }

    #[test]
    fn idempotency_keys_are_checked() {
        assert_eq!(super::idempotency_key(Some("k")).unwrap(), Some("k"));
        assert_eq!(super::idempotency_key(None).unwrap(), None);
        assert!(super::idempotency_key(Some(" ")).is_err());
        assert!(super::idempotency_key(Some(&"k".repeat(513))).is_err());
    }
}
