//! Anthropic: the chat model and its settings.

mod chat;
mod settings;

pub use chat::{AnthropicChat, AnthropicSettings};
pub use settings::AnthropicOptions;
