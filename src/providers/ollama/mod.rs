//! Ollama: the chat and embedding models and their settings.

mod chat;
mod embedding;
mod settings;

pub use chat::{OllamaChat, OllamaChatSettings};
pub use embedding::{OllamaEmbedder, OllamaEmbedderSettings};
pub use settings::{OllamaEmbedderOptions, OllamaLlmOptions};
