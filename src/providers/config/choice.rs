//! `LlmChoice` and `EmbedderChoice`: picks the LLM and the embedder by `provider` and reads each one's options.

use crate::core::config::{invalid, provider_options, unknown_provider, ProviderConfig};
use crate::core::error::Result;
use crate::providers::anthropic::{AnthropicOptions, AnthropicSettings};
use crate::providers::azure_openai::{
    AzureEmbedderOptions, AzureLlmOptions, AzureOpenAiChatSettings, AzureOpenAiEmbedderSettings,
};
use crate::providers::gemini::{GeminiChatSettings, GeminiEmbedderOptions, GeminiEmbedderSettings, GeminiLlmOptions};
use crate::providers::ollama::{OllamaChatSettings, OllamaEmbedderOptions, OllamaEmbedderSettings, OllamaLlmOptions};
use crate::providers::openai::{
    find_host, OpenAiChatSettings, OpenAiEmbedderOptions, OpenAiEmbedderSettings, OpenAiLlmOptions, HOSTS,
};
use crate::providers::registry::models::model_providers;
use crate::providers::shared::keys::Env;
use crate::providers::workers_ai::{
    WorkersAiEmbedderOptions, WorkersAiEmbedderSettings, WorkersAiLlmOptions, WorkersAiLlmSettings,
};

/// The LLM to use.
#[derive(Debug, Clone, PartialEq)]
pub enum LlmChoice {
    /// `provider: "none"`: no LLM; `add()` stores messages as they are.
    None,
    /// OpenAI and the OpenAI-compatible hosts.
    OpenAi(OpenAiChatSettings),
    AzureOpenAi(AzureOpenAiChatSettings),
    Anthropic(AnthropicSettings),
    Gemini(GeminiChatSettings),
    Ollama(OllamaChatSettings),
    /// Through the `llm.binding` Workers AI binding.
    WorkersAi(WorkersAiLlmSettings),
    /// The app's `llm.generate` callback.
    Custom,
}

/// The embedder to use.
#[derive(Debug, Clone, PartialEq)]
pub enum EmbedderChoice {
    /// `provider: "none"`: no vectors; search falls back to keywords.
    None,
    /// OpenAI and the OpenAI-compatible hosts.
    OpenAi(OpenAiEmbedderSettings),
    AzureOpenAi(AzureOpenAiEmbedderSettings),
    Gemini(GeminiEmbedderSettings),
    Ollama(OllamaEmbedderSettings),
    /// Through the `embedder.binding` Workers AI binding.
    WorkersAi(WorkersAiEmbedderSettings),
    /// The app's `embedder.embed` callback, whose vectors have `dimensions` entries.
    Custom {
        dimensions: usize,
    },
}

model_providers! {
    ["openai"] => llm OpenAi(OpenAiLlmOptions) embedder OpenAi(OpenAiEmbedderOptions);
    ["azure_openai"] => llm AzureOpenAi(AzureLlmOptions) embedder AzureOpenAi(AzureEmbedderOptions);
    ["anthropic"] => llm Anthropic(AnthropicOptions);
    // mem0 names it "google" (its LLM and embedder read the same options).
    ["gemini" | "google"] => llm Gemini(GeminiLlmOptions) embedder Gemini(GeminiEmbedderOptions);
    ["ollama"] => llm Ollama(OllamaLlmOptions) embedder Ollama(OllamaEmbedderOptions);
    // Through a Workers AI binding.
    ["workers-ai"] => llm WorkersAi(WorkersAiLlmOptions) embedder WorkersAi(WorkersAiEmbedderOptions);
}

/// The providers with no options of their own, listed after the table's: a JS callback, or nothing.
pub(crate) const BARE: [&str; 2] = ["custom", "none"];

/// `embedder: {provider: "local"}`: the on-device embedder, which the npm package's Node and browser entries
/// turn into a `custom` one.
pub(crate) const LOCAL: &str = "local";

/// The LLM providers, in the order errors list them: the table's, the bare ones, the OpenAI-compatible hosts.
pub fn llm_providers() -> Vec<&'static str> {
    names(false)
}

