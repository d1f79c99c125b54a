//! The options of the lifecycle calls as callers give them (camelCase, snake_case scope aliases, unknown
//! keys refused).

use serde::Deserialize;

use super::decay::DecayOptions;
use super::write::LifecycleInput;
use crate::core::model::scope::Scope;
use crate::core::model::types::Metadata;
use crate::core::model::MemoryType;

/// `store(key, value, options)`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreOptions {
    #[serde(alias = "user_id")]
    pub user_id: Option<String>,
    #[serde(alias = "agent_id")]
    pub agent_id: Option<String>,
    #[serde(alias = "run_id")]
    pub run_id: Option<String>,
    /// Milliseconds until it expires (0: never).
    pub ttl: Option<f64>,
    #[serde(alias = "expires_at")]
    pub expires_at: Option<String>,
    /// A precomputed vector, used as is (its length must match the stored vectors).
    pub embedding: Option<Vec<f32>>,
    pub metadata: Option<Metadata>,
    #[serde(alias = "memory_type")]
    pub memory_type: Option<MemoryType>,
    pub pinned: Option<bool>,
    pub importance: Option<f64>,
}

impl StoreOptions {
    /// The scope named (checked by the call).
    pub fn scope(&self) -> Scope {
        Scope::of(&self.user_id, &self.agent_id, &self.run_id)
    }

    /// The lifecycle options, to be checked at the engine's "now".
    pub fn lifecycle(&self) -> LifecycleInput {
        LifecycleInput {
            memory_type: self.memory_type,
            ttl: self.ttl,
            expires_at: self.expires_at.clone(),
            pinned: self.pinned,
            importance: self.importance,
        }
    }
}

/// `delete(id, {soft})`.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteOptions {
    /// Mark the memory deleted (restorable with `restore`) instead of removing it.
    pub soft: Option<bool>,
}

/// `share({from, to, pattern})`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareOptions {
    pub from: Scope,
    pub to: Scope,
    /// A key glob (`*`, `?`).
    pub pattern: String,
}

/// `decay({…scope, halfLifeDays, forgetBelow, memoryTypes})`; an empty scope decays every memory held (of the
/// types that decay).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DecayRequest {
    #[serde(alias = "user_id")]
    pub user_id: Option<String>,
    #[serde(alias = "agent_id")]
    pub agent_id: Option<String>,
    #[serde(alias = "run_id")]
    pub run_id: Option<String>,
    pub half_life_days: Option<f64>,
    pub forget_below: Option<f64>,
    #[serde(alias = "memory_types")]
    pub memory_types: Option<Vec<crate::core::model::MemoryType>>,
}

impl DecayRequest {
    /// The scope named (empty: everything).
    pub fn scope(&self) -> Scope {
        Scope::of(&self.user_id, &self.agent_id, &self.run_id)
    }

    /// The decay parameters, not yet checked.
    pub fn options(&self) -> DecayOptions {
        DecayOptions {
            half_life_days: self.half_life_days,
            forget_below: self.forget_below,
            memory_types: self.memory_types.clone(),
        }
    }
}
