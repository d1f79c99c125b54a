//! OpenAI: chat completions and embeddings, their settings, and the OpenAI-compatible hosts that speak
//! the same format.

mod chat;
mod compatible;
mod embedding;
mod settings;

pub use chat::{OpenAiChat, OpenAiChatSettings};
pub(in crate::providers) use chat::{JSON_MODE_PARAMETER, SAMPLING_PARAMETERS};
pub use compatible::{find_host, Host, HOSTS};
pub use embedding::{OpenAiEmbedder, OpenAiEmbedderSettings};
pub use settings::{OpenAiEmbedderOptions, OpenAiLlmOptions};
