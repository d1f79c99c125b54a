//! The embedding model a memory's vectors come from, recorded beside them (the side record `store` /
//! `embedding-model`, so every storage keeps it: IndexedDB, SQLite, KV, a snapshot). Opening with another
//! model warns `EMBEDDING_MODEL_CHANGED`, or fails with it under `strict`; `reembed` re-embeds every memory
//! with the configured model and records it. A store written before models were recorded takes the
//! configured one silently.

use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
pub use crate::core::model::embedding_model::EmbeddingModel;
use crate::core::model::types::{AddWarning, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// The side record's kind and key.
const KIND: &str = "store";
const KEY: &str = "embedding-model";

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Tells the engine which model its embedder is (what `check_embedding_model` and `reembed` record).
    pub fn set_embedding_model(&mut self, model: EmbeddingModel) {
        self.embedding_model = Some(model);
    }

    /// The configured model, its length completed from the stored vectors when the config does not say.
    pub(crate) fn current_embedding_model(&self) -> Option<EmbeddingModel> {
        let mut model = self.embedding_model.clone().filter(|_| self.embedder.is_configured())?;
        model.dimensions = model.dimensions.or(self.index.borrow().dimension());
        Some(model)
    }

    /// Compares the configured model with the one the stored vectors come from (see the module): `None`
    /// when they agree (or nothing is recorded yet: the configured one is recorded now), else the
    /// `EMBEDDING_MODEL_CHANGED` warning, or that error when `strict`.
    pub async fn check_embedding_model(&self, strict: bool) -> Result<Option<AddWarning>> {
        let Some(current) = self.current_embedding_model() else { return Ok(None) };
        let Some(stored) = self.stored_embedding_model().await? else {
            self.write_side(vec![embedding_model_record(&current)]).await?;
            return Ok(None);
        };
        match self.model_change(&stored) {
            Some(error) if strict => Err(error),
            change => Ok(change.map(|error| model_changed_warning(&error))),
        }
    }

    /// The model the stored vectors come from, when recorded.
    async fn stored_embedding_model(&self) -> Result<Option<EmbeddingModel>> {
        Ok(self.side_record(KIND, KEY).await?.and_then(|value| serde_json::from_value(value).ok()))
    }

    /// The model the stored vectors come from: the recorded one, else the configured one; its length
    /// completed from the stored vectors when the record (made before any vector) does not say.
    pub(crate) async fn recorded_embedding_model(&self) -> Result<Option<EmbeddingModel>> {
        let recorded = self.stored_embedding_model().await?.map(|mut model| {
            model.dimensions = model.dimensions.or(self.index.borrow().dimension());
            model
        });
        Ok(recorded.or_else(|| self.current_embedding_model()))
    }

    /// `EMBEDDING_MODEL_CHANGED` when vectors of `made_by` do not compare with the configured model's.
    fn model_change(&self, made_by: &EmbeddingModel) -> Option<MemoryError> {
        let current = self.current_embedding_model().filter(|current| !current.same_as(made_by))?;
        Some(MemoryError::EmbeddingModelChanged { stored: made_by.to_string(), current: current.to_string() })
    }

    /// The `EMBEDDING_MODEL_CHANGED` warning of an import whose vectors `made_by` made, when that is not the
    /// configured model.
    pub(crate) fn imported_model_warning(&self, made_by: &EmbeddingModel) -> Option<AddWarning> {
        self.model_change(made_by).map(|error| model_changed_warning(&error))
    }
}

/// The warning that says so (no `cause`: nothing failed).
fn model_changed_warning(error: &MemoryError) -> AddWarning {
    AddWarning { cause: None, ..AddWarning::caused_by(WarningCode::EmbeddingModelChanged, error) }
}

/// The side record that says `model` made the stored vectors.
pub(crate) fn embedding_model_record(model: &EmbeddingModel) -> SideWrite {
    SideWrite::put(KIND, KEY, serde_json::to_value(model).unwrap_or_default())
}

#[cfg(test)]
#[path = "embedding_model_tests.rs"]
mod tests;