/// The embedder providers, in the order errors list them (`local` after the bare ones).
pub fn embedder_providers() -> Vec<&'static str> {
    names(true)
}

/// The providers of the LLM (or the `embedder`), as plain loops: iterator chains cost the .wasm a copy of
/// each adapter.
fn names(embedder: bool) -> Vec<&'static str> {
    let mut names = Vec::new();
    for (row_names, llm, serves_embedder) in TABLE {
        if (embedder && *serves_embedder) || (!embedder && *llm) {
            names.push(row_names[0]);
        }
    }
    names.extend_from_slice(&BARE);
    if embedder {
        names.push(LOCAL);
    }
    for host in HOSTS {
        if !embedder || host.embeddings {
            names.push(host.name);
        }
    }
    names
}

/// `"local"` reached the core: the entry that loaded it has no on-device embedder (Cloudflare Workers,
/// the bare module, native Rust).
fn local_unavailable() -> crate::core::error::MemoryError {
    invalid(
        "embedder.provider",
        "\"local\" (the on-device embedder) is not available here: it runs in Node and browsers through the \
         npm package's `memwasm` import, not in Cloudflare Workers. In a Worker use \"workers-ai\" with the AI \
         binding ({provider: \"workers-ai\", binding: env.AI}), or a hosted embedder such as \"openai\" or \
         \"gemini\", or \"custom\" with your own embed function",
    )
}

/// Rejects a `config` for providers that take none.
fn no_config(config: &ProviderConfig, section: &str) -> Result<()> {
    match &config.config {
        None => Ok(()),
        Some(_) => {
            Err(invalid(&format!("{section}.config"), format!("the {} provider takes no config", config.provider)))
        }
    }
}

/// The LLM `config` asks for (OpenAI when absent).
pub fn llm_choice(config: ProviderConfig, env: Env) -> Result<LlmChoice> {
    if config.dimensions.is_some() {
        return Err(invalid("llm.dimensions", "unknown field (only a custom embedder takes dimensions)"));
    }
    let options = &config.config;
    if let Some(choice) = table_llm(&config.provider, options, env) {
        return choice;
    }
    Ok(match config.provider.as_str() {
        "custom" => no_config(&config, "llm").map(|_| LlmChoice::Custom)?,
        "none" => LlmChoice::None,
        name => match find_host(name) {
            Some(host) => {
                LlmChoice::OpenAi(provider_options::<OpenAiLlmOptions>(options, "llm.config")?.resolve_for(host, env)?)
            }
            None => return Err(unknown_provider("llm.provider", name, &llm_providers())),
        },
    })
}

/// The embedder `config` asks for (OpenAI when absent).
pub fn embedder_choice(config: ProviderConfig, env: Env) -> Result<EmbedderChoice> {
    if config.dimensions.is_some() && config.provider != "custom" {
        let why = "only the custom provider takes a top-level dimensions; use embedder.config.dimensions";
        return Err(invalid("embedder.dimensions", why));
    }
    let options = &config.config;
    let field = "embedder.config";
    if let Some(choice) = table_embedder(&config.provider, options, env) {
        return choice;
    }
    Ok(match config.provider.as_str() {
        "custom" => {
            no_config(&config, "embedder")?;
            let dimensions = config.dimensions.ok_or_else(|| {
                invalid("embedder.dimensions", "is required (the length of the vectors your embed callback returns)")
            })?;
            let dimensions = crate::providers::shared::fields::dimensions("embedder.dimensions", Some(dimensions))?
                .unwrap_or_default();
            EmbedderChoice::Custom { dimensions }
        }
        "none" => EmbedderChoice::None,
        LOCAL => return Err(local_unavailable()),
        name => match find_host(name) {
            Some(host) => EmbedderChoice::OpenAi(
                provider_options::<OpenAiEmbedderOptions>(options, field)?.resolve_for(host, env)?,
            ),
            None => return Err(unknown_provider("embedder.provider", name, &embedder_providers())),
        },
    })
}

#[cfg(test)]
#[path = "choice_tests.rs"]
mod tests;
