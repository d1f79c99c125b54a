//! Workers AI: the settings of its models; the models themselves call the Worker's AI binding, so they
//! live in the platform layer.

mod settings;

pub use settings::{WorkersAiEmbedderOptions, WorkersAiEmbedderSettings, WorkersAiLlmOptions, WorkersAiLlmSettings};
