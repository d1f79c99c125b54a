//! The lifecycle part of the config: `importance: {minToStore}` and `limits: {maxMemoriesPerScope}`.

use serde::Deserialize;
use serde_json::Value;

use crate::core::config::invalid;
use crate::core::error::Result;

/// `maxMemoriesPerScope` when `limits` is given without a number (seed 001 R5).
pub const DEFAULT_MAX_MEMORIES_PER_SCOPE: usize = 500;

/// `importance` in the config.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImportanceOptions {
    /// New memories below this importance are not stored by `add()` (default 0).
    pub min_to_store: Option<f64>,
}

/// `limits` in the config.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitOptions {
    /// Most live memories per scope; `true` or `{}` means 500.
    pub max_memories_per_scope: Option<Value>,
}

/// The lifecycle settings in use.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LifecycleSettings {
    /// `add()` skips new memories below this importance (pinned ones excepted).
    pub min_to_store: f64,
    /// When set, an add that leaves a scope over this many memories deletes the least important, oldest,
    /// unpinned ones in the same transaction.
    pub max_memories_per_scope: Option<usize>,
}

impl LifecycleSettings {
    /// Reads and checks `importance` and `limits` (either may be absent).
    pub fn resolve(importance: Option<ImportanceOptions>, limits: Option<LimitOptions>) -> Result<Self> {
        let min_to_store = importance.and_then(|i| i.min_to_store).unwrap_or(0.0);
        if !(0.0..=1.0).contains(&min_to_store) {
            return Err(invalid("importance.minToStore", format!("must be between 0 and 1, got {min_to_store}")));
        }
        let max_memories_per_scope = match limits.map(|l| l.max_memories_per_scope) {
            None => None,
            Some(None | Some(Value::Bool(true))) => Some(DEFAULT_MAX_MEMORIES_PER_SCOPE),
            Some(Some(Value::Bool(false))) => None,
            Some(Some(Value::Number(n))) => match n.as_u64() {
                Some(max) if max >= 1 => Some(max as usize),
                _ => return Err(invalid("limits.maxMemoriesPerScope", format!("must be a whole number ≥ 1, got {n}"))),
            },
            Some(Some(other)) => {
                return Err(invalid("limits.maxMemoriesPerScope", format!("must be a whole number ≥ 1, got {other}")))
            }
        };
        Ok(Self { min_to_store, max_memories_per_scope })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn resolve(importance: Value, limits: Value) -> Result<LifecycleSettings> {
        LifecycleSettings::resolve(serde_json::from_value(importance).unwrap(), serde_json::from_value(limits).unwrap())
    }

    #[test]
    fn defaults_and_the_500_shorthand() {
        assert_eq!(resolve(Value::Null, Value::Null).unwrap(), LifecycleSettings::default());
        assert_eq!(resolve(Value::Null, json!({})).unwrap().max_memories_per_scope, Some(500));
        assert_eq!(
            resolve(Value::Null, json!({"maxMemoriesPerScope": true})).unwrap().max_memories_per_scope,
            Some(500)
        );
        assert_eq!(resolve(Value::Null, json!({"maxMemoriesPerScope": 3})).unwrap().max_memories_per_scope, Some(3));
        assert_eq!(resolve(json!({"minToStore": 0.3}), Value::Null).unwrap().min_to_store, 0.3);
    }

    #[test]
    fn bad_values_name_their_field() {
        for (importance, limits, field) in [
            (json!({"minToStore": 1.5}), Value::Null, "importance.minToStore"),
            (json!({"minToStore": -0.1}), Value::Null, "importance.minToStore"),
            (Value::Null, json!({"maxMemoriesPerScope": 0}), "limits.maxMemoriesPerScope"),
            (Value::Null, json!({"maxMemoriesPerScope": 2.5}), "limits.maxMemoriesPerScope"),
            (Value::Null, json!({"maxMemoriesPerScope": "many"}), "limits.maxMemoriesPerScope"),
        ] {
            let error = resolve(importance, limits).unwrap_err();
            assert!(error.to_string().contains(field), "{error}");
        }
    }
}
