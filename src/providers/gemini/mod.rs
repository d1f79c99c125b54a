//! Gemini: the chat and embedding models and their settings.

mod chat;
mod embedding;
mod openapi_schema;
mod settings;

pub use chat::{GeminiChat, GeminiChatSettings};
pub use embedding::{GeminiEmbedder, GeminiEmbedderSettings};
pub use openapi_schema::openapi_schema;
pub use settings::{GeminiEmbedderOptions, GeminiLlmOptions};
