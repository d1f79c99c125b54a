//! Azure OpenAI: the OpenAI models at a deployment, and their settings.

mod deployment;
mod settings;

pub use deployment::{AzureOpenAiChatSettings, AzureOpenAiEmbedderSettings, AzureTarget};
pub use settings::{AzureEmbedderOptions, AzureLlmOptions};
