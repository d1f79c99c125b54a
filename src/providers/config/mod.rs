//! `new Memory(config)`: the whole JS config shape (mem0's configuration in camelCase), defaults, and validation
//! that names the offending field. Each provider's options live in a module of their own; `choice` picks
//! one by `provider`. The engine's own parts (prompts, index, storage options) are read by `core::config`.

mod choice;
mod mem0;
mod timeout;

pub use crate::providers::anthropic::AnthropicOptions;
pub use crate::providers::azure_openai::{AzureEmbedderOptions, AzureLlmOptions};
pub use crate::providers::gemini::{GeminiEmbedderOptions, GeminiLlmOptions};
pub use crate::providers::ollama::{OllamaEmbedderOptions, OllamaLlmOptions};
pub use crate::providers::openai::{find_host, Host, OpenAiEmbedderOptions, OpenAiLlmOptions, HOSTS};
pub use crate::providers::shared::keys::Env;
pub use crate::providers::workers_ai::{
    WorkersAiEmbedderOptions, WorkersAiEmbedderSettings, WorkersAiLlmOptions, WorkersAiLlmSettings,
};
pub use choice::{EmbedderChoice, LlmChoice};
pub use timeout::{DEFAULT_EMBEDDER_TIMEOUT_MS, DEFAULT_LLM_TIMEOUT_MS};

use serde::Deserialize;
use serde_json::Value;

use crate::core::add_pipeline::Pipeline;
pub use crate::core::config::{invalid, non_empty, provider_options, unknown_provider, ProviderConfig};
use crate::core::config::{vector_store_settings, CustomPrompts, Prompts, VectorStoreSettings};
use crate::core::conversations::{BoundaryOptions, BoundarySettings};
use crate::core::error::Result;
use crate::core::lifecycle::settings::{ImportanceOptions, LimitOptions};
use crate::core::lifecycle::LifecycleSettings;
use crate::http::RetryPolicy;

/// The whole config object; every part is optional. Unknown keys are rejected (typos would otherwise
/// pass silently); mem0 OSS's keys are accepted with their mem0 meaning (see `mem0`).
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
    pub graph: Option<crate::core::graph::GraphOptions>,
    /// `{minToStore}`: new memories below this importance are not stored.
    pub importance: Option<ImportanceOptions>,
    /// `{maxFacts, maxMemoriesPerScope}`: trim a scope back to this many facts (500 by default) or memories.
    pub limits: Option<LimitOptions>,
    /// `{maxGapMinutes, maxMessages, maxTokens, llm}`: when `addMessage` closes a group's buffer.
    pub boundary: Option<BoundaryOptions>,
    /// `{debounceMs, concurrency}`: the background writer behind `flush()`.
    pub background: Option<crate::core::tiers::BackgroundOptions>,
    /// `"fast"` (the default), `"exact"` or `"additive"`: how an inferring `add()` makes memories.
    pub pipeline: Option<Pipeline>,
    /// The additive pipeline's near-duplicate threshold: a number in (0, 1], `true` or `false`.
    pub near_duplicate: Option<crate::core::additive::NearDuplicate>,
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
}

/// `retry`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetryOptions {
    pub max_retries: Option<u32>,
    pub base_delay_ms: Option<u32>,
    pub max_delay_ms: Option<u32>,
}

/// Where memories persist: the provider name and its raw options, which the platform layer reads
/// (storages are platform-specific: IndexedDB in browsers, KV in Workers).
#[derive(Debug, Clone, PartialEq)]
pub struct StorageChoice {
    pub provider: String,
    pub options: Option<Value>,
}

/// A config with every default filled in and every value checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedConfig {
    pub llm: LlmChoice,
    pub embedder: EmbedderChoice,
    /// `llm.config.timeoutMs`: per request (or callback call); `None` for no limit.
    pub llm_timeout_ms: Option<u32>,
    /// `embedder.config.timeoutMs`.
    pub embedder_timeout_ms: Option<u32>,
    pub storage: StorageChoice,
    /// The in-RAM search index (`vectorStore`).
    pub vector_store: VectorStoreSettings,
    /// `vectorStore: {provider: "chroma"}`: vectors and vector search move to this Chroma collection.
    pub remote_vectors: Option<crate::providers::chroma::ChromaSettings>,
    pub retry: RetryPolicy,
    pub prompts: Prompts,
    /// `graph.enabled`.
    pub graph_enabled: bool,
    /// `importance` and `limits`.
    pub lifecycle: LifecycleSettings,
    /// `boundary`: message-by-message memory's boundary rules.
    pub boundary: BoundarySettings,
    /// `background` and `retry`: the background writer's debounce, concurrency and retries.
    pub background: crate::core::tiers::BackgroundSettings,
    /// False with mem0's `disableHistory`.
    pub keep_history: bool,
    /// `pipeline`.
    pub pipeline: Pipeline,
    /// `nearDuplicate`.
    pub additive: crate::core::additive::AdditiveSettings,
    /// `strict`: results with warnings reject (the JS layer applies it).
    pub strict: bool,
}

