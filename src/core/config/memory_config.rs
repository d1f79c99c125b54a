//! `new Memory(config)`: the whole config shape (mem0's configuration in camelCase), read once here for the
//! library, the JS bindings and the REST service alike (whose vars `env_vars` maps onto it). This module
//! resolves the engine's settings; `crate::providers::config` picks the models, fills `retry`'s defaults
//! (their transport's) and completes the [`MemoryConfig`].

use serde::Deserialize;
use serde_json::Value;

use super::UnknownKeys;
use super::{invalid, mem0, vector_store_settings, CustomPrompts, Prompts, ProviderConfig, VectorStoreSettings};
use super::{AdditiveSettings, BackgroundOptions, BackgroundSettings, BoundaryOptions, BoundarySettings};
use super::{ImportanceOptions, LifecycleSettings, LimitOptions, NearDuplicate};
use crate::core::add_pipeline::Pipeline;
use crate::core::error::Result;

/// The whole config object; every part is optional. Unknown keys are rejected (typos would otherwise
/// pass silently) unless `unknownKeys: "warn"`; mem0 OSS's keys are accepted with their mem0 meaning (see `mem0`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemoryConfig {
    pub llm: Option<ProviderConfig>,
    pub embedder: Option<ProviderConfig>,
    pub vector_store: Option<ProviderConfig>,
    pub storage: Option<ProviderConfig>,
    pub custom_prompts: Option<CustomPrompts>,
    pub retry: Option<RetryOptions>,
    /// Graph memory (`{enabled: true}`); off by default.
    pub graph: Option<GraphOptions>,
    /// `{minToStore}`: new memories below this importance are not stored.
    pub importance: Option<ImportanceOptions>,
    /// `{maxFacts, maxMemoriesPerScope}`: trim a scope back to this many facts (500 by default) or memories.
    pub limits: Option<LimitOptions>,
    /// `{maxGapMinutes, maxMessages, maxTokens, llm}`: when `addMessage` closes a group's buffer.
    pub boundary: Option<BoundaryOptions>,
    /// `{debounceMs, concurrency}`: the background writer behind `flush()`.
    pub background: Option<BackgroundOptions>,
    /// `"fast"` (the default), `"exact"` or `"additive"`: how an inferring `add()` makes memories.
    pub pipeline: Option<Pipeline>,
    /// The additive pipeline's near-duplicate threshold: a number in (0, 1], `true` or `false`.
    pub near_duplicate: Option<NearDuplicate>,
    /// `true`: a call that would resolve with `warnings` rejects with the first one's code instead.
    pub strict: Option<bool>,
    /// mem0's config keys, read by `mem0`: `version`, `historyDbPath` and `historyStore` (its SQLite
    /// history; not applicable here), `disableHistory`, `customPrompt`, `customInstructions`,
    /// `enableGraph`, `graphStore`.
    pub version: Option<Value>,
    pub history_db_path: Option<Value>,
    pub history_store: Option<Value>,
    pub disable_history: Option<bool>,
    pub custom_prompt: Option<String>,
    pub custom_instructions: Option<String>,
    pub enable_graph: Option<bool>,
    pub graph_store: Option<Value>,
    /// mem0's `reranker: {provider, config}`, read by `crate::providers::rerank`.
    pub reranker: Option<ProviderConfig>,
    /// What an unknown key does: `INVALID_CONFIG` (the default) or a startup warning (see `unknown_keys`).
    pub unknown_keys: Option<UnknownKeys>,
}

/// `retry`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetryOptions {
    pub max_retries: Option<u32>,
    pub base_delay_ms: Option<u32>,
    pub max_delay_ms: Option<u32>,
}

/// `graph: {enabled}`; off by default.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphOptions {
    #[serde(default)]
    pub enabled: bool,
}

/// Where memories persist: the provider name and its raw options, which the platform layer reads
/// (storages are platform-specific: IndexedDB in browsers, KV in Workers).
#[derive(Debug, Clone, PartialEq)]
pub struct StorageChoice {
    pub provider: String,
    pub options: Option<Value>,
}

/// Everything of the config but the models, with every default filled in and every value checked.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineSettings {
    pub storage: StorageChoice,
    /// The in-RAM search index (`vectorStore`).
    pub vector_store: VectorStoreSettings,
    pub prompts: Prompts,
    /// `graph.enabled`.
    pub graph_enabled: bool,
    /// `importance` and `limits`.
    pub lifecycle: LifecycleSettings,
    /// `boundary`: message-by-message memory's boundary rules.
    pub boundary: BoundarySettings,
    /// `background` and `retry`: the background writer's debounce, concurrency and retries.
    pub background: BackgroundSettings,
    /// False with mem0's `disableHistory`.
    pub keep_history: bool,
    /// `pipeline`.
    pub pipeline: Pipeline,
    /// `nearDuplicate`.
    pub additive: AdditiveSettings,
    /// `strict`: results with warnings reject (the JS layer applies it), and so do startup warnings.
    pub strict: bool,
}

impl MemoryConfig {
    /// Reads a config object, with errors that name the field (`llm.config.model: invalid type: …`).
    pub fn from_json(config: &Value) -> Result<Self> {
        crate::core::value_de::from_value_path(config)
            .map_err(|(path, error)| invalid(if path == "." { "config" } else { &path }, error))
    }

    /// Fills the defaults of everything but the models (`llm`, `embedder`, and `retry`, their transport's)
    /// and checks it: in-memory storage and index, the built-in prompts. `remote_index`: the index settings
    /// when a remote vector store (read by its provider) holds the vectors; else `vectorStore` names the
    /// in-RAM index. `retry`: the resolved retry policy's (max retries, base delay, max delay), checked here
    /// (at most 10 retries) and followed by the background writer too.
    pub fn resolve_engine(
        self,
        remote_index: Option<VectorStoreSettings>,
        retry: (u32, u32, u32),
    ) -> Result<EngineSettings> {
        for (part, field) in [(&self.vector_store, "vectorStore.dimensions"), (&self.storage, "storage.dimensions")] {
            if part.as_ref().is_some_and(|part| part.dimensions.is_some()) {
                return Err(invalid(field, "unknown field"));
            }
        }
        let vector_store = match remote_index {
            Some(index) => index,
            None => vector_store_settings(self.vector_store.as_ref())?,
        };
        let storage = mem0::namespaced(
            self.storage.unwrap_or_else(|| ProviderConfig { provider: "memory".into(), ..ProviderConfig::default() }),
            vector_store.collection_name.as_deref(),
        );
        let prompts =
            mem0::prompts(self.custom_prompts.unwrap_or_default(), self.custom_prompt, self.custom_instructions)?;
        let graph_enabled = mem0::graph_enabled(self.graph, self.enable_graph)?;
        if retry.0 > 10 {
            return Err(invalid("retry.maxRetries", "must be at most 10"));
        }
        Ok(EngineSettings {
            storage: StorageChoice { provider: storage.provider, options: storage.config },
            vector_store,
            prompts,
            graph_enabled,
            lifecycle: LifecycleSettings::resolve(self.importance, self.limits)?,
            boundary: BoundarySettings::resolve(self.boundary)?,
            background: BackgroundSettings::resolve(self.background, retry)?,
            keep_history: !self.disable_history.unwrap_or(false),
            pipeline: self.pipeline.unwrap_or_default(),
            additive: AdditiveSettings::resolve(self.near_duplicate)?,
            strict: self.strict.unwrap_or(false),
        })
    }
}
