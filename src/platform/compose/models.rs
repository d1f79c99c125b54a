//! Builds the configured LLM and embedder: the HTTP providers over `fetch`, and those that live in JS (a
//! `generate` / `embed` callback, the Workers AI binding). Checks that each live value was given to the
//! one provider that takes it.

#[cfg(feature = "extras")]
use js_sys::Function;
#[cfg(feature = "extras")]
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

use super::live::LiveValues;
use super::{Embedder, Llm};
use crate::core::config::invalid;
use crate::core::error::Result;
use crate::core::time::Clock;
use crate::http::{HostWatch, Now, Timed};
#[cfg(feature = "extras")]
use crate::platform::observe::Observed;
use crate::platform::{CallbackEmbedder, CallbackLlm, CallbackReranker, FetchClient, WorkersAiEmbedder, WorkersAiLlm};
use crate::providers::any::{AnyEmbedder, AnyLlm};
use crate::providers::config::{EmbedderChoice, LlmChoice, ResolvedConfig};
use crate::providers::LlmRequest;

/// The LLMs a wasm32 platform brings itself.
pub enum LiveLlm {
    WorkersAi(WorkersAiLlm),
    Custom(CallbackLlm),
}

impl crate::core::model_traits::Llm for LiveLlm {
    async fn generate(&self, request: &LlmRequest<'_>) -> Result<String> {
        match self {
            Self::WorkersAi(llm) => llm.generate(request).await,
            Self::Custom(llm) => llm.generate(request).await,
        }
    }
}

/// The embedders a wasm32 platform brings itself.
pub enum LiveEmbedder {
    WorkersAi(WorkersAiEmbedder),
    Custom(CallbackEmbedder),
}

impl crate::core::model_traits::Embedder for LiveEmbedder {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        match self {
            Self::WorkersAi(embedder) => embedder.embed(texts).await,
            Self::Custom(embedder) => embedder.embed(texts).await,
        }
    }

    fn dimensions(&self) -> Option<usize> {
        match self {
            Self::WorkersAi(embedder) => embedder.dimensions(),
            Self::Custom(embedder) => embedder.dimensions(),
        }
    }
}

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

/// The LLM `config` asks for, observed by the config's `observe` callback when it has one; its host's
/// breaker reads `clock`.
#[cfg(feature = "extras")]
pub fn llm(config: &ResolvedConfig, live: &LiveValues, clock: &Clock) -> Result<Llm> {
    let (provider, model) = llm_name(&config.llm);
    Ok(Observed::new(any_llm(config, live, clock)?, observer(live)?, "chat", provider, model))
}

/// The embedder `config` asks for, observed by the config's `observe` callback when it has one.
#[cfg(feature = "extras")]
pub fn embedder(config: &ResolvedConfig, live: &LiveValues, clock: &Clock) -> Result<Embedder> {
    let (provider, model) = embedder_name(&config.embedder);
    Ok(Observed::new(any_embedder(config, live, clock)?, observer(live)?, "embeddings", provider, model))
}

/// The LLM `config` asks for (a build without `extras` has no `observe`: `NOT_IN_MODULE`).
#[cfg(not(feature = "extras"))]
pub fn llm(config: &ResolvedConfig, live: &LiveValues, clock: &Clock) -> Result<Llm> {
    if live.get("observe").is_some() {
        return Err(crate::core::error::MemoryError::NotInModule("observe".into()));
    }
    any_llm(config, live, clock)
}

/// The embedder `config` asks for.
#[cfg(not(feature = "extras"))]
pub fn embedder(config: &ResolvedConfig, live: &LiveValues, clock: &Clock) -> Result<Embedder> {
    any_embedder(config, live, clock)
}

/// `fetch`, bounded per a model's `timeoutMs`, `connectTimeoutMs` and `coolDownMs`, its breaker on `clock`.
fn timed_fetch(timeout_ms: Option<u32>, watch: HostWatch, clock: &Clock) -> Timed<FetchClient> {
    let clock = clock.clone();
    let now: Now = std::rc::Rc::new(move || clock.now_ms());
    Timed::new(FetchClient, timeout_ms, watch, now)
}

/// The config's `observe` callback; `INVALID_CONFIG` for a value that is not a function.
#[cfg(feature = "extras")]
fn observer(live: &LiveValues) -> Result<Option<Function>> {
    match live.get("observe") {
        None => Ok(None),
        Some(value) => {
            value.dyn_ref::<Function>().cloned().map(Some).ok_or_else(|| invalid("observe", "must be a function"))
        }
    }
}

/// The provider's name and model, as the `observe` events give them.
#[cfg(feature = "extras")]
fn llm_name(choice: &LlmChoice) -> (&'static str, String) {
    match choice.row_model() {
        Some((provider, model)) => (provider, model.to_owned()),
        None if matches!(choice, LlmChoice::Custom) => ("custom", String::new()),
        None => ("none", String::new()),
    }
}

