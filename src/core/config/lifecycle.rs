//! The lifecycle part of the config: `importance: {minToStore}` and `limits: {maxFacts, maxMemoriesPerScope}`.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::core::config::invalid;
use crate::core::error::Result;

/// `maxMemoriesPerScope` when `limits` is given without a number.
pub const DEFAULT_MAX_MEMORIES_PER_SCOPE: usize = 500;

/// Facts a scope keeps unless `limits.maxFacts` says otherwise.
pub const DEFAULT_MAX_FACTS: usize = 500;

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
    /// Most facts per scope (see `core::lifecycle::facts::is_fact`): absent or `true` means 500, `null` or `false` none.
    #[serde(default, deserialize_with = "present")]
    pub max_facts: Option<Value>,
}

/// A field that is present, `null` included (`Option<Value>` alone reads `null` as absent).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// The lifecycle settings in use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LifecycleSettings {
    /// `add()` skips new memories below this importance (pinned ones excepted).
    pub min_to_store: f64,
    /// When set, an add that leaves a scope over this many memories deletes the least important, oldest,
    /// unpinned ones in the same transaction.
    pub max_memories_per_scope: Option<usize>,
    /// When set, a write that adds a fact and leaves its scope over this many facts deletes the least
    /// important, oldest, unpinned facts in the same transaction (500 unless configured).
    pub max_facts: Option<usize>,
}

impl Default for LifecycleSettings {
    fn default() -> Self {
        Self { min_to_store: 0.0, max_memories_per_scope: None, max_facts: Some(DEFAULT_MAX_FACTS) }
    }
}

impl LifecycleSettings {
    /// Reads and checks `importance` and `limits` (either may be absent).
    pub fn resolve(importance: Option<ImportanceOptions>, limits: Option<LimitOptions>) -> Result<Self> {
        let min_to_store = importance.and_then(|i| i.min_to_store).unwrap_or(0.0);
        if !(0.0..=1.0).contains(&min_to_store) {
            return Err(invalid("importance.minToStore", format!("must be between 0 and 1, got {min_to_store}")));
        }
        let (max_memories_per_scope, facts) = match limits {
            None => (None, None),
            // `limits: {}` alone still means 500 memories per scope, as before `maxFacts` existed.
            Some(LimitOptions { max_memories_per_scope: None, max_facts: Some(facts) }) => (None, Some(facts)),
            Some(limits) => {
                let given = limits.max_memories_per_scope.filter(|v| !v.is_null());
                (limit("limits.maxMemoriesPerScope", given, DEFAULT_MAX_MEMORIES_PER_SCOPE)?, limits.max_facts)
            }
        };
        let max_facts = limit("limits.maxFacts", facts, DEFAULT_MAX_FACTS)?;
        Ok(Self { min_to_store, max_memories_per_scope, max_facts })
    }
}

/// One limit: absent or `true` is `default`, `null` or `false` no limit, else a whole number ≥ 1.
fn limit(field: &str, given: Option<Value>, default: usize) -> Result<Option<usize>> {
    match given {
        None | Some(Value::Bool(true)) => Ok(Some(default)),
        Some(Value::Null | Value::Bool(false)) => Ok(None),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|max| max >= 1) => Ok(n.as_u64().map(|max| max as usize)),
        Some(other) => Err(invalid(field, format!("must be a whole number ≥ 1, or null for no limit, got {other}"))),
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
    fn facts_are_limited_to_500_unless_null_or_false() {
        assert_eq!(resolve(Value::Null, Value::Null).unwrap().max_facts, Some(500));
        assert_eq!(LifecycleSettings::default().max_facts, Some(500));
        assert_eq!(resolve(Value::Null, json!({})).unwrap().max_facts, Some(500));
        assert_eq!(resolve(Value::Null, json!({"maxFacts": true})).unwrap().max_facts, Some(500));
        assert_eq!(resolve(Value::Null, json!({"maxFacts": 7})).unwrap().max_facts, Some(7));
        assert_eq!(resolve(Value::Null, json!({"maxFacts": null})).unwrap().max_facts, None);
        assert_eq!(resolve(Value::Null, json!({"maxFacts": false})).unwrap().max_facts, None);
        let only_facts = resolve(Value::Null, json!({"maxFacts": 7})).unwrap();
        assert_eq!(only_facts.max_memories_per_scope, None, "maxFacts alone sets no limit on all memories");
        let both = resolve(Value::Null, json!({"maxFacts": null, "maxMemoriesPerScope": 9})).unwrap();
        assert_eq!((both.max_facts, both.max_memories_per_scope), (None, Some(9)));
    }

    #[test]
    fn bad_values_name_their_field() {
        for (importance, limits, field) in [
            (json!({"minToStore": 1.5}), Value::Null, "importance.minToStore"),
            (json!({"minToStore": -0.1}), Value::Null, "importance.minToStore"),
            (Value::Null, json!({"maxMemoriesPerScope": 0}), "limits.maxMemoriesPerScope"),
            (Value::Null, json!({"maxMemoriesPerScope": 2.5}), "limits.maxMemoriesPerScope"),
            (Value::Null, json!({"maxMemoriesPerScope": "many"}), "limits.maxMemoriesPerScope"),
            (Value::Null, json!({"maxFacts": 0}), "limits.maxFacts"),
            (Value::Null, json!({"maxFacts": -1}), "limits.maxFacts"),
            (Value::Null, json!({"maxFacts": "9"}), "limits.maxFacts"),
        ] {
            let error = resolve(importance, limits).unwrap_err();
            assert!(error.to_string().contains(field), "{error}");
        }
    }
}
