//! Picks the LLM and the embedder by `provider` and reads each one's options.

use super::compatible::{find_host, HOSTS};
use super::{
    invalid, provider_options, unknown_provider, AnthropicOptions, AzureEmbedderOptions, AzureLlmOptions,
    EmbedderChoice, Env, GeminiEmbedderOptions, GeminiLlmOptions, LlmChoice, OllamaEmbedderOptions, OllamaLlmOptions,
    OpenAiEmbedderOptions, OpenAiLlmOptions, ProviderConfig, WorkersAiEmbedderOptions, WorkersAiLlmOptions,
};
use crate::core::error::Result;

/// Providers without HTTP options: a Workers AI binding, a JS callback, or nothing.
const LIVE_PROVIDERS: &[&str] = &["workers-ai", "custom", "none"];

fn supported(own: &[&'static str]) -> Vec<&'static str> {
    own.iter().copied().chain(HOSTS.iter().map(|host| host.name)).chain(LIVE_PROVIDERS.iter().copied()).collect()
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
    Ok(match config.provider.as_str() {
        "openai" => LlmChoice::OpenAi(provider_options::<OpenAiLlmOptions>(options, "llm.config")?.resolve(env)?),
        "azure_openai" => {
            LlmChoice::AzureOpenAi(provider_options::<AzureLlmOptions>(options, "llm.config")?.resolve(env)?)
        }
        "anthropic" => LlmChoice::Anthropic(provider_options::<AnthropicOptions>(options, "llm.config")?.resolve(env)?),
        "gemini" => LlmChoice::Gemini(provider_options::<GeminiLlmOptions>(options, "llm.config")?.resolve(env)?),
        "ollama" => LlmChoice::Ollama(provider_options::<OllamaLlmOptions>(options, "llm.config")?.resolve()?),
        "workers-ai" => {
            LlmChoice::WorkersAi(provider_options::<WorkersAiLlmOptions>(options, "llm.config")?.resolve()?)
        }
        "custom" => no_config(&config, "llm").map(|_| LlmChoice::Custom)?,
        "none" => LlmChoice::None,
        name => match find_host(name) {
            Some(host) => {
                LlmChoice::OpenAi(provider_options::<OpenAiLlmOptions>(options, "llm.config")?.resolve_for(host, env)?)
            }
            None => {
                let known = supported(&["openai", "azure_openai", "anthropic", "gemini", "ollama"]);
                return Err(unknown_provider("llm.provider", name, &known));
            }
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
    Ok(match config.provider.as_str() {
        "openai" => EmbedderChoice::OpenAi(provider_options::<OpenAiEmbedderOptions>(options, field)?.resolve(env)?),
        "azure_openai" => {
            EmbedderChoice::AzureOpenAi(provider_options::<AzureEmbedderOptions>(options, field)?.resolve(env)?)
        }
        "gemini" => EmbedderChoice::Gemini(provider_options::<GeminiEmbedderOptions>(options, field)?.resolve(env)?),
        "ollama" => EmbedderChoice::Ollama(provider_options::<OllamaEmbedderOptions>(options, field)?.resolve()?),
        "workers-ai" => {
            EmbedderChoice::WorkersAi(provider_options::<WorkersAiEmbedderOptions>(options, field)?.resolve()?)
        }
        "custom" => {
            no_config(&config, "embedder")?;
            let dimensions = config.dimensions.ok_or_else(|| {
                invalid("embedder.dimensions", "is required (the length of the vectors your embed callback returns)")
            })?;
            let dimensions = super::fields::dimensions("embedder.dimensions", Some(dimensions))?.unwrap_or_default();
            EmbedderChoice::Custom { dimensions }
        }
        "none" => EmbedderChoice::None,
        name => match find_host(name) {
            Some(host) => EmbedderChoice::OpenAi(
                provider_options::<OpenAiEmbedderOptions>(options, field)?.resolve_for(host, env)?,
            ),
            None => {
                let known = supported(&["openai", "azure_openai", "gemini", "ollama"]);
                return Err(unknown_provider("embedder.provider", name, &known));
            }
        },
    })
}

#[cfg(test)]
#[path = "choice_tests.rs"]
mod tests;