/// The reranker stage `config.reranker` asks for: a rerank service over `fetch` with its own timeout, the
/// app's `reranker.rerank` function, or the engine's LLM. `INVALID_CONFIG` when `reranker.rerank` is missing
/// for `"custom"` or given to another provider.
pub(super) fn reranker(
    config: &ResolvedConfig,
    live: &LiveValues,
    clock: &Clock,
) -> Result<Option<crate::core::rerank::RerankStage>> {
    use crate::core::rerank::{RerankBy, RerankStage};
    use crate::providers::rerank::{RerankerChoice, ServiceReranker};
    let custom = matches!(config.reranker, Some(RerankerChoice::Custom { .. }));
    only_for(live, "reranker.rerank", "custom", custom)?;
    let Some(choice) = config.reranker.as_ref() else { return Ok(None) };
    let by = match choice {
        RerankerChoice::Llm { .. } => RerankBy::Llm,
        RerankerChoice::Service(settings) => {
            let client = timed_fetch(settings.timeout_ms, settings.watch, clock);
            RerankBy::Service(Box::new(ServiceReranker::new(client, settings.clone(), config.retry)))
        }
        RerankerChoice::Custom { timeout_ms, .. } => {
            let rerank = needed(live, "reranker.rerank", "a function (query, documents) => number[]")?;
            RerankBy::Service(Box::new(CallbackReranker::new(rerank, *timeout_ms)?))
        }
    };
    Ok(Some(RerankStage { by, top_k: choice.top_k(), provider: choice.name().to_owned() }))
}

/// The embedder's provider name and model, as the `observe` events give them and the store records them.
pub(super) fn embedder_name(choice: &EmbedderChoice) -> (&'static str, String) {
    match choice.row_model() {
        Some((provider, model)) => (provider, model.to_owned()),
        None if matches!(choice, EmbedderChoice::Custom { .. }) => ("custom", String::new()),
        None => ("none", String::new()),
    }
}

fn any_llm(config: &ResolvedConfig, live: &LiveValues, clock: &Clock) -> Result<AnyLlm<Timed<FetchClient>, LiveLlm>> {
    only_for(live, "llm.generate", "custom", matches!(config.llm, LlmChoice::Custom))?;
    only_for(live, "llm.binding", "workers-ai", matches!(config.llm, LlmChoice::WorkersAi(_)))?;
    Ok(match &config.llm {
        LlmChoice::WorkersAi(settings) => {
            let binding = needed(live, "llm.binding", "the Worker's AI binding, e.g. env.AI")?;
            AnyLlm::Live(LiveLlm::WorkersAi(WorkersAiLlm::new(binding, settings.clone(), config.llm_timeout_ms)?))
        }
        LlmChoice::Custom => {
            let generate = needed(live, "llm.generate", "a function ({system, user, json}) => string")?;
            AnyLlm::Live(LiveLlm::Custom(CallbackLlm::new(generate, config.llm_timeout_ms)?))
        }
        http => AnyLlm::over_http(http, timed_fetch(config.llm_timeout_ms, config.llm_watch, clock), config.retry)
            .ok_or_else(|| invalid("llm.provider", "is not available in this build"))?,
    })
}

fn any_embedder(
    config: &ResolvedConfig,
    live: &LiveValues,
    clock: &Clock,
) -> Result<AnyEmbedder<Timed<FetchClient>, LiveEmbedder>> {
    only_for(live, "embedder.embed", "custom", matches!(config.embedder, EmbedderChoice::Custom { .. }))?;
    only_for(live, "embedder.binding", "workers-ai", matches!(config.embedder, EmbedderChoice::WorkersAi(_)))?;
    Ok(match &config.embedder {
        EmbedderChoice::WorkersAi(settings) => {
            let binding = needed(live, "embedder.binding", "the Worker's AI binding, e.g. env.AI")?;
            let timeout_ms = config.embedder_timeout_ms;
            AnyEmbedder::Live(LiveEmbedder::WorkersAi(WorkersAiEmbedder::new(binding, settings.clone(), timeout_ms)?))
        }
        EmbedderChoice::Custom { dimensions } => {
            let embed = needed(live, "embedder.embed", "a function (texts: string[]) => number[][]")?;
            AnyEmbedder::Live(LiveEmbedder::Custom(CallbackEmbedder::new(
                embed,
                *dimensions,
                config.embedder_timeout_ms,
            )?))
        }
        http => {
            let client = timed_fetch(config.embedder_timeout_ms, config.embedder_watch, clock);
            AnyEmbedder::over_http(http, client, config.retry)
                .ok_or_else(|| invalid("embedder.provider", "is not available in this build"))?
        }
    })
}
