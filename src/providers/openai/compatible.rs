//! OpenAI-compatible hosts by name (`groq`, `together`, `openrouter`, `deepseek`, `lmstudio`, `vllm`)
//! or by `baseUrl` (`openai_compatible`). They speak the OpenAI format, so they resolve to OpenAI
//! settings with the host's base URL, its own API-key variable, and whether JSON mode is on by default
//! (a host that rejects it anyway gets prompt-only JSON after the first refusal).

use super::chat::OpenAiChatSettings;
use super::embedding::OpenAiEmbedderSettings;
use super::settings::{OpenAiEmbedderOptions, OpenAiLlmOptions};
use crate::core::config::invalid;
use crate::core::error::Result;
use crate::providers::shared::fields::{dimensions, http_url, max_tokens, required, temperature, top_p};
use crate::providers::shared::keys::Env;
use crate::providers::shared::keys::{api_key, is_default, KeyNeed};

/// One OpenAI-compatible host.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Host {
    pub name: &'static str,
    /// `None`: `baseUrl` is required.
    pub base_url: Option<&'static str>,
    /// The environment variable holding its key.
    pub key_env: Option<&'static str>,
    /// Whether `response_format: json_object` is sent by default.
    pub json_mode: bool,
    /// Whether it serves `/embeddings`.
    pub embeddings: bool,
    /// Whether its `/embeddings` takes `dimensions` (else the length is only checked).
    pub dimensions_param: bool,
}

const fn host(name: &'static str, base_url: &'static str, key_env: Option<&'static str>, embeddings: bool) -> Host {
    Host { name, base_url: Some(base_url), key_env, json_mode: true, embeddings, dimensions_param: true }
}

/// The hosts known by name.
pub const HOSTS: &[Host] = &[
    Host {
        name: "openai_compatible",
        base_url: None,
        key_env: None,
        json_mode: true,
        embeddings: true,
        dimensions_param: true,
    },
    host("groq", "https://api.groq.com/openai/v1", Some("GROQ_API_KEY"), false),
    // Together's embeddings take no `dimensions` (mem0 leaves out its `embeddingDims` too).
    Host { dimensions_param: false, ..host("together", "https://api.together.xyz/v1", Some("TOGETHER_API_KEY"), true) },
    host("openrouter", "https://openrouter.ai/api/v1", Some("OPENROUTER_API_KEY"), false),
    host("deepseek", "https://api.deepseek.com/v1", Some("DEEPSEEK_API_KEY"), false),
    // LM Studio only accepts `json_schema` response formats, so JSON mode starts off.
    Host { json_mode: false, ..host("lmstudio", "http://localhost:1234/v1", None, true) },
    host("vllm", "http://localhost:8000/v1", None, true),
];

/// The host called `name`, if any.
pub fn find_host(name: &str) -> Option<&'static Host> {
    HOSTS.iter().find(|host| host.name == name)
}

/// The key: given, else the host's variable; required where the host has one and `url` is its own.
fn key(host: &Host, section: &str, given: Option<String>, url: &str, env: Env) -> Result<Option<String>> {
    let key = given.or_else(|| host.key_env.and_then(env));
    let hosted = host.key_env.is_some() && host.base_url.is_some_and(|default| is_default(url, default));
    let need = KeyNeed { section, provider: host.name, env_var: host.key_env, url_field: "baseUrl" };
    api_key(need, key, hosted)
}

fn base_url(host: &Host, field: &str, value: Option<String>) -> Result<String> {
    match host.base_url {
        Some(default) => http_url(field, value, default),
        None => http_url(field, Some(required(field, value, "the host's OpenAI-compatible URL")?), ""),
    }
}

impl OpenAiLlmOptions {
    /// Settings for `host`: its base URL and key variable; `model` is required (hosts share no default).
    pub fn resolve_for(self, host: &Host, env: Env) -> Result<OpenAiChatSettings> {
        let mut settings = OpenAiChatSettings {
            model: required("llm.config.model", self.model, &format!("{} has no default model", host.name))?,
            api_key: None,
            base_url: base_url(host, "llm.config.baseUrl", self.base_url)?,
            temperature: temperature("llm.config.temperature", self.temperature, 2.0)?,
            max_tokens: max_tokens("llm.config.maxTokens", self.max_tokens)?,
            top_p: top_p("llm.config.topP", self.top_p)?,
            json_mode: self.json_mode.unwrap_or(host.json_mode),
        };
        settings.api_key = key(host, "llm", self.api_key, &settings.base_url, env)?;
        Ok(settings)
    }
}

impl OpenAiEmbedderOptions {
    /// Settings for `host`, which must serve embeddings; `model` is required.
    pub fn resolve_for(self, host: &Host, env: Env) -> Result<OpenAiEmbedderSettings> {
        if !host.embeddings {
            let why =
                format!("{} has no embeddings API (use \"openai_compatible\" with a baseUrl that has)", host.name);
            return Err(invalid("embedder.provider", why));
        }
        let mut settings = OpenAiEmbedderSettings {
            model: required("embedder.config.model", self.model, &format!("{} has no default model", host.name))?,
            api_key: None,
            base_url: base_url(host, "embedder.config.baseUrl", self.base_url)?,
            dimensions: dimensions("embedder.config.dimensions", self.dimensions)?,
            send_dimensions: host.dimensions_param,
        };
        settings.api_key = key(host, "embedder", self.api_key, &settings.base_url, env)?;
        Ok(settings)
    }
}
