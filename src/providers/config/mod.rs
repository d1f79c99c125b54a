//! The models of `new Memory(config)`: picks the LLM and the embedder (and a remote vector store) by
//! `provider` and reads each one's options, then completes the config, whose shape and engine settings
//! `core::config` owns. Each provider's options live in a module of their own; `choice` picks one by `provider`.

mod choice;
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
/// The provider table, which `providers/any.rs` reads for the models' constructors.
pub(crate) use choice::model_table;
pub use choice::{EmbedderChoice, LlmChoice};
/// The provider table and the names outside it, for the TypeScript names test.
#[cfg(test)]
pub(crate) use choice::{BARE, LOCAL, TABLE};
pub(crate) use timeout::take_bounds;
pub use timeout::{DEFAULT_EMBEDDER_TIMEOUT_MS, DEFAULT_LLM_TIMEOUT_MS};

pub use crate::core::config::{invalid, non_empty, provider_options, unknown_provider, ProviderConfig};
pub use crate::core::config::{EngineSettings, MemoryConfig, RetryOptions, StorageChoice};

use serde_json::Value;

use crate::core::config::{read_leniently, UnknownKeys, VectorStoreSettings};
use crate::core::error::Result;
use crate::http::{HostWatch, RetryPolicy};
use crate::providers::chroma::{chroma_settings, ChromaSettings};

/// A config with every default filled in and every value checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedConfig {
    pub llm: LlmChoice,
    pub embedder: EmbedderChoice,
    /// `llm.config.timeoutMs`: per request (or callback call); `None` for no limit.
    pub llm_timeout_ms: Option<u32>,
    /// `embedder.config.timeoutMs`.
    pub embedder_timeout_ms: Option<u32>,
    /// `llm.config.connectTimeoutMs` and `coolDownMs`: how an HTTP LLM's requests watch its host.
    pub llm_watch: HostWatch,
    /// `embedder.config.connectTimeoutMs` and `coolDownMs`.
    pub embedder_watch: HostWatch,
    /// `retry`: of every model (and Chroma) request, and of the background writer's batches.
    pub retry: RetryPolicy,
    /// `vectorStore: {provider: "chroma"}`: vectors and vector search move to this Chroma collection.
    pub remote_vectors: Option<ChromaSettings>,
    /// `reranker`: what `search(…, {rerank: true})` reranks with.
    pub reranker: Option<crate::providers::rerank::RerankerChoice>,
    /// Everything else: storage, index, prompts, lifecycle, boundary, background writer, pipeline.
    pub engine: EngineSettings,
    /// Startup warnings, each naming what the config holds that is not used: keys taken out under
    /// `unknownKeys: "warn"`, and a reranker it cannot run.
    pub warnings: Vec<String>,
}

fn openai_default() -> ProviderConfig {
    ProviderConfig { provider: "openai".into(), ..ProviderConfig::default() }
}

impl MemoryConfig {
    /// Reads and resolves a JSON config (see `resolve`), under its `unknownKeys` (unknown keys taken out and
    /// warned of, or refused). With `strict: true` a startup warning is `INVALID_CONFIG` instead.
    pub fn read(config: Value, env: Env) -> Result<ResolvedConfig> {
        let (mut resolved, mut warnings) = read_leniently(config, |config| Self::from_json(config)?.resolve(env))?;
        warnings.append(&mut resolved.warnings);
        if let (true, Some(first)) = (resolved.engine.strict, warnings.first()) {
            return Err(invalid("strict", format!("{first}; strict: true makes a startup warning an error")));
        }
        resolved.warnings = warnings;
        Ok(resolved)
    }

    /// Fills defaults (OpenAI `gpt-4o-mini` and `text-embedding-3-small`, in-memory store) and validates.
    /// `env` supplies `OPENAI_API_KEY` / `OPENAI_BASE_URL` fallbacks where the platform has them.
    pub fn resolve(mut self, env: Env) -> Result<ResolvedConfig> {
        let mut llm = self.llm.take().unwrap_or_else(openai_default);
        let mut embedder = self.embedder.take().unwrap_or_else(openai_default);
        let llm_bounds = timeout::take_bounds(&mut llm, "llm", DEFAULT_LLM_TIMEOUT_MS)?;
        let embedder_bounds = timeout::take_bounds(&mut embedder, "embedder", DEFAULT_EMBEDDER_TIMEOUT_MS)?;
        let (llm, embedder) = (choice::llm_choice(llm, env)?, choice::embedder_choice(embedder, env)?);
        let remote_vectors = match self.vector_store.as_ref() {
            Some(store) if store.provider == "chroma" => Some(chroma_settings(store)?),
            _ => None,
        };
        let remote_index = remote_vectors
            .as_ref()
            .map(|chroma| VectorStoreSettings { dimension: chroma.dimension, ..VectorStoreSettings::default() });
        let retry = retry_policy(self.retry.take().unwrap_or_default());
        let has_llm = llm != LlmChoice::None;
        let mut warnings = Vec::new();
        let lenient = (self.unknown_keys == Some(UnknownKeys::Warn)).then_some(&mut warnings);
        let reranker = match self.reranker.take() {
            Some(part) => crate::providers::rerank::reranker_choice(part, env, has_llm, lenient)?,
            None => None,
        };
        let engine = self.resolve_engine(remote_index, (retry.max_retries, retry.base_delay_ms, retry.max_delay_ms))?;
        Ok(ResolvedConfig {
            llm,
            embedder,
            llm_timeout_ms: llm_bounds.timeout_ms,
            embedder_timeout_ms: embedder_bounds.timeout_ms,
            llm_watch: llm_bounds.watch,
            embedder_watch: embedder_bounds.watch,
            retry,
            remote_vectors,
            reranker,
            engine,
            warnings,
        })
    }
}

/// `retry` over the default policy (its bounds are checked with the engine's settings).
fn retry_policy(options: RetryOptions) -> RetryPolicy {
    let defaults = RetryPolicy::default();
    RetryPolicy {
        max_retries: options.max_retries.unwrap_or(defaults.max_retries),
        base_delay_ms: options.base_delay_ms.unwrap_or(defaults.base_delay_ms),
        max_delay_ms: options.max_delay_ms.unwrap_or(defaults.max_delay_ms),
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;

#[cfg(test)]
#[path = "mem0_tests.rs"]
mod mem0_tests;

#[cfg(test)]
#[path = "option_keys_tests.rs"]
mod option_keys_tests;
