//! When a group's buffer closes into an episode. Hard rules need no model: a gap between consecutive
//! `createTime`s longer than `maxGapMinutes` closes the buffer before the new message; a buffer that reaches
//! `maxMessages` messages or `maxTokens` estimated tokens closes with the new message. Otherwise, with
//! `llm: true`, an LLM is asked whether the new message starts a new episode (see `engine.rs` for when).

use serde::Serialize;

use super::message::PendingMessage;
pub use crate::core::config::{BoundaryOptions, BoundarySettings};

impl BoundarySettings {
    /// True when the pause between `last` and `next` is longer than `max_gap_ms` (a message dated before the
    /// last one never closes the buffer).
    pub fn gap_between(&self, last: &PendingMessage, next: &PendingMessage) -> bool {
        next.millis() - last.millis() > self.max_gap_ms
    }

    /// Which size limit `messages` reached, if any, with tokens counted by `count` (the memory's counter).
    pub fn full(&self, messages: &[PendingMessage], count: &dyn Fn(&str) -> usize) -> Option<Cause> {
        if messages.len() >= self.max_messages {
            return Some(Cause::MaxMessages);
        }
        let tokens: usize = messages.iter().map(|m| message_tokens(m, count)).sum();
        (tokens >= self.max_tokens).then_some(Cause::MaxTokens)
    }
}

/// Tokens of a message as the prompts show it (`name: content`), by `count` (the memory's counter: an
/// injected `countTokens`, else [`estimate_tokens`](crate::core::tokens::estimate_tokens)).
pub fn message_tokens(message: &PendingMessage, count: &dyn Fn(&str) -> usize) -> usize {
    count(message.display_name()) + count(&message.content) + 1
}

/// What closed an episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Cause {
    /// A pause longer than `maxGapMinutes` before the new message.
    Gap,
    /// The buffer reached `maxMessages`.
    MaxMessages,
    /// The buffer reached `maxTokens`.
    MaxTokens,
    /// The LLM judged that the new message starts a new episode.
    Llm,
    /// `flushGroup`.
    Flush,
}

#[cfg(test)]
mod tests {
    use crate::core::tokens::estimate_tokens;

    use super::*;

    fn message(minute: i64, content: &str) -> PendingMessage {
        PendingMessage {
            message_id: format!("m{minute}"),
            create_time: crate::core::time::iso_from_millis(1_736_935_200_000 + minute * 60_000),
            sender: "alice".into(),
            sender_name: None,
            role: None,
            content: content.into(),
            refer_list: Vec::new(),
        }
    }

    #[test]
    fn a_gap_counts_only_when_longer_than_the_limit() {
        let settings = BoundarySettings::default();
        assert!(!settings.gap_between(&message(0, "a"), &message(30, "b")), "exactly 30 minutes stays");
        assert!(settings.gap_between(&message(0, "a"), &message(31, "b")));
        assert!(!settings.gap_between(&message(60, "a"), &message(0, "b")), "an earlier message joins");
    }

    #[test]
    fn size_limits_close_a_full_buffer() {
        let settings = BoundarySettings { max_messages: 3, max_tokens: 20, ..BoundarySettings::default() };
        let short: Vec<PendingMessage> = (0..2).map(|i| message(i, "hi")).collect();
        assert_eq!(settings.full(&short, &estimate_tokens), None);
        let three: Vec<PendingMessage> = (0..3).map(|i| message(i, "hi")).collect();
        assert_eq!(settings.full(&three, &estimate_tokens), Some(Cause::MaxMessages));
        assert_eq!(settings.full(&[message(0, &"word ".repeat(20))], &estimate_tokens), Some(Cause::MaxTokens));
        let generous = |_: &str| 10_000;
        assert_eq!(settings.full(&short, &generous), Some(Cause::MaxTokens), "the memory's counter decides");
        assert_eq!(
            message_tokens(&message(0, "hello world!"), &estimate_tokens),
            1 + 3 + 1,
            "alice, hello world !, the `: `"
        );
        assert_eq!(serde_json::to_value(Cause::MaxMessages).unwrap(), "maxMessages");
    }
}
