//! The `nearDuplicate` setting: the cosine similarity from which an extracted fact counts as a memory the
//! scope already holds, and is dropped without an LLM call.

use serde::Deserialize;

use super::invalid;
use crate::core::error::Result;

/// The default threshold: paraphrases that differ in a word or two score above it with common embedders,
/// different facts on the same topic ("lives in Paris" / "lives in Berlin") below.
pub const DEFAULT_NEAR_DUPLICATE: f32 = 0.95;

/// `nearDuplicate` as given: a threshold in (0, 1], `true` (the default one) or `false` (off).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NearDuplicate {
    Threshold(f64),
    Enabled(bool),
}

impl<'de> Deserialize<'de> for NearDuplicate {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::Bool(on) => Ok(Self::Enabled(on)),
            serde_json::Value::Number(n) => n.as_f64().map(Self::Threshold).ok_or_else(|| serde::de::Error::custom(n)),
            other => Err(serde::de::Error::custom(format!("a number in (0, 1] or a boolean, got {other}"))),
        }
    }
}

/// What the additive pipeline drops besides exact (md5) duplicates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdditiveSettings {
    /// Facts at least this similar to a live memory of the scope (or to an earlier fact of the same
    /// `add()`) are dropped; `None`: only exact duplicates are.
    pub near_duplicate: Option<f32>,
}

impl Default for AdditiveSettings {
    fn default() -> Self {
        Self { near_duplicate: Some(DEFAULT_NEAR_DUPLICATE) }
    }
}

impl AdditiveSettings {
    /// The settings of `nearDuplicate`; `INVALID_CONFIG` for a threshold outside (0, 1].
    pub fn resolve(given: Option<NearDuplicate>) -> Result<Self> {
        let near_duplicate = match given {
            None | Some(NearDuplicate::Enabled(true)) => Some(DEFAULT_NEAR_DUPLICATE),
            Some(NearDuplicate::Enabled(false)) => None,
            Some(NearDuplicate::Threshold(t)) if t > 0.0 && t <= 1.0 => Some(t as f32),
            Some(NearDuplicate::Threshold(t)) => {
                return Err(invalid("nearDuplicate", format!("must be in (0, 1] or false, got {t}")))
            }
        };
        Ok(Self { near_duplicate })
    }
}
