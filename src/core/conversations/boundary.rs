//! When a group's buffer closes into an episode. Hard rules need no model: a gap between consecutive
//! `createTime`s longer than `maxGapMinutes` closes the buffer before the new message; a buffer that reaches
//! `maxMessages` messages or `maxTokens` estimated tokens closes with the new message. Otherwise, with
//! `llm: true`, an LLM is asked whether the new message starts a new episode (see `engine.rs` for when).

use serde::{Deserialize, Serialize};

use super::message::PendingMessage;
use crate::core::config::invalid;
use crate::core::error::Result;

/// Default longest pause inside an episode, in minutes.
pub const DEFAULT_MAX_GAP_MINUTES: f64 = 30.0;
/// Default most messages per episode.
pub const DEFAULT_MAX_MESSAGES: usize = 50;
/// Default most estimated tokens per episode: what one extraction prompt comfortably holds with room
/// for its instructions and reply in an 16k-token context.
pub const DEFAULT_MAX_TOKENS: usize = 8000;

/// `boundary` in the config.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoundaryOptions {
    pub max_gap_minutes: Option<f64>,
    pub max_messages: Option<f64>,
    pub max_tokens: Option<f64>,
    /// Ask the LLM too (default true; never without an LLM).
    pub llm: Option<bool>,
}

/// The boundary rules in use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundarySettings {
    /// A longer gap between consecutive messages closes the buffer before the later one.
    pub max_gap_ms: i64,
    pub max_messages: usize,
    pub max_tokens: usize,
    pub llm: bool,
}

impl Default for BoundarySettings {
    fn default() -> Self {
        Self {
            max_gap_ms: (DEFAULT_MAX_GAP_MINUTES * 60_000.0) as i64,
            max_messages: DEFAULT_MAX_MESSAGES,
            max_tokens: DEFAULT_MAX_TOKENS,
            llm: true,
        }
    }
}

/// A whole number ≥ 1 at `field`.
fn whole(field: &str, value: Option<f64>, default: usize) -> Result<usize> {
    match value {
        None => Ok(default),
        Some(n) if n.is_finite() && n >= 1.0 && n.fract() == 0.0 => Ok(n as usize),
        Some(n) => Err(invalid(field, format!("must be a whole number ≥ 1, got {n}"))),
    }
}

impl BoundarySettings {
    /// Reads and checks `boundary` (absent: the defaults).
    pub fn resolve(options: Option<BoundaryOptions>) -> Result<Self> {
        let options = options.unwrap_or_default();
        let minutes = options.max_gap_minutes.unwrap_or(DEFAULT_MAX_GAP_MINUTES);
        if !(minutes.is_finite() && minutes > 0.0) {
            return Err(invalid("boundary.maxGapMinutes", format!("must be a positive number, got {minutes}")));
        }
        Ok(Self {
            max_gap_ms: (minutes * 60_000.0).round() as i64,
            max_messages: whole("boundary.maxMessages", options.max_messages, DEFAULT_MAX_MESSAGES)?,
            max_tokens: whole("boundary.maxTokens", options.max_tokens, DEFAULT_MAX_TOKENS)?,
            llm: options.llm.unwrap_or(true),
        })
    }

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
    use serde_json::json;

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

    fn resolve(value: serde_json::Value) -> Result<BoundarySettings> {
        BoundarySettings::resolve(Some(serde_json::from_value(value).unwrap()))
    }

    #[test]
    fn defaults_and_checked_values() {
        let settings = BoundarySettings::resolve(None).unwrap();
        assert_eq!(settings, BoundarySettings::default());
        assert_eq!((settings.max_gap_ms, settings.max_messages, settings.max_tokens), (1_800_000, 50, 8000));
        let custom = resolve(json!({"maxGapMinutes": 0.5, "maxMessages": 3, "maxTokens": 100, "llm": false})).unwrap();
        assert_eq!(custom, BoundarySettings { max_gap_ms: 30_000, max_messages: 3, max_tokens: 100, llm: false });
        for (bad, field) in [
            (json!({"maxGapMinutes": 0}), "boundary.maxGapMinutes"),
            (json!({"maxGapMinutes": -5}), "boundary.maxGapMinutes"),
            (json!({"maxMessages": 0}), "boundary.maxMessages"),
            (json!({"maxMessages": 2.5}), "boundary.maxMessages"),
            (json!({"maxTokens": -1}), "boundary.maxTokens"),
        ] {
            let error = resolve(bad).unwrap_err();
            assert_eq!(error.code(), "INVALID_CONFIG");
            assert!(error.to_string().contains(field), "{error}");
        }
        assert!(serde_json::from_value::<BoundaryOptions>(json!({"maxGap": 5})).is_err());
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
