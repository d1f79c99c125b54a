//! `{provider: "openai", config: {…}}` for the LLM and the embedder.

use serde::Deserialize;

use super::chat::OpenAiChatSettings;
use super::embedding::OpenAiEmbedderSettings;
use crate::core::config::{invalid, non_empty};
use crate::core::error::Result;
use crate::providers::shared::fields::top_p;
use crate::providers::shared::keys::Env;
use crate::providers::shared::keys::{api_key, is_default, KeyNeed};

const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

/// `llm.config` for OpenAI and OpenAI-compatible hosts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenAiLlmOptions {
    pub model: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    pub temperature: Option<f64>,
    #[serde(alias = "max_tokens")]
    pub max_tokens: Option<u32>,
    /// Nucleus sampling, sent as `top_p` (mem0 writes `topP` or `top_p`).
    #[serde(alias = "top_p")]
    pub top_p: Option<f64>,
    pub json_mode: Option<bool>,
}

/// `embedder.config` for OpenAI and OpenAI-compatible hosts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenAiEmbedderOptions {
    pub model: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    /// `embeddingDims` is mem0's name for it.
    #[serde(alias = "embeddingDims", alias = "embedding_dims")]
    pub dimensions: Option<u32>,
}

/// An http(s) base URL: the given one, else `OPENAI_BASE_URL` from the environment, else OpenAI's.
pub(crate) fn base_url(field: &str, value: Option<String>, env: Env) -> Result<String> {
    let url = value.or_else(|| env("OPENAI_BASE_URL")).unwrap_or_else(|| OPENAI_BASE_URL.to_owned());
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(invalid(field, format!("must be an http(s) URL, got \"{url}\"")));
    }
    Ok(url)
}

/// OpenAI's own API needs `OPENAI_API_KEY`.
fn need(section: &str) -> KeyNeed<'_> {
    KeyNeed { section, provider: "openai", env_var: Some("OPENAI_API_KEY"), url_field: "baseUrl" }
}

impl OpenAiLlmOptions {
    /// Fills defaults (`gpt-4o-mini`, temperature 0, 2000 tokens, JSON mode) and validates.
    pub fn resolve(self, env: Env) -> Result<OpenAiChatSettings> {
        let temperature = self.temperature.unwrap_or(0.0);
        if !(0.0..=2.0).contains(&temperature) {
            return Err(invalid("llm.config.temperature", "must be between 0 and 2"));
        }
        if self.max_tokens == Some(0) {
            return Err(invalid("llm.config.maxTokens", "must be at least 1"));
        }
        let key = self.api_key.or_else(|| env("OPENAI_API_KEY"));
        let mut settings = OpenAiChatSettings {
            model: non_empty("llm.config.model", self.model, "gpt-4o-mini")?,
            api_key: None,
            base_url: base_url("llm.config.baseUrl", self.base_url, env)?,
            temperature,
            max_tokens: self.max_tokens.unwrap_or(2000),
            top_p: top_p("llm.config.topP", self.top_p)?,
            json_mode: self.json_mode.unwrap_or(true),
        };
        settings.api_key = api_key(need("llm"), key, is_default(&settings.base_url, OPENAI_BASE_URL))?;
        Ok(settings)
    }
}

impl OpenAiEmbedderOptions {
    /// Fills defaults (`text-embedding-3-small`) and validates.
    pub fn resolve(self, env: Env) -> Result<OpenAiEmbedderSettings> {
        if let Some(dimensions) = self.dimensions.filter(|d| !(1..=65_536).contains(d)) {
            return Err(invalid(
                "embedder.config.dimensions",
                format!("must be between 1 and 65536, got {dimensions}"),
            ));
        }
        let key = self.api_key.or_else(|| env("OPENAI_API_KEY"));
        let mut settings = OpenAiEmbedderSettings {
            model: non_empty("embedder.config.model", self.model, "text-embedding-3-small")?,
            api_key: None,
            base_url: base_url("embedder.config.baseUrl", self.base_url, env)?,
            dimensions: self.dimensions.map(|d| d as usize),
            send_dimensions: true,
        };
        settings.api_key = api_key(need("embedder"), key, is_default(&settings.base_url, OPENAI_BASE_URL))?;
        Ok(settings)
    }
}
