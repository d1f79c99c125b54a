//! Whichever LLM and embedder the config picked, as one type each: the HTTP providers over any
//! `HttpClient`, plus `Live(X)` for models a platform brings itself (JS callbacks, the Workers AI
//! binding). The npm package and the Cloudflare Worker both build their models here.

use super::anthropic::AnthropicChat;
use super::config::{EmbedderChoice, LlmChoice};
use super::gemini::{GeminiChat, GeminiEmbedder};
use super::ollama::{OllamaChat, OllamaEmbedder};
use super::openai::{OpenAiChat, OpenAiEmbedder};
use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::http::HttpClient;
use crate::providers::config::model_table;
use crate::providers::registry::models::model_constructors;

/// No live models: what a platform without callbacks or bindings (native Rust) plugs into `Live`.
#[derive(Debug)]
pub enum NoLive {}

impl Llm for NoLive {
    async fn generate(&self, _: &LlmRequest<'_>) -> Result<String> {
        match *self {}
    }
}

impl Embedder for NoLive {
    async fn embed(&self, _: &[String]) -> Result<Vec<Vec<f32>>> {
        match *self {}
    }
}

/// Every LLM a build can talk to.
pub enum AnyLlm<C, X = NoLive> {
    /// `provider: "none"`.
    None,
    /// OpenAI, Azure OpenAI and the OpenAI-compatible hosts.
    OpenAi(OpenAiChat<C>),
    Anthropic(AnthropicChat<C>),
    Gemini(GeminiChat<C>),
    Ollama(OllamaChat<C>),
    /// A model the platform brings (see `LlmChoice::is_live`).
    Live(X),
}

impl<C: HttpClient, X: Llm> Llm for AnyLlm<C, X> {
    async fn generate(&self, request: &LlmRequest<'_>) -> Result<String> {
        match self {
            Self::None => Err(MemoryError::InvalidInput("no LLM is configured (llm.provider is \"none\")".into())),
            Self::OpenAi(llm) => llm.generate(request).await,
            Self::Anthropic(llm) => llm.generate(request).await,
            Self::Gemini(llm) => llm.generate(request).await,
            Self::Ollama(llm) => llm.generate(request).await,
            Self::Live(llm) => llm.generate(request).await,
        }
    }

    fn is_configured(&self) -> bool {
        !matches!(self, Self::None)
    }
}

/// Every embedder a build can talk to.
pub enum AnyEmbedder<C, X = NoLive> {
    /// `provider: "none"`.
    None,
    /// OpenAI, Azure OpenAI and the OpenAI-compatible hosts.
    OpenAi(OpenAiEmbedder<C>),
    Gemini(GeminiEmbedder<C>),
    Ollama(OllamaEmbedder<C>),
    /// An embedder the platform brings (see `EmbedderChoice::is_live`).
    Live(X),
}

// `AnyLlm::over_http` and `AnyEmbedder::over_http`: each row's `over` constructor, for its choice.
model_table!(model_constructors! { AnyLlm(LlmChoice), AnyEmbedder(EmbedderChoice); });

impl<C: HttpClient, X: Embedder> Embedder for AnyEmbedder<C, X> {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        match self {
            Self::None => {
                Err(MemoryError::InvalidInput("no embedder is configured (embedder.provider is \"none\")".into()))
            }
            Self::OpenAi(embedder) => embedder.embed(texts).await,
            Self::Gemini(embedder) => embedder.embed(texts).await,
            Self::Ollama(embedder) => embedder.embed(texts).await,
            Self::Live(embedder) => embedder.embed(texts).await,
        }
    }

    fn dimensions(&self) -> Option<usize> {
        match self {
            Self::None => None,
            Self::OpenAi(embedder) => embedder.dimensions(),
            Self::Gemini(embedder) => embedder.dimensions(),
            Self::Ollama(embedder) => embedder.dimensions(),
            Self::Live(embedder) => embedder.dimensions(),
        }
    }

    fn is_configured(&self) -> bool {
        !matches!(self, Self::None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::core::reply_schema;
    use crate::providers::config::MemoryConfig;
    use crate::providers::shared::testing::Recorder;

    fn config(value: serde_json::Value) -> crate::providers::config::ResolvedConfig {
        let env = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-test".to_owned());
        serde_json::from_value::<MemoryConfig>(value).unwrap().resolve(&env).unwrap()
    }

    const FACTS: &str = r#"{"content":[{"type":"tool_use","name":"record_facts","input":{"facts":[]}}]}"#;

    #[test]
    fn http_choices_are_built_and_live_ones_left_to_the_platform() {
        let resolved = config(json!({"llm": {"provider": "anthropic", "config": {"apiKey": "k"}}}));
        let llm: AnyLlm<Recorder> =
            AnyLlm::over_http(&resolved.llm, Recorder::replying(200, FACTS), resolved.retry).unwrap();
        let shape = reply_schema::facts();
        let reply = futures_executor::block_on(llm.generate(&LlmRequest::json("any prompt", "u", &shape))).unwrap();
        assert_eq!(reply, r#"{"facts":[]}"#);
        let AnyLlm::Anthropic(_) = llm else { panic!("expected the Anthropic model") };

        let custom =
            config(json!({"llm": {"provider": "custom"}, "embedder": {"provider": "custom", "dimensions": 3}}));
        assert!(AnyLlm::<Recorder>::over_http(&custom.llm, Recorder::default(), custom.retry).is_none());
        assert!(AnyEmbedder::<Recorder>::over_http(&custom.embedder, Recorder::default(), custom.retry).is_none());
    }

    #[test]
    fn none_is_not_configured_and_refuses_calls() {
        let resolved = config(json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"}}));
        let llm = AnyLlm::<Recorder>::over_http(&resolved.llm, Recorder::default(), resolved.retry).unwrap();
        let embedder =
            AnyEmbedder::<Recorder>::over_http(&resolved.embedder, Recorder::default(), resolved.retry).unwrap();
        assert!(!llm.is_configured() && !embedder.is_configured());
        let error = futures_executor::block_on(llm.generate(&LlmRequest::text("s", "u"))).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT");
    }
}
