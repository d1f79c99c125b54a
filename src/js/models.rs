//! Builds the configured LLM and embedder, including those that live in JS (a `generate` / `embed`
//! callback, the Workers AI binding), and checks that each live value was given to the one provider
//! that takes it.

use wasm_bindgen::JsValue;

use super::compose::{AnyEmbedder, AnyLlm};
use super::live::LiveValues;
use crate::core::config::{invalid, EmbedderChoice, LlmChoice, ResolvedConfig};
use crate::core::error::Result;
use crate::platform::{CallbackEmbedder, CallbackLlm, FetchClient, WorkersAiEmbedder, WorkersAiLlm};
use crate::providers::{
    AnthropicChat, GeminiChat, GeminiEmbedder, OllamaChat, OllamaEmbedder, OpenAiChat, OpenAiEmbedder, ReplySchemas,
};

/// Fails when `path` holds a live value but the chosen provider is not `owner`.
fn only_for(live: &LiveValues, path: &str, owner: &str, chosen: bool) -> Result<()> {
    match live.get(path) {
        Some(_) if !chosen => Err(invalid(path, format!("only the \"{owner}\" provider takes this"))),
        _ => Ok(()),
    }
}

/// The live value at `path`, which the chosen provider needs.
fn needed<'a>(live: &'a LiveValues, path: &str, what: &str) -> Result<&'a JsValue> {
    live.get(path).ok_or_else(|| invalid(path, format!("is required ({what})")))
}

/// The LLM `config` asks for.
pub fn llm(config: &ResolvedConfig, live: &LiveValues) -> Result<AnyLlm> {
    only_for(live, "llm.generate", "custom", matches!(config.llm, LlmChoice::Custom))?;
    only_for(live, "llm.binding", "workers-ai", matches!(config.llm, LlmChoice::WorkersAi(_)))?;
    let (schemas, retry) = (ReplySchemas::for_prompts(&config.prompts), config.retry);
    Ok(match &config.llm {
        LlmChoice::None => AnyLlm::None,
        LlmChoice::OpenAi(settings) => AnyLlm::OpenAi(OpenAiChat::new(FetchClient, settings.clone(), retry)),
        LlmChoice::AzureOpenAi(settings) => AnyLlm::OpenAi(OpenAiChat::azure(FetchClient, settings.clone(), retry)),
        LlmChoice::Anthropic(settings) => {
            AnyLlm::Anthropic(AnthropicChat::new(FetchClient, settings.clone(), schemas, retry))
        }
        LlmChoice::Gemini(settings) => AnyLlm::Gemini(GeminiChat::new(FetchClient, settings.clone(), schemas, retry)),
        LlmChoice::Ollama(settings) => AnyLlm::Ollama(OllamaChat::new(FetchClient, settings.clone(), retry)),
        LlmChoice::WorkersAi(settings) => {
            let binding = needed(live, "llm.binding", "the Worker's AI binding, e.g. env.AI")?;
            AnyLlm::WorkersAi(WorkersAiLlm::new(binding, settings.clone(), schemas)?)
        }
        LlmChoice::Custom => AnyLlm::Custom(CallbackLlm::new(needed(
            live,
            "llm.generate",
            "a function ({system, user, json}) => string",
        )?)?),
    })
}

/// The embedder `config` asks for.
pub fn embedder(config: &ResolvedConfig, live: &LiveValues) -> Result<AnyEmbedder> {
    only_for(live, "embedder.embed", "custom", matches!(config.embedder, EmbedderChoice::Custom { .. }))?;
    only_for(live, "embedder.binding", "workers-ai", matches!(config.embedder, EmbedderChoice::WorkersAi(_)))?;
    let retry = config.retry;
    Ok(match &config.embedder {
        EmbedderChoice::None => AnyEmbedder::None,
        EmbedderChoice::OpenAi(settings) => {
            AnyEmbedder::OpenAi(OpenAiEmbedder::new(FetchClient, settings.clone(), retry))
        }
        EmbedderChoice::AzureOpenAi(settings) => {
            AnyEmbedder::OpenAi(OpenAiEmbedder::azure(FetchClient, settings.clone(), retry))
        }
        EmbedderChoice::Gemini(settings) => {
            AnyEmbedder::Gemini(GeminiEmbedder::new(FetchClient, settings.clone(), retry))
        }
        EmbedderChoice::Ollama(settings) => {
            AnyEmbedder::Ollama(OllamaEmbedder::new(FetchClient, settings.clone(), retry))
        }
        EmbedderChoice::WorkersAi(settings) => {
            let binding = needed(live, "embedder.binding", "the Worker's AI binding, e.g. env.AI")?;
            AnyEmbedder::WorkersAi(WorkersAiEmbedder::new(binding, settings.clone())?)
        }
        EmbedderChoice::Custom { dimensions } => {
            let embed = needed(live, "embedder.embed", "a function (texts: string[]) => number[][]")?;
            AnyEmbedder::Custom(CallbackEmbedder::new(embed, *dimensions)?)
        }
    })
}
