//! Importing an export (see `transfer`), all or nothing, in short turns: the lines are read and checked
//! (staged in RAM), then written to storage in one transaction, then added to the search index. A
//! [`Pace`] ends a turn when it is due, reports progress and may stop the import before its write commits;
//! once the write has committed the import completes, stopped or not.
//!
//! Every vector must have one length: that of the vectors stored already, else the remote vector index's,
//! else the embedder's configured dimensions, else that of the first vector in the file.
//!
//! Memories that come without a vector are embedded after reading, before the write, in requests of
//! [`EMBED_BATCH`] texts, shortest first (an on-device embedder pads a batch to its longest text). A request
//! that fails is sent again one text at a time (see `embed_batch`); what still fails is written without a
//! vector, with one `NOT_EMBEDDED` warning, and embedded later, as `add(…, {infer: false})` does. Once a whole
//! batch fails because the embedding service is unavailable, the rest is not sent. Vectors another embedding
//! model made (the header says which) are imported with an `EMBEDDING_MODEL_CHANGED` warning.

use std::collections::{HashMap, HashSet};

use super::degraded::is_unavailable;
use super::memory::{make_room, MemoryEngine};
use super::transfer::{ExpectedDimension, ImportSummary, Reader};
use crate::core::error::{MemoryError, Result};
use crate::core::model::types::{AddWarning, HistoryRecord, StoredMemory, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pace::{pause, Pace, Phase, Progress, Unpaced};
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Texts per embedding request when an import embeds the memories that came without a vector.
pub const EMBED_BATCH: usize = 64;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Writes an export back, all or nothing: memories are written (replacing any with the same id), and
    /// history records not stored yet are added.
    pub async fn import(&self, jsonl: &str) -> Result<ImportSummary> {
        self.import_paced(jsonl, &Unpaced).await
    }

    /// Like `import`, in turns that `pace` ends, reports and may stop (`ABORTED`, nothing written).
    pub async fn import_paced(&self, jsonl: &str, pace: &dyn Pace) -> Result<ImportSummary> {
        pause(pace, Progress { phase: Phase::Read, done: 0, total: 0 }).await?;
        let mut reader = Reader::new(jsonl, self.import_dimension())?;
        let total = reader.promised();
        pace.report(Progress { phase: Phase::Read, done: 0, total });
        while reader.next_line()? {
            pause(pace, Progress { phase: Phase::Read, done: reader.read(), total }).await?;
        }
        let mut bundle = reader.finish()?;
        let kinds = self.importable_side_kinds();
        if let Some(unknown) = bundle.side.iter().find(|line| !kinds.contains(&line.of.as_str())) {
            let why = format!("import: side records of kind {:?} are not kept by this build", unknown.of);
            return Err(MemoryError::InvalidInput(why));
        }
        pace.report(Progress { phase: Phase::Read, done: total, total });
        let (mut warnings, not_embedded) = self.embed_vectorless(&mut bundle.memories, pace).await?;
        let with_vectors = bundle.memories.iter().any(|memory| memory.embedding.is_some());
        let made_by = bundle.embedder.as_ref().filter(|_| with_vectors);
        warnings.extend(made_by.and_then(|model| self.imported_model_warning(model)));

        let stored = self.stored_history_ids(&bundle.history).await?;
        let history: Vec<HistoryRecord> = bundle.history.into_iter().filter(|r| !stored.contains(&r.id)).collect();
        let summary = ImportSummary { memories: bundle.memories.len(), history: history.len(), warnings };
        let side = bundle.side.into_iter().map(|line| SideWrite::put(&line.of, &line.key, line.value)).collect();
        let mut changes = Changeset { upserts: bundle.memories, history, side, ..Changeset::default() };
        if !not_embedded.is_empty() {
            self.note_unsettled(&mut changes, &not_embedded);
        }
        let records = summary.memories + summary.history;
        pause(pace, Progress { phase: Phase::Write, done: 0, total: records }).await?;
        self.commit_paced(changes, pace).await?;
        Ok(summary)
    }

    /// Embeds the memories without a vector (see the module), reporting the `Embed` phase and stopping
    /// between requests when `pace` says; returns the warning and the texts written without a vector.
    pub(crate) async fn embed_vectorless(
        &self,
        memories: &mut [StoredMemory],
        pace: &dyn Pace,
    ) -> Result<(Vec<AddWarning>, Vec<String>)> {
        let mut texts: Vec<String> =
            memories.iter().filter(|m| m.embedding.is_none()).map(|m| m.item.memory.clone()).collect();
        if texts.is_empty() || !self.embedder.is_configured() {
            return Ok((Vec::new(), Vec::new()));
        }
        texts.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        texts.dedup();
        let in_file = memories.iter().find_map(|m| m.embedding.as_ref().map(Vec::len));
        let total = texts.len();
        pace.report(Progress { phase: Phase::Embed, done: 0, total });
        let (mut vectors, mut failed, mut cause) = (HashMap::new(), Vec::new(), None::<MemoryError>);
        for (number, batch) in texts.chunks(EMBED_BATCH).enumerate() {
            pause(pace, Progress { phase: Phase::Embed, done: number * EMBED_BATCH, total }).await?;
            if cause.as_ref().is_some_and(is_unavailable) {
                failed.extend_from_slice(batch);
                continue;
            }
            let (embedded, batch_failed) = self.embed_each(batch).await?;
            for (text, vector) in embedded {
                let Some(vector) = vector else { continue };
                if let Some(expected) = in_file.filter(|expected| *expected != vector.len()) {
                    return Err(MemoryError::DimensionMismatch { expected, actual: vector.len() });
                }
                vectors.insert(text, vector);
            }
            let outage =
                batch_failed.len() == batch.len() && batch_failed.iter().all(|(_, error)| is_unavailable(error));
            for (text, error) in batch_failed {
                failed.push(text);
                if cause.is_none() || outage {
                    cause = Some(error);
                }
            }
        }
        pause(pace, Progress { phase: Phase::Embed, done: total, total }).await?;
        pace.report(Progress { phase: Phase::Embed, done: total, total });
        for memory in memories.iter_mut().filter(|m| m.embedding.is_none()) {
            memory.embedding = vectors.get(&memory.item.memory).cloned();
        }
        let Some(cause) = cause else { return Ok((Vec::new(), failed)) };
        let count = memories.iter().filter(|m| m.embedding.is_none()).count();
        let noun = if count == 1 { "memory" } else { "memories" };
        let first = failed.first().cloned().unwrap_or_default();
        let context =
            format!("imported {count} {noun} without a vector (the first: \"{first}\"); they are embedded later");
        Ok((vec![AddWarning::caused_by_with(WarningCode::NotEmbedded, &context, &cause)], failed))
    }

    /// Mirrors a commit in the index (see `mirror`), one memory at a time, ending turns when `pace` says
    /// (the write has committed: no stopping now).
    pub(crate) async fn mirror_paced(
        &self,
        deletes: &[String],
        upserts: Vec<StoredMemory>,
        pace: &dyn Pace,
    ) -> Result<()> {
        self.mirror(false, deletes, Vec::new())?;
        let total = upserts.len();
        make_room(&mut *self.index.borrow_mut(), &mut self.keywords.borrow_mut(), total);
        for (done, memory) in upserts.into_iter().enumerate() {
            if pace.due() {
                pace.report(Progress { phase: Phase::Index, done, total });
                pace.yield_now().await;
            }
            self.mirror(false, &[], vec![memory])?;
        }
        pace.report(Progress { phase: Phase::Index, done: total, total });
        Ok(())
    }

    /// The length the memory's vectors have (see the module's rule), and why.
    fn import_dimension(&self) -> Option<ExpectedDimension> {
        let expected =
            |dimension: usize, basis: &str| ExpectedDimension { dimension, basis: format!("{basis} {dimension}") };
        if let Some(stored) = self.index.borrow().dimension() {
            return Some(expected(stored, "the memories stored here have"));
        }
        if let Some(remote) = self.remote.dimension.get() {
            return Some(expected(remote, "the remote vector index holds vectors of"));
        }
        self.embedder.dimensions().map(|configured| expected(configured, "the embedder is configured for"))
    }

    pub(crate) async fn stored_history_ids(&self, records: &[HistoryRecord]) -> Result<HashSet<String>> {
        if records.is_empty() {
            return Ok(HashSet::new());
        }
        if let Some(all) = self.storage.all_history().await? {
            return Ok(all.into_iter().map(|record| record.id).collect());
        }
        let mut ids = HashSet::new();
        let memory_ids: HashSet<&str> = records.iter().map(|record| record.memory_id.as_str()).collect();
        for memory_id in memory_ids {
            ids.extend(self.storage.history(memory_id).await?.into_iter().map(|record| record.id));
        }
        Ok(ids)
    }
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
