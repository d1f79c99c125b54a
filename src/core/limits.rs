//! The library's input limits (README "Security and limits"). Each is enforced where the input is read,
//! with `INVALID_INPUT` naming the limit; nothing is stored when one is exceeded.

use super::error::{MemoryError, Result};
use super::prompt_fence::cuts_a_line;

/// Most bytes (UTF-8) of one message's content in `add()`.
pub const MAX_MESSAGE_BYTES: usize = 100 * 1024;
/// Most messages one `add()` takes (the background writer splits longer batches).
pub const MAX_MESSAGES_PER_ADD: usize = 500;
/// Most bytes of one line of an `importMemories` text (one memory with its vector, or one history record).
pub const MAX_IMPORT_LINE_BYTES: usize = 1024 * 1024;
/// Most memories one `importMemories` call writes.
pub const MAX_IMPORT_MEMORIES: usize = 100_000;
/// Most characters of a message's `role` (one word: letters, digits, `_`, `-`).
pub const MAX_ROLE_CHARS: usize = 64;
/// Deepest nesting of `AND` / `OR` / `NOT` in a filter.
pub const MAX_FILTER_DEPTH: usize = 32;
/// Most conditions and `AND` / `OR` / `NOT` nodes in one filter.
pub const MAX_FILTER_NODES: usize = 1_000;
/// Most characters of a `userId`, `agentId` or `runId`.
pub const MAX_ID_CHARS: usize = 128;

/// Deepest nesting of arrays and objects in a value an app passes in (options, metadata, messages).
pub const MAX_VALUE_DEPTH: usize = 64;
/// Most values (scalars, arrays and objects) in one argument an app passes in.
pub const MAX_VALUE_NODES: usize = 1_000_000;

/// `INVALID_INPUT` naming `name` when `id` holds a character no id or key may hold: one that cuts a line
/// ([`cuts_a_line`]: control characters and line separators). Ids end up in storage keys, logs, exports and
/// prompts, where such characters cut lines or hide text.
pub fn check_id_chars(name: &str, id: &str) -> Result<()> {
    match id.chars().find(|&c| cuts_a_line(c)) {
        Some(c) => Err(MemoryError::InvalidInput(format!(
            "{name} must not contain control characters or line separators (found U+{:04X})",
            c as u32
        ))),
        None => Ok(()),
    }
}

/// A memory id as a caller gives it: not blank, without control characters or line separators.
pub fn memory_id(id: &str) -> Result<&str> {
    if id.trim().is_empty() {
        return Err(MemoryError::InvalidInput("memoryId must be a non-empty string".into()));
    }
    check_id_chars("memoryId", id)?;
    Ok(id)
}

/// `INVALID_INPUT` saying which limit `what` went over.
pub fn exceeded(what: &str, limit: usize, unit: &str) -> MemoryError {
    MemoryError::InvalidInput(format!("{what} exceeds the limit of {limit} {unit}"))
}

/// Checks the messages of one `add()`.
pub fn check_messages(contents: &[&str]) -> Result<()> {
    if contents.len() > MAX_MESSAGES_PER_ADD {
        return Err(exceeded(&format!("an add() of {} messages", contents.len()), MAX_MESSAGES_PER_ADD, "messages"));
    }
    match contents.iter().position(|content| content.len() > MAX_MESSAGE_BYTES) {
        Some(index) => Err(exceeded(&format!("messages[{index}]"), MAX_MESSAGE_BYTES, "bytes")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_within_the_limits_pass_and_others_name_the_limit() {
        let big = "x".repeat(MAX_MESSAGE_BYTES + 1);
        assert!(check_messages(&["hi"; MAX_MESSAGES_PER_ADD]).is_ok());
        let many = check_messages(&["hi"; MAX_MESSAGES_PER_ADD + 1]).unwrap_err();
        assert_eq!(many.code(), "INVALID_INPUT");
        assert!(many.to_string().contains("500 messages"), "{many}");
        let long = check_messages(&["ok", &big]).unwrap_err().to_string();
        assert!(long.contains("messages[1]") && long.contains("102400 bytes"), "{long}");
        assert!(check_messages(&["x".repeat(MAX_MESSAGE_BYTES).as_str()]).is_ok());
    }

    #[test]
    fn ids_refuse_category_cc_and_line_separators_only() {
        for c in ('\u{0}'..='\u{1f}').chain('\u{7f}'..='\u{9f}').chain(['\u{2028}', '\u{2029}']) {
            let error = check_id_chars("userId", &format!("a{c}b")).unwrap_err();
            assert_eq!(error.code(), "INVALID_INPUT");
            assert!(error.to_string().contains(&format!("U+{:04X}", c as u32)), "{error}");
        }
        for ok in ["Zoë", "用户", "🙂", "a-b_c.d:e/f", "\u{a0}x", "\u{200d}", "\u{fffd}"] {
            assert!(check_id_chars("userId", ok).is_ok(), "{ok:?}");
        }
        assert_eq!(memory_id("m-1").unwrap(), "m-1");
        assert!(memory_id(" ").unwrap_err().to_string().contains("memoryId"));
        assert!(memory_id("m\u{0}").unwrap_err().to_string().contains("memoryId"));
    }
}

#[cfg(test)]
#[path = "id_chars_tests.rs"]
mod id_chars_tests;
