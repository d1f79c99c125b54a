//! `{provider: "azure_openai", config: {…}}` for the LLM and the embedder: one deployment each.

use serde::Deserialize;

use super::deployment::{AzureOpenAiChatSettings, AzureOpenAiEmbedderSettings, AzureTarget};
use crate::core::config::{invalid, non_empty};
use crate::core::error::Result;
use crate::providers::shared::fields::{dimensions, http_url, max_tokens, required, temperature};
use crate::providers::shared::keys::Env;
use crate::providers::shared::keys::{self, KeyNeed};

/// The GA data-plane API version used when none is given.
const API_VERSION: &str = "2024-10-21";

/// `llm.config` for Azure OpenAI.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AzureLlmOptions {
    /// `https://{resource}.openai.azure.com`; `AZURE_OPENAI_ENDPOINT` when absent.
    pub endpoint: Option<String>,
    pub deployment: Option<String>,
    pub api_version: Option<String>,
    pub api_key: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub json_mode: Option<bool>,
}

/// `embedder.config` for Azure OpenAI.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AzureEmbedderOptions {
    pub endpoint: Option<String>,
    pub deployment: Option<String>,
    pub api_version: Option<String>,
    pub api_key: Option<String>,
    pub dimensions: Option<u32>,
}

/// Whether `endpoint` is Azure's own (`https://{resource}.openai.azure.com` and the like), which needs a key;
/// a gateway of one's own may add it.
fn on_azure(endpoint: &str) -> bool {
    let host = endpoint.split("://").nth(1).unwrap_or(endpoint).split(['/', ':']).next().unwrap_or_default();
    host.to_ascii_lowercase().ends_with(".azure.com")
}

/// The deployment target; `section` is `llm` or `embedder`.
fn target(
    section: &str,
    endpoint: Option<String>,
    deployment: Option<String>,
    api_version: Option<String>,
    api_key: Option<String>,
    env: Env,
) -> Result<AzureTarget> {
    let field = |name: &str| format!("{section}.config.{name}");
    let endpoint = endpoint.or_else(|| env("AZURE_OPENAI_ENDPOINT"));
    let endpoint = http_url(&field("endpoint"), Some(required(&field("endpoint"), endpoint, "the resource URL")?), "")?;
    let deployment = required(&field("deployment"), deployment, "the deployment name")?;
    if !deployment.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
        return Err(invalid(&field("deployment"), "may only hold letters, digits, '-', '_' and '.'"));
    }
    let api_version = non_empty(&field("apiVersion"), api_version.or_else(|| env("OPENAI_API_VERSION")), API_VERSION)?;
    let need =
        KeyNeed { section, provider: "azure_openai", env_var: Some("AZURE_OPENAI_API_KEY"), url_field: "endpoint" };
    let api_key = keys::api_key(need, api_key.or_else(|| env("AZURE_OPENAI_API_KEY")), on_azure(&endpoint))?;
    Ok(AzureTarget { endpoint, deployment, api_version, api_key })
}

impl AzureLlmOptions {
    /// Validates and fills defaults (API version `2024-10-21`, JSON mode).
    pub fn resolve(self, env: Env) -> Result<AzureOpenAiChatSettings> {
        Ok(AzureOpenAiChatSettings {
            target: target("llm", self.endpoint, self.deployment, self.api_version, self.api_key, env)?,
            temperature: temperature("llm.config.temperature", self.temperature, 2.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            json_mode: self.json_mode.unwrap_or(true),
        })
    }
}

impl AzureEmbedderOptions {
    /// Validates and fills defaults.
    pub fn resolve(self, env: Env) -> Result<AzureOpenAiEmbedderSettings> {
        Ok(AzureOpenAiEmbedderSettings {
            target: target("embedder", self.endpoint, self.deployment, self.api_version, self.api_key, env)?,
            dimensions: dimensions("embedder.config.dimensions", self.dimensions)?,
        })
    }
}
