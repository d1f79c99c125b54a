//! The `boundary` config: when `addMessage` closes a group's buffer into an episode (a pause longer than
//! `maxGapMinutes`, `maxMessages` messages, `maxTokens` estimated tokens, or the LLM's judgement).

use serde::Deserialize;

use super::invalid;
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
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
}
