//! An embedding model as a store records it beside its vectors: provider, model name and vector length
//! (the engine's record and check are in `engine/embedding_model.rs`).

use serde::{Deserialize, Serialize};

/// An embedding model: its provider, its name, and the length of its vectors when known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbeddingModel {
    pub provider: String,
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<usize>,
}

impl EmbeddingModel {
    /// `provider`'s `model`, whose vectors have `dimensions` numbers when known.
    pub fn new(provider: &str, model: &str, dimensions: Option<usize>) -> Self {
        Self { provider: provider.to_owned(), model: model.to_owned(), dimensions }
    }

    /// True when vectors of `self` and `other` compare: the same provider and model, and the same length
    /// when both know theirs.
    pub(crate) fn same_as(&self, other: &EmbeddingModel) -> bool {
        let lengths_agree = match (self.dimensions, other.dimensions) {
            (Some(mine), Some(theirs)) => mine == theirs,
            _ => true,
        };
        self.provider == other.provider && self.model == other.model && lengths_agree
    }
}

impl std::fmt::Display for EmbeddingModel {
    /// `openai/text-embedding-3-small (1536 dimensions)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.model.is_empty() {
            true => write!(f, "{}", self.provider)?,
            false => write!(f, "{}/{}", self.provider, self.model)?,
        }
        match self.dimensions {
            Some(dimensions) => write!(f, " ({dimensions} dimensions)"),
            None => Ok(()),
        }
    }
}
