//! The embedder's errors, each with a stable code that the JS binding puts on `error.code`.

/// What went wrong. Codes (`code()`) are stable; messages are for people.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmbedderError {
    /// The weights, the tokenizer or the model config are missing, corrupt or do not fit together.
    #[error("could not load the embedder: {0}")]
    Load(String),
    /// A text could not be tokenized.
    #[error("could not tokenize the input: {0}")]
    Input(String),
    /// The forward pass failed (for example, a token id outside the weights' vocabulary).
    #[error("the embedding forward pass failed: {0}")]
    Inference(String),
}

impl EmbedderError {
    /// The stable code: `EMBEDDER_LOAD`, `EMBEDDER_INPUT` or `EMBEDDER_INFERENCE`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Load(_) => "EMBEDDER_LOAD",
            Self::Input(_) => "EMBEDDER_INPUT",
            Self::Inference(_) => "EMBEDDER_INFERENCE",
        }
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, EmbedderError>;

/// Turns a candle error raised while running the model into `EMBEDDER_INFERENCE`.
pub(crate) fn inference(err: candle_core::Error) -> EmbedderError {
    EmbedderError::Inference(err.to_string())
}

#[cfg(test)]
mod tests {
    use super::EmbedderError;

    #[test]
    fn codes_are_stable() {
        assert_eq!(EmbedderError::Load(String::new()).code(), "EMBEDDER_LOAD");
        assert_eq!(EmbedderError::Input(String::new()).code(), "EMBEDDER_INPUT");
        assert_eq!(EmbedderError::Inference(String::new()).code(), "EMBEDDER_INFERENCE");
    }
}
