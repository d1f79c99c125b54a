//! Embedding a batch of texts for a write: one request, then one per text if that fails. A failure is
//! skipped with `EMBEDDING_FAILED` (`embed_all`) or leaves the text keyword-only with `NOT_EMBEDDED`
//! (`embed_or_keyword_only`); a vector of the wrong length fails the call either way.

use super::memory::MemoryEngine;
use super::pipeline::Embedded;
use crate::core::error::{MemoryError, Result};
use crate::core::model::types::{AddWarning, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// `texts` embedded in one request, or one by one if that fails, and the texts that failed with why.
    /// A vector of the wrong length is a configuration error, not a passing failure: it fails the call.
    pub(crate) async fn embed_each(&self, texts: &[String]) -> Result<(Embedded, Failed)> {
        let (mut embedded, mut failed) = (Embedded::new(), Vec::new());
        if !self.embedder.is_configured() {
            return Ok((texts.iter().map(|text| (text.clone(), None)).collect(), failed));
        }
        if texts.is_empty() {
            return Ok((embedded, failed));
        }
        let vectors = match self.embedder.embed(texts).await {
            Ok(vectors) => vectors.into_iter().map(Ok).collect(),
            Err(error) if texts.len() == 1 => vec![Err(error)],
            Err(_) => {
                let mut vectors = Vec::with_capacity(texts.len());
                for text in texts {
                    vectors.push(self.embedder.embed_one(text).await);
                }
                vectors
            }
        };
        for (text, vector) in texts.iter().zip(vectors) {
            match vector.and_then(|v| self.fit_index(v)) {
                Ok(vector) => {
                    embedded.insert(text.clone(), Some(vector));
                }
                Err(error @ MemoryError::DimensionMismatch { .. }) => return Err(error),
                Err(error) => failed.push((text.clone(), error)),
            }
        }
        Ok((embedded, failed))
    }

    /// Embeds `texts` (see the module); a text that fails is left out, with an `EMBEDDING_FAILED` warning.
    pub(crate) async fn embed_all(&self, texts: &[String], warnings: &mut Vec<AddWarning>) -> Result<Embedded> {
        let (embedded, failed) = self.embed_each(texts).await?;
        for (text, error) in failed {
            let context = format!("skipped \"{text}\"");
            warnings.push(AddWarning::caused_by_with(WarningCode::EmbeddingFailed, &context, &error));
        }
        Ok(embedded)
    }

    /// Embeds `texts` (see the module); a text that fails gets no vector (`None`), with a `NOT_EMBEDDED`
    /// warning.
    pub(crate) async fn embed_or_keyword_only(
        &self,
        texts: &[String],
        warnings: &mut Vec<AddWarning>,
    ) -> Result<Embedded> {
        let (mut embedded, failed) = self.embed_each(texts).await?;
        for (text, error) in failed {
            let context = format!("stored \"{text}\" without a vector");
            warnings.push(AddWarning::caused_by_with(WarningCode::NotEmbedded, &context, &error));
            embedded.insert(text, None);
        }
        Ok(embedded)
    }
}

/// Texts whose embedding failed, with the error.
pub(crate) type Failed = Vec<(String, MemoryError)>;
