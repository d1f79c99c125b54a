//! The options of the lifecycle calls as callers give them (camelCase, snake_case scope aliases, unknown
//! keys refused).

use serde::Deserialize;

use super::decay::DecayOptions;
use super::write::LifecycleInput;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::{ScopeFields, ScopeForm};
use crate::core::model::scope_fields_de::scoped_options;
use crate::core::model::types::Metadata;
use crate::core::model::MemoryType;

/// `store(key, value, options)`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreOptions {
    /// `userId`, `agentId`, `runId` (snake_case too).
    #[serde(skip)]
    pub scope: ScopeFields,
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
scoped_options!(StoreOptions, ScopeForm::Plain);

impl StoreOptions {
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
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
pub struct DecayRequest {
    /// `userId`, `agentId`, `runId` (snake_case too).
    #[serde(skip)]
    pub scope: ScopeFields,
    pub half_life_days: Option<f64>,
    pub forget_below: Option<f64>,
    #[serde(alias = "memory_types")]
    pub memory_types: Option<Vec<crate::core::model::MemoryType>>,
}
scoped_options!(DecayRequest, ScopeForm::Plain);

impl DecayRequest {
    /// The decay parameters, not yet checked.
    pub fn options(&self) -> DecayOptions {
        DecayOptions {
            half_life_days: self.half_life_days,
            forget_below: self.forget_below,
            memory_types: self.memory_types.clone(),
        }
    }
}
