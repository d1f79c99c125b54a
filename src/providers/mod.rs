//! Model providers: the core's `Llm` and `Embedder` over HTTP, one module per wire format (OpenAI and
//! Azure OpenAI, Anthropic, Gemini, Ollama), each with its settings; `config` reads the JS config that
//! picks them, and `any` composes whichever was picked.

mod anthropic;
pub mod any;
mod azure_openai;
pub mod chroma;
pub mod config;
mod gemini;
mod ollama;
mod openai;
pub mod registry;
pub mod rerank;
mod shared;
mod workers_ai;

pub use anthropic::{AnthropicChat, AnthropicSettings};
pub use azure_openai::{AzureOpenAiChatSettings, AzureOpenAiEmbedderSettings, AzureTarget};
pub use gemini::{openapi_schema, GeminiChat, GeminiChatSettings, GeminiEmbedder, GeminiEmbedderSettings};
pub use ollama::{OllamaChat, OllamaChatSettings, OllamaEmbedder, OllamaEmbedderSettings};
pub use openai::{OpenAiChat, OpenAiChatSettings, OpenAiEmbedder, OpenAiEmbedderSettings};
pub use shared::embedding_reply::{checked_vectors, json_vector, json_vectors};
pub use shared::structured::StructuredOutput;

pub use crate::core::model_traits::{Embedder, Llm, LlmRequest};
