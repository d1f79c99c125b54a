//! `{provider: "workers-ai", binding: env.AI, config: {…}}`: Cloudflare Workers AI through the Worker's
//! AI binding. The binding is a live value (see the JS layer); these are the JSON options.

use serde::Deserialize;

use crate::core::config::non_empty;
use crate::core::error::Result;
use crate::providers::shared::fields::{dimensions, max_tokens, temperature};
use crate::providers::shared::keys::Env;

/// `llm.config` for Workers AI.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkersAiLlmOptions {
    pub model: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    /// Send `response_format` (JSON mode) for JSON replies. Default true.
    pub json_mode: Option<bool>,
}

/// `embedder.config` for Workers AI.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkersAiEmbedderOptions {
    pub model: Option<String>,
    #[serde(alias = "embeddingDims", alias = "embedding_dims")]
    pub dimensions: Option<u32>,
}

/// A Workers AI text-generation model.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkersAiLlmSettings {
    pub model: String,
    pub temperature: f64,
    pub max_tokens: u32,
    pub json_mode: bool,
}

/// A Workers AI embedding model.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkersAiEmbedderSettings {
    pub model: String,
    /// Checked against every vector: the configured value, else the known size of a `@cf/baai/bge-*` model.
    pub dimensions: Option<usize>,
}

/// The vector size of the BGE models Workers AI serves.
fn known_dimensions(model: &str) -> Option<usize> {
    match model {
        "@cf/baai/bge-small-en-v1.5" => Some(384),
        "@cf/baai/bge-base-en-v1.5" => Some(768),
        "@cf/baai/bge-large-en-v1.5" | "@cf/baai/bge-m3" => Some(1024),
        _ => None,
    }
}

impl WorkersAiLlmOptions {
    /// Fills defaults (`@cf/meta/llama-3.1-8b-instruct`, JSON mode) and validates; `env` is unused (as every
    /// provider's options, these resolve with it).
    pub fn resolve(self, _env: Env) -> Result<WorkersAiLlmSettings> {
        Ok(WorkersAiLlmSettings {
            model: non_empty("llm.config.model", self.model, "@cf/meta/llama-3.1-8b-instruct")?,
            temperature: temperature("llm.config.temperature", self.temperature, 5.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            json_mode: self.json_mode.unwrap_or(true),
        })
    }
}

impl WorkersAiEmbedderOptions {
    /// Fills defaults (`@cf/baai/bge-base-en-v1.5`) and validates.
    pub fn resolve(self, _env: Env) -> Result<WorkersAiEmbedderSettings> {
        let model = non_empty("embedder.config.model", self.model, "@cf/baai/bge-base-en-v1.5")?;
        let dimensions =
            dimensions("embedder.config.dimensions", self.dimensions)?.or_else(|| known_dimensions(&model));
        Ok(WorkersAiEmbedderSettings { model, dimensions })
    }
}
