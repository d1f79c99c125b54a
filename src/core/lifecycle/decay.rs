//! Importance decay: each unpinned memory's importance falls by half
//! every `halfLifeDays` since it was last accessed (or written), and memories that fall below
//! `forgetBelow` are forgotten. Conversation memories (episodes, profiles, foresight, event logs) decay only
//! when a call names their types in `memoryTypes`.

use serde::Deserialize;

use crate::core::error::{MemoryError, Result};
use crate::core::model::MemoryType;

/// Default half-life, in days.
pub const DEFAULT_HALF_LIFE_DAYS: f64 = 30.0;
/// Default importance below which a decayed memory is deleted.
pub const DEFAULT_FORGET_BELOW: f64 = 0.2;

const DAY_MS: f64 = 86_400_000.0;

/// `importance · 0.5^(elapsed days / half_life_days)`, rounded to 4 decimals; no decay for a non-positive
/// elapsed time.
pub fn decayed(importance: f64, elapsed_ms: i64, half_life_days: f64) -> f64 {
    let days = (elapsed_ms.max(0) as f64) / DAY_MS;
    super::importance::round4(importance * 0.5f64.powf(days / half_life_days))
}

/// The types a decay takes when none are named: facts, preferences and working notes. Conversation
/// memories are the record of what was said, and are never forgotten by a decay that did not ask for them.
pub const DECAYING_TYPES: [MemoryType; 3] = [MemoryType::Semantic, MemoryType::Procedural, MemoryType::Working];

/// `decay()`'s parameters, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct DecayPlan {
    pub half_life_days: f64,
    pub forget_below: f64,
    /// The memory types that decay.
    pub memory_types: Vec<MemoryType>,
    /// Only memories with a key (the agent key/value entries) decay.
    pub keyed_only: bool,
}

impl Default for DecayPlan {
    fn default() -> Self {
        Self {
            half_life_days: DEFAULT_HALF_LIFE_DAYS,
            forget_below: DEFAULT_FORGET_BELOW,
            memory_types: DECAYING_TYPES.to_vec(),
            keyed_only: false,
        }
    }
}

impl DecayPlan {
    /// True when this decay takes a memory of `kind`, with or without a key.
    pub fn takes(&self, kind: MemoryType, keyed: bool) -> bool {
        self.memory_types.contains(&kind) && (keyed || !self.keyed_only)
    }
}

/// `decay({halfLifeDays, forgetBelow, memoryTypes})` as given (the scope is read separately).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecayOptions {
    pub half_life_days: Option<f64>,
    pub forget_below: Option<f64>,
    #[serde(alias = "memory_types")]
    pub memory_types: Option<Vec<MemoryType>>,
}

impl DecayOptions {
    /// A positive finite half-life and a threshold in [0, 1].
    pub fn plan(self) -> Result<DecayPlan> {
        let half_life_days = self.half_life_days.unwrap_or(DEFAULT_HALF_LIFE_DAYS);
        if !(half_life_days.is_finite() && half_life_days > 0.0) {
            return Err(MemoryError::InvalidInput(format!(
                "halfLifeDays must be a positive number, got {half_life_days}"
            )));
        }
        let forget_below = self.forget_below.unwrap_or(DEFAULT_FORGET_BELOW);
        if !(0.0..=1.0).contains(&forget_below) {
            return Err(MemoryError::InvalidInput(format!("forgetBelow must be between 0 and 1, got {forget_below}")));
        }
        let memory_types = self.memory_types.unwrap_or_else(|| DECAYING_TYPES.to_vec());
        if memory_types.is_empty() {
            return Err(MemoryError::InvalidInput("memoryTypes must name at least one memory type".into()));
        }
        Ok(DecayPlan { half_life_days, forget_below, memory_types, keyed_only: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;

    #[test]
    fn halves_every_half_life() {
        assert!((decayed(0.8, 30 * DAY, 30.0) - 0.4).abs() < 1e-12);
        assert!((decayed(0.8, 60 * DAY, 30.0) - 0.2).abs() < 1e-12);
        assert_eq!(decayed(0.8, 15 * DAY, 30.0), 0.5657, "0.8 · √½ = 0.565685…, to 4 decimals");
        assert_eq!(decayed(0.8, 0, 30.0), 0.8);
        assert_eq!(decayed(0.8, -DAY, 30.0), 0.8, "a clock going back never raises importance");
    }

    #[test]
    fn options_default_and_are_checked() {
        let plan = DecayOptions::default().plan().unwrap();
        assert_eq!((plan.half_life_days, plan.forget_below), (30.0, 0.2));
        for bad in [
            DecayOptions { half_life_days: Some(0.0), ..Default::default() },
            DecayOptions { half_life_days: Some(f64::NAN), ..Default::default() },
            DecayOptions { forget_below: Some(1.5), ..Default::default() },
            DecayOptions { forget_below: Some(-0.1), ..Default::default() },
        ] {
            assert_eq!(bad.plan().unwrap_err().code(), "INVALID_INPUT");
        }
    }
}
