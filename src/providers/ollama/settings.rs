//! `{provider: "ollama", config: {…}}` for the LLM and the embedder. mem0 names the server `url`.

use serde::Deserialize;

use super::chat::OllamaChatSettings;
use super::embedding::OllamaEmbedderSettings;
use crate::core::config::non_empty;
use crate::core::error::Result;
use crate::providers::shared::fields::{dimensions, max_tokens, temperature, top_k, top_p, url_or_base};
use crate::providers::shared::keys::Env;

const OLLAMA_BASE_URL: &str = "http://localhost:11434";

/// `llm.config` for Ollama.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OllamaLlmOptions {
    pub model: Option<String>,
    /// mem0's name for `baseUrl`.
    pub url: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    /// Bearer token, for Ollama behind an authenticating proxy.
    pub api_key: Option<String>,
    pub temperature: Option<f64>,
    #[serde(alias = "max_tokens")]
    pub max_tokens: Option<u32>,
    #[serde(alias = "top_p")]
    pub top_p: Option<f64>,
    #[serde(alias = "top_k")]
    pub top_k: Option<u32>,
    /// `format: "json"` for JSON replies. Default true.
    pub json_mode: Option<bool>,
}

/// `embedder.config` for Ollama.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OllamaEmbedderOptions {
    pub model: Option<String>,
    pub url: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "embeddingDims", alias = "embedding_dims")]
    pub dimensions: Option<u32>,
}

impl OllamaLlmOptions {
    /// Fills defaults (`llama3.1` at `http://localhost:11434`) and validates; `env` is unused (as every
    /// provider's options, these resolve with it).
    pub fn resolve(self, _env: Env) -> Result<OllamaChatSettings> {
        Ok(OllamaChatSettings {
            model: non_empty("llm.config.model", self.model, "llama3.1")?,
            base_url: url_or_base("llm", self.url, self.base_url, OLLAMA_BASE_URL)?,
            api_key: self.api_key,
            temperature: temperature("llm.config.temperature", self.temperature, 2.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            top_p: top_p("llm.config.topP", self.top_p)?,
            top_k: top_k("llm.config.topK", self.top_k)?,
            json_mode: self.json_mode.unwrap_or(true),
        })
    }
}

impl OllamaEmbedderOptions {
    /// Fills defaults (`nomic-embed-text`) and validates.
    pub fn resolve(self, _env: Env) -> Result<OllamaEmbedderSettings> {
        Ok(OllamaEmbedderSettings {
            model: non_empty("embedder.config.model", self.model, "nomic-embed-text")?,
            base_url: url_or_base("embedder", self.url, self.base_url, OLLAMA_BASE_URL)?,
            api_key: self.api_key,
            dimensions: dimensions("embedder.config.dimensions", self.dimensions)?,
        })
    }
}
