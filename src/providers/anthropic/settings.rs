//! `llm: {provider: "anthropic", config: {…}}`.

use serde::Deserialize;

use super::chat::AnthropicSettings;
use crate::core::config::non_empty;
use crate::core::error::Result;
use crate::providers::shared::fields::{http_url, max_tokens, temperature, top_k, top_p};
use crate::providers::shared::keys::Env;
use crate::providers::shared::keys::{api_key, is_default, KeyNeed};

const ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com/v1";

/// `llm.config` for Anthropic.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnthropicOptions {
    pub model: Option<String>,
    pub api_key: Option<String>,
    #[serde(alias = "baseURL")]
    pub base_url: Option<String>,
    pub anthropic_version: Option<String>,
    pub temperature: Option<f64>,
    #[serde(alias = "max_tokens")]
    pub max_tokens: Option<u32>,
    /// Sent only without `temperature` (Anthropic takes one of the two), as mem0 does.
    #[serde(alias = "top_p")]
    pub top_p: Option<f64>,
    #[serde(alias = "top_k")]
    pub top_k: Option<u32>,
    /// Force the memory's reply shapes through a tool (default true); false uses the text path only.
    pub tool_output: Option<bool>,
    /// Send `anthropic-dangerous-direct-browser-access: true` so browsers may call the API directly.
    pub dangerously_allow_browser: Option<bool>,
}

impl AnthropicOptions {
    /// Fills defaults (`claude-haiku-4-5`, version `2023-06-01`, `ANTHROPIC_API_KEY`) and validates. `topP` is
    /// kept only without `temperature`: Anthropic refuses a request with both.
    pub fn resolve(self, env: Env) -> Result<AnthropicSettings> {
        let top_p = top_p("llm.config.topP", self.top_p)?.filter(|_| self.temperature.is_none());
        let mut settings = AnthropicSettings {
            model: non_empty("llm.config.model", self.model, "claude-haiku-4-5")?,
            api_key: None,
            base_url: http_url("llm.config.baseUrl", self.base_url, ANTHROPIC_BASE_URL)?,
            version: non_empty("llm.config.anthropicVersion", self.anthropic_version, "2023-06-01")?,
            temperature: temperature("llm.config.temperature", self.temperature, 1.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            top_p,
            top_k: top_k("llm.config.topK", self.top_k)?,
            tool_output: self.tool_output.unwrap_or(true),
            browser_access: self.dangerously_allow_browser.unwrap_or(false),
        };
        let need =
            KeyNeed { section: "llm", provider: "anthropic", env_var: Some("ANTHROPIC_API_KEY"), url_field: "baseUrl" };
        let key = self.api_key.or_else(|| env("ANTHROPIC_API_KEY"));
        settings.api_key = api_key(need, key, is_default(&settings.base_url, ANTHROPIC_BASE_URL))?;
        Ok(settings)
    }
}
