//! `new Memory(config)`: the JS config shape (seed 000 §8 in camelCase), defaults, and validation
//! that names the offending field.

use serde::Deserialize;
use serde_json::Value;

use super::error::{MemoryError, Result};
use super::prompts::{FACT_EXTRACTION_PROMPT, UPDATE_MEMORY_PROMPT};
use crate::http::RetryPolicy;
use crate::providers::{OpenAiChatSettings, OpenAiEmbedderSettings};

const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

/// The whole config object; every part is optional. Unknown keys are rejected (typos would otherwise
/// pass silently), except mem0's `version` and `historyDbPath`, which are accepted and ignored.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemoryConfig {
    pub llm: Option<ProviderConfig<LlmOptions>>,
    pub embedder: Option<ProviderConfig<EmbedderOptions>>,
    pub vector_store: Option<ProviderConfig<Option<Value>>>,
    pub custom_prompts: Option<CustomPrompts>,
    pub retry: Option<RetryOptions>,
    /// mem0 compatibility; ignored.
    pub version: Option<Value>,
    /// mem0 compatibility (its SQLite path); ignored.
    pub history_db_path: Option<Value>,
}

/// `{provider, config}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig<T> {
    pub provider: String,
    #[serde(default)]
    pub config: T,
}

/// `llm.config`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LlmOptions {
    pub model: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub json_mode: Option<bool>,
}

/// `embedder.config`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmbedderOptions {
    pub model: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    pub dimensions: Option<u32>,
}

/// `customPrompts`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomPrompts {
    pub fact_extraction: Option<String>,
    pub update_decision: Option<String>,
}

/// `retry`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetryOptions {
    pub max_retries: Option<u32>,
    pub base_delay_ms: Option<u32>,
    pub max_delay_ms: Option<u32>,
}

/// The system prompts in use.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompts {
    pub fact_extraction: String,
    pub update_decision: String,
}

/// A config with every default filled in and every value checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedConfig {
    pub llm: OpenAiChatSettings,
    pub embedder: OpenAiEmbedderSettings,
    pub retry: RetryPolicy,
    pub prompts: Prompts,
}

fn invalid(field: &str, why: impl std::fmt::Display) -> MemoryError {
    MemoryError::InvalidConfig(format!("{field}: {why}"))
}

fn check_provider(field: &str, provider: &str, supported: &[&str]) -> Result<()> {
    if supported.contains(&provider) {
        return Ok(());
    }
    Err(invalid(field, format!("unknown provider \"{provider}\" (supported: {})", supported.join(", "))))
}

fn non_empty(field: &str, value: Option<String>, default: &str) -> Result<String> {
    match value {
        Some(text) if text.trim().is_empty() => Err(invalid(field, "must not be empty")),
        Some(text) => Ok(text),
        None => Ok(default.to_owned()),
    }
}

fn base_url(field: &str, value: Option<String>, env: &dyn Fn(&str) -> Option<String>) -> Result<String> {
    let url = value.or_else(|| env("OPENAI_BASE_URL")).unwrap_or_else(|| OPENAI_BASE_URL.to_owned());
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(invalid(field, format!("must be an http(s) URL, got \"{url}\"")));
    }
    Ok(url)
}

