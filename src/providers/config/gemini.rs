//! `{provider: "gemini", config: {…}}` for the LLM and the embedder (Google AI Studio keys).

use serde::Deserialize;

use super::fields::{dimensions, http_url, max_tokens, temperature};
use super::{non_empty, Env};
use crate::core::error::Result;
use crate::providers::{GeminiChatSettings, GeminiEmbedderSettings};

const GEMINI_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";

/// `GEMINI_API_KEY`, else `GOOGLE_API_KEY`.
fn env_key(env: Env) -> Option<String> {
    env("GEMINI_API_KEY").or_else(|| env("GOOGLE_API_KEY"))
}

/// `llm.config` for Gemini.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GeminiLlmOptions {
    pub model: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    /// `responseMimeType: application/json` (with a schema where known). Default true.
    pub json_mode: Option<bool>,
}

/// `embedder.config` for Gemini.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GeminiEmbedderOptions {
    pub model: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    pub dimensions: Option<u32>,
}

impl GeminiLlmOptions {
    /// Fills defaults (`gemini-2.5-flash`, JSON mode) and validates.
    pub fn resolve(self, env: Env) -> Result<GeminiChatSettings> {
        Ok(GeminiChatSettings {
            model: non_empty("llm.config.model", self.model, "gemini-2.5-flash")?,
            api_key: self.api_key.or_else(|| env_key(env)),
            base_url: http_url("llm.config.baseUrl", self.base_url, GEMINI_BASE_URL)?,
            temperature: temperature("llm.config.temperature", self.temperature, 2.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            json_mode: self.json_mode.unwrap_or(true),
        })
    }
}

impl GeminiEmbedderOptions {
    /// Fills defaults (`gemini-embedding-001`) and validates.
    pub fn resolve(self, env: Env) -> Result<GeminiEmbedderSettings> {
        Ok(GeminiEmbedderSettings {
            model: non_empty("embedder.config.model", self.model, "gemini-embedding-001")?,
            api_key: self.api_key.or_else(|| env_key(env)),
            base_url: http_url("embedder.config.baseUrl", self.base_url, GEMINI_BASE_URL)?,
            dimensions: dimensions("embedder.config.dimensions", self.dimensions)?,
        })
    }
}