fn openai_default() -> ProviderConfig {
    ProviderConfig { provider: "openai".into(), ..ProviderConfig::default() }
}

impl MemoryConfig {
    /// Fills defaults (OpenAI `gpt-4o-mini` and `text-embedding-3-small`, in-memory store) and validates.
    /// `env` supplies `OPENAI_API_KEY` / `OPENAI_BASE_URL` fallbacks where the platform has them.
    pub fn resolve(self, env: Env) -> Result<ResolvedConfig> {
        let (mut llm, mut embedder) =
            (self.llm.unwrap_or_else(openai_default), self.embedder.unwrap_or_else(openai_default));
        let llm_timeout_ms = timeout::take_timeout(&mut llm, "llm", DEFAULT_LLM_TIMEOUT_MS)?;
        let embedder_timeout_ms = timeout::take_timeout(&mut embedder, "embedder", DEFAULT_EMBEDDER_TIMEOUT_MS)?;
        let (llm, embedder) = (choice::llm_choice(llm, env)?, choice::embedder_choice(embedder, env)?);
        for (part, field) in [(&self.vector_store, "vectorStore.dimensions"), (&self.storage, "storage.dimensions")] {
            if part.as_ref().is_some_and(|part| part.dimensions.is_some()) {
                return Err(invalid(field, "unknown field"));
            }
        }
        let (vector_store, remote_vectors) = match self.vector_store.as_ref() {
            Some(store) if store.provider == "chroma" => {
                let chroma = crate::providers::chroma::chroma_settings(store)?;
                (VectorStoreSettings { dimension: chroma.dimension, ..VectorStoreSettings::default() }, Some(chroma))
            }
            store => (vector_store_settings(store)?, None),
        };
        let storage = mem0::namespaced(
            self.storage.unwrap_or_else(|| ProviderConfig { provider: "memory".into(), ..ProviderConfig::default() }),
            vector_store.collection_name.as_deref(),
        );
        let prompts =
            mem0::prompts(self.custom_prompts.unwrap_or_default(), self.custom_prompt, self.custom_instructions)?;
        let graph_enabled = mem0::graph_enabled(self.graph, self.enable_graph)?;
        let retry_options = self.retry.unwrap_or_default();
        let defaults = RetryPolicy::default();
        let retry = RetryPolicy {
            max_retries: retry_options.max_retries.unwrap_or(defaults.max_retries),
            base_delay_ms: retry_options.base_delay_ms.unwrap_or(defaults.base_delay_ms),
            max_delay_ms: retry_options.max_delay_ms.unwrap_or(defaults.max_delay_ms),
        };
        if retry.max_retries > 10 {
            return Err(invalid("retry.maxRetries", "must be at most 10"));
        }
        Ok(ResolvedConfig {
            llm,
            embedder,
            llm_timeout_ms,
            embedder_timeout_ms,
            storage: StorageChoice { provider: storage.provider, options: storage.config },
            vector_store,
            remote_vectors,
            retry,
            graph_enabled,
            prompts,
            lifecycle: LifecycleSettings::resolve(self.importance, self.limits)?,
            boundary: BoundarySettings::resolve(self.boundary)?,
            background: crate::core::tiers::BackgroundSettings::resolve(
                self.background,
                (retry.max_retries, retry.base_delay_ms, retry.max_delay_ms),
            )?,
            keep_history: !self.disable_history.unwrap_or(false),
            pipeline: self.pipeline.unwrap_or_default(),
            additive: crate::core::additive::AdditiveSettings::resolve(self.near_duplicate)?,
            strict: self.strict.unwrap_or(false),
        })
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
