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

/// The table of providers: calls `$then!` with `$head` and one row per provider, so that each writer
/// (`model_providers!` here, `model_constructors!` in `providers/any.rs`) reads the same rows. The row's
/// grammar is in `providers/registry/models.rs`.
macro_rules! model_table {
    ($then:ident! { $($head:tt)* }) => {
        $then! {
            $($head)*
            // OpenAI and the OpenAI-compatible hosts.
            ["openai"]
                llm OpenAi(OpenAiLlmOptions => OpenAiChatSettings, model)
                    over OpenAi(crate::providers::openai::OpenAiChat::new)
                embedder OpenAi(OpenAiEmbedderOptions => OpenAiEmbedderSettings, model)
                    over OpenAi(crate::providers::openai::OpenAiEmbedder::new);
            ["azure_openai"]
                llm AzureOpenAi(AzureLlmOptions => AzureOpenAiChatSettings, target.deployment)
                    over OpenAi(crate::providers::openai::OpenAiChat::azure)
                embedder AzureOpenAi(AzureEmbedderOptions => AzureOpenAiEmbedderSettings, target.deployment)
                    over OpenAi(crate::providers::openai::OpenAiEmbedder::azure);
            ["anthropic"]
                llm Anthropic(AnthropicOptions => AnthropicSettings, model)
                    over Anthropic(crate::providers::anthropic::AnthropicChat::new);
            // mem0 names it "google" (its LLM and embedder read the same options).
            ["gemini" | "google"]
                llm Gemini(GeminiLlmOptions => GeminiChatSettings, model)
                    over Gemini(crate::providers::gemini::GeminiChat::new)
                embedder Gemini(GeminiEmbedderOptions => GeminiEmbedderSettings, model)
                    over Gemini(crate::providers::gemini::GeminiEmbedder::new);
            ["ollama"]
                llm Ollama(OllamaLlmOptions => OllamaChatSettings, model)
                    over Ollama(crate::providers::ollama::OllamaChat::new)
                embedder Ollama(OllamaEmbedderOptions => OllamaEmbedderSettings, model)
                    over Ollama(crate::providers::ollama::OllamaEmbedder::new);
            // Through the `llm.binding` / `embedder.binding` Workers AI binding (the platform builds it).
            ["workers-ai"]
                llm WorkersAi(WorkersAiLlmOptions => WorkersAiLlmSettings, model)
                embedder WorkersAi(WorkersAiEmbedderOptions => WorkersAiEmbedderSettings, model);
        }
    };
}

pub(crate) use model_table;

model_table!(model_providers! {
    /// The LLM to use.
    #[derive(Debug, Clone, PartialEq)]
    pub enum LlmChoice {
        /// `provider: "none"`: no LLM; `add()` stores messages as they are.
        None,
        /// The app's `llm.generate` callback.
        Custom,
    }
    /// The embedder to use.
    #[derive(Debug, Clone, PartialEq)]
    pub enum EmbedderChoice {
        /// `provider: "none"`: no vectors; search falls back to keywords.
        None,
        /// The app's `embedder.embed` callback, whose vectors have `dimensions` entries.
        Custom { dimensions: usize },
    }
});

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
