//! The config's one owner: its whole shape ([`MemoryConfig`]), the engine's settings it resolves to (prompts,
//! index, storage, lifecycle, boundary, background writer, pipeline), and the helpers every config reader
//! shares: `{provider, config}` parts and errors that name the offending field. Which models to call is the
//! providers' business (`crate::providers::config`).

mod additive;
mod background;
mod boundary;
mod cloudflare_kv;
mod env_vars;
mod indexeddb;
mod lifecycle;
mod mem0;
mod memory_config;
mod sqlite;
mod unknown_keys;
mod vector_store;

pub use additive::{AdditiveSettings, NearDuplicate, DEFAULT_NEAR_DUPLICATE};
pub use background::{BackgroundOptions, BackgroundSettings};
pub use boundary::{BoundaryOptions, BoundarySettings};
pub use cloudflare_kv::{kv_prefix, KvOptions, DEFAULT_KV_PREFIX};
pub use env_vars::{var_flag, var_number, var_text, var_whole_number, Env};
pub use indexeddb::{indexeddb_settings, IndexedDbOptions, IndexedDbSettings};
pub use lifecycle::{ImportanceOptions, LifecycleSettings, LimitOptions};
pub use memory_config::{EngineSettings, GraphOptions, MemoryConfig, RetryOptions, StorageChoice};
pub use sqlite::{sqlite_settings, SqliteSettings, SQLITE_DRIVERS};
pub use unknown_keys::{ignored, read_leniently, UnknownKeys};
pub use vector_store::{vector_store_settings, MemoryVectorStoreOptions, VectorStoreSettings};

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use super::error::{MemoryError, Result};
use super::prompts::{FACT_EXTRACTION_PROMPT, UPDATE_MEMORY_PROMPT};

/// `{provider, config}`; `config` is read by the chosen provider.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    pub provider: String,
    #[serde(default)]
    pub config: Option<Value>,
    /// `embedder: {provider: "custom", embed, dimensions}`: the length of the callback's vectors.
    #[serde(default)]
    pub dimensions: Option<u32>,
}

/// `customPrompts`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomPrompts {
    pub fact_extraction: Option<String>,
    pub update_decision: Option<String>,
}

/// The system prompts in use.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompts {
    pub fact_extraction: String,
    pub update_decision: String,
}

impl Default for Prompts {
    /// The built-in prompts.
    fn default() -> Self {
        Self { fact_extraction: FACT_EXTRACTION_PROMPT.to_owned(), update_decision: UPDATE_MEMORY_PROMPT.to_owned() }
    }
}

impl CustomPrompts {
    /// The prompts in use: each custom one (never blank), else the built-in one.
    pub fn resolve(self) -> Result<Prompts> {
        Ok(Prompts {
            fact_extraction: non_empty("customPrompts.factExtraction", self.fact_extraction, FACT_EXTRACTION_PROMPT)?,
            update_decision: non_empty("customPrompts.updateDecision", self.update_decision, UPDATE_MEMORY_PROMPT)?,
        })
    }
}

/// `INVALID_CONFIG` naming `field`.
pub fn invalid(field: &str, why: impl std::fmt::Display) -> MemoryError {
    MemoryError::InvalidConfig(format!("{field}: {why}"))
}

/// `INVALID_CONFIG` for a provider name nobody implements, listing the ones that exist.
pub fn unknown_provider(field: &str, provider: &str, supported: &[&str]) -> MemoryError {
    invalid(field, format!("unknown provider \"{provider}\" (supported: {})", supported.join(", ")))
}

/// `value` unless it is blank (an error), else `default`.
pub fn non_empty(field: &str, value: Option<String>, default: &str) -> Result<String> {
    match value {
        Some(text) if text.trim().is_empty() => Err(invalid(field, "must not be empty")),
        Some(text) => Ok(text),
        None => Ok(default.to_owned()),
    }
}

/// Reads a provider's `config` object as `T`, with errors prefixed by `field` (e.g. `llm.config`).
pub fn provider_options<T: DeserializeOwned + Default>(config: &Option<Value>, field: &str) -> Result<T> {
    match config {
        None | Some(Value::Null) => Ok(T::default()),
        Some(value) => super::value_de::from_value_path(value).map_err(|failed| options_error(field, failed)),
    }
}

/// The error of a provider's `config` that did not read, at `field` and the path below it. Not generic:
/// one copy for every options type.
#[cold]
#[inline(never)]
fn options_error(field: &str, (path, error): (String, serde_json::Error)) -> MemoryError {
    let field = if path == "." { field.to_owned() } else { format!("{field}.{path}") };
    invalid(&field, error)
}

#[cfg(test)]
#[path = "config_keys_tests.rs"]
mod config_keys_tests;
