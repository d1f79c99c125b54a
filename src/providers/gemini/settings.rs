//! `{provider: "gemini", config: {…}}` for the LLM and the embedder (Google AI Studio keys); `"google"` is
//! mem0's name for it.

use serde::Deserialize;

use super::chat::GeminiChatSettings;
use super::embedding::GeminiEmbedderSettings;
use crate::core::config::non_empty;
use crate::core::error::Result;
use crate::providers::shared::fields::{dimensions, http_url, max_tokens, temperature, top_k, top_p};
use crate::providers::shared::keys::Env;
use crate::providers::shared::keys::{api_key, is_default, KeyNeed};

const GEMINI_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";

/// The key: given, else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`; required at Google's own URL.
fn key(section: &str, given: Option<String>, base_url: &str, env: Env) -> Result<Option<String>> {
    let key = given.or_else(|| env("GEMINI_API_KEY")).or_else(|| env("GOOGLE_API_KEY"));
    let need = KeyNeed { section, provider: "gemini", env_var: Some("GEMINI_API_KEY"), url_field: "baseUrl" };
    api_key(need, key, is_default(base_url, GEMINI_BASE_URL))
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
    #[serde(alias = "max_tokens")]
    pub max_tokens: Option<u32>,
    #[serde(alias = "top_p")]
    pub top_p: Option<f64>,
    #[serde(alias = "top_k")]
    pub top_k: Option<u32>,
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
    /// Sent as `outputDimensionality`; `embeddingDims` is mem0's name for it.
    #[serde(alias = "embeddingDims", alias = "embedding_dims")]
    pub dimensions: Option<u32>,
}

impl GeminiLlmOptions {
    /// Fills defaults (`gemini-2.5-flash`, JSON mode) and validates.
    pub fn resolve(self, env: Env) -> Result<GeminiChatSettings> {
        let mut settings = GeminiChatSettings {
            model: non_empty("llm.config.model", self.model, "gemini-2.5-flash")?,
            api_key: None,
            base_url: http_url("llm.config.baseUrl", self.base_url, GEMINI_BASE_URL)?,
            temperature: temperature("llm.config.temperature", self.temperature, 2.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            top_p: top_p("llm.config.topP", self.top_p)?,
            top_k: top_k("llm.config.topK", self.top_k)?,
            json_mode: self.json_mode.unwrap_or(true),
        };
        settings.api_key = key("llm", self.api_key, &settings.base_url, env)?;
        Ok(settings)
    }
}

impl GeminiEmbedderOptions {
    /// Fills defaults (`gemini-embedding-001`) and validates.
    pub fn resolve(self, env: Env) -> Result<GeminiEmbedderSettings> {
        let mut settings = GeminiEmbedderSettings {
            model: non_empty("embedder.config.model", self.model, "gemini-embedding-001")?,
            api_key: None,
            base_url: http_url("embedder.config.baseUrl", self.base_url, GEMINI_BASE_URL)?,
            dimensions: dimensions("embedder.config.dimensions", self.dimensions)?,
        };
        settings.api_key = key("embedder", self.api_key, &settings.base_url, env)?;
        Ok(settings)
    }
}
