//! `reembed()`: every stored memory embedded again with the configured embedder, in batches (as an import
//! embeds the memories that come without a vector), then written in one transaction together with the
//! record of the model (see `embedding_model`): the fix `EMBEDDING_MODEL_CHANGED` points to. A memory whose
//! embedding fails is written without a vector (`NOT_EMBEDDED`) and embedded later; its old vector, made by
//! the other model, is not kept.

use serde::Serialize;

use super::embedding_model::embedding_model_record;
use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddWarning, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pace::{pause, Pace, Phase, Progress, Unpaced};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// What `reembed` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReembedSummary {
    /// Memories embedded again (those with `warnings` are written without a vector, embedded later).
    pub memories: usize,
    /// `NOT_EMBEDDED`, when some memories could not be embedded now. Left out when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Embeds every stored memory again with the configured embedder (see the module).
    pub async fn reembed(&self) -> Result<ReembedSummary> {
        self.reembed_paced(&Unpaced).await
    }

    /// Like `reembed`, in turns that `pace` ends, reports (`embed`, `write`, `index`) and may stop
    /// (`ABORTED`, nothing written).
    pub async fn reembed_paced(&self, pace: &dyn Pace) -> Result<ReembedSummary> {
        if !self.embedder.is_configured() {
            let why = "reembed() needs an embedder, and embedder.provider is \"none\"";
            return Err(MemoryError::InvalidInput(why.into()));
        }
        self.load_scope(&Scope::default()).await?;
        let mut memories: Vec<StoredMemory> = {
            let index = self.index.borrow();
            index
                .list(usize::MAX, &|_| true)
                .into_iter()
                .map(|memory| StoredMemory { embedding: None, ..memory.clone() })
                .collect()
        };
        let (warnings, not_embedded) = self.embed_vectorless(&mut memories, pace).await.map_err(stopped)?;
        let summary = ReembedSummary { memories: memories.len(), warnings };
        let mut changes = Changeset { upserts: memories, ..Changeset::default() };
        if let Some(model) = self.current_embedding_model() {
            changes.side.push(embedding_model_record(&model));
        }
        self.note_unsettled(&mut changes, &not_embedded);
        pause(pace, Progress { phase: Phase::Write, done: 0, total: summary.memories }).await.map_err(stopped)?;
        self.commit_paced(changes, pace).await?;
        Ok(summary)
    }
}

/// `ABORTED` in `reembed`'s words; other errors as they are.
fn stopped(error: MemoryError) -> MemoryError {
    match error {
        MemoryError::Aborted(_) => MemoryError::Aborted(
            "reembed() was stopped by its AbortSignal; nothing was written (call it again to finish)".into(),
        ),
        other => other,
    }
}
