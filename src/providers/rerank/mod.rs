//! The rerankers of `reranker: {provider, config}` (mem0's shape): the rerank services (Cohere, Jina,
//! Voyage) over any `HttpClient`, and the choice of the LLM reranker, which the core runs on the configured
//! LLM (`core::rerank`).

mod service;
mod settings;

pub use service::ServiceReranker;
pub use settings::{reranker_choice, Dialect, RerankerChoice, RerankerConfig, ServiceSettings, DIALECTS};