impl MemoryConfig {
    /// Fills defaults (OpenAI `gpt-4o-mini` and `text-embedding-3-small`, in-memory store) and validates.
    /// `env` supplies `OPENAI_API_KEY` / `OPENAI_BASE_URL` fallbacks where the platform has them.
    pub fn resolve(self, env: &dyn Fn(&str) -> Option<String>) -> Result<ResolvedConfig> {
        let llm =
            self.llm.unwrap_or_else(|| ProviderConfig { provider: "openai".into(), config: LlmOptions::default() });
        check_provider("llm.provider", &llm.provider, &["openai"])?;
        let embedder = self
            .embedder
            .unwrap_or_else(|| ProviderConfig { provider: "openai".into(), config: EmbedderOptions::default() });
        check_provider("embedder.provider", &embedder.provider, &["openai"])?;
        if let Some(store) = &self.vector_store {
            check_provider("vectorStore.provider", &store.provider, &["memory"])?;
        }
        let (l, e) = (llm.config, embedder.config);
        let temperature = l.temperature.unwrap_or(0.0);
        if !(0.0..=2.0).contains(&temperature) {
            return Err(invalid("llm.config.temperature", "must be between 0 and 2"));
        }
        if l.max_tokens == Some(0) {
            return Err(invalid("llm.config.maxTokens", "must be at least 1"));
        }
        if let Some(dimensions) = e.dimensions.filter(|d| !(1..=65_536).contains(d)) {
            return Err(invalid(
                "embedder.config.dimensions",
                format!("must be between 1 and 65536, got {dimensions}"),
            ));
        }
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
        let prompts = self.custom_prompts.unwrap_or_default();
        Ok(ResolvedConfig {
            llm: OpenAiChatSettings {
                model: non_empty("llm.config.model", l.model, "gpt-4o-mini")?,
                api_key: l.api_key.or_else(|| env("OPENAI_API_KEY")),
                base_url: base_url("llm.config.baseUrl", l.base_url, env)?,
                temperature,
                max_tokens: l.max_tokens.unwrap_or(2000),
                json_mode: l.json_mode.unwrap_or(true),
            },
            embedder: OpenAiEmbedderSettings {
                model: non_empty("embedder.config.model", e.model, "text-embedding-3-small")?,
                api_key: e.api_key.or_else(|| env("OPENAI_API_KEY")),
                base_url: base_url("embedder.config.baseUrl", e.base_url, env)?,
                dimensions: e.dimensions.map(|d| d as usize),
            },
            retry,
            prompts: Prompts {
                fact_extraction: non_empty(
                    "customPrompts.factExtraction",
                    prompts.fact_extraction,
                    FACT_EXTRACTION_PROMPT,
                )?,
                update_decision: non_empty(
                    "customPrompts.updateDecision",
                    prompts.update_decision,
                    UPDATE_MEMORY_PROMPT,
                )?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(config: Value) -> Result<ResolvedConfig> {
        serde_json::from_value::<MemoryConfig>(config).unwrap().resolve(&|_| None)
    }

    #[test]
    fn unknown_keys_are_rejected_but_mem0_extras_tolerated() {
        for config in [
            json!({"llmm": {}}),
            json!({"llm": {"provider": "openai", "config": {"apikey": "x"}}}),
            json!({"retry": {"retries": 1}}),
        ] {
            assert!(serde_json::from_value::<MemoryConfig>(config.clone()).is_err(), "{config}");
        }
        let tolerated = json!({"version": "v1.1", "historyDbPath": "memory.db", "llm": {"provider": "openai", "config": {"baseURL": "http://x"}}});
        assert!(serde_json::from_value::<MemoryConfig>(tolerated).is_ok());
    }

    #[test]
    fn empty_config_means_openai_defaults() {
        let config = resolve(json!({})).unwrap();
        assert_eq!(config.llm.model, "gpt-4o-mini");
        assert_eq!(config.llm.base_url, OPENAI_BASE_URL);
        assert_eq!((config.llm.temperature, config.llm.max_tokens, config.llm.json_mode), (0.0, 2000, true));
        assert_eq!(config.embedder.model, "text-embedding-3-small");
        assert_eq!(config.retry, RetryPolicy::default());
        assert_eq!(config.prompts.fact_extraction, FACT_EXTRACTION_PROMPT);
    }

    #[test]
    fn env_fills_key_and_base_url_but_explicit_values_win() {
        let env = |name: &str| Some(format!("env-{name}")).filter(|_| name == "OPENAI_API_KEY");
        let config = MemoryConfig::default().resolve(&env).unwrap();
        assert_eq!(config.llm.api_key.as_deref(), Some("env-OPENAI_API_KEY"));
        let explicit: MemoryConfig = serde_json::from_value(
            json!({"llm": {"provider": "openai", "config": {"apiKey": "mine", "baseURL": "http://127.0.0.1:1/v1"}}}),
        )
        .unwrap();
        let config = explicit.resolve(&env).unwrap();
        assert_eq!(config.llm.api_key.as_deref(), Some("mine"));
        assert_eq!(config.llm.base_url, "http://127.0.0.1:1/v1");
    }

    #[test]
    fn bad_values_name_their_field() {
        let cases = [
            (json!({"llm": {"provider": "nope"}}), "llm.provider"),
            (json!({"embedder": {"provider": "x"}}), "embedder.provider"),
            (json!({"vectorStore": {"provider": "qdrant"}}), "vectorStore.provider"),
            (json!({"llm": {"provider": "openai", "config": {"temperature": 3}}}), "llm.config.temperature"),
            (json!({"llm": {"provider": "openai", "config": {"model": " "}}}), "llm.config.model"),
            (json!({"llm": {"provider": "openai", "config": {"baseUrl": "ftp://x"}}}), "llm.config.baseUrl"),
            (json!({"embedder": {"provider": "openai", "config": {"dimensions": 0}}}), "embedder.config.dimensions"),
            (json!({"retry": {"maxRetries": 50}}), "retry.maxRetries"),
            (json!({"customPrompts": {"factExtraction": ""}}), "customPrompts.factExtraction"),
        ];
        for (config, field) in cases {
            let error = resolve(config.clone()).unwrap_err();
            assert_eq!(error.code(), "INVALID_CONFIG");
            assert!(error.to_string().contains(field), "{config}: {error}");
        }
    }
}
