//! Importing an export (see `transfer`), all or nothing, in short turns: the lines are read and checked
//! (staged in RAM), then written to storage in one transaction, then added to the search index. A
//! [`Pace`] ends a turn when it is due, reports progress and may stop the import before its write commits;
//! once the write has committed the import completes, stopped or not.
//!
//! Every vector must have one length: that of the vectors stored already, else the remote vector index's,
//! else the embedder's configured dimensions, else that of the first vector in the file.

use std::collections::HashSet;

use super::error::Result;
use super::memory::MemoryEngine;
use super::models::{Embedder, Llm};
use super::pace::{pause, Pace, Phase, Progress, Unpaced};
use super::storage::{Changeset, Storage};
use super::transfer::{ExpectedDimension, ImportSummary, Reader};
use super::types::{HistoryRecord, StoredMemory};
use super::vector_store::VectorStore;

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
        let bundle = reader.finish()?;
        pace.report(Progress { phase: Phase::Read, done: total, total });

        let stored = self.stored_history_ids(&bundle.history).await?;
        let history: Vec<HistoryRecord> = bundle.history.into_iter().filter(|r| !stored.contains(&r.id)).collect();
        let summary = ImportSummary { memories: bundle.memories.len(), history: history.len() };
        let changes = Changeset { upserts: bundle.memories, history, ..Changeset::default() };
        let records = summary.memories + summary.history;
        pause(pace, Progress { phase: Phase::Write, done: 0, total: records }).await?;
        self.commit_paced(changes, pace).await?;
        Ok(summary)
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

    async fn stored_history_ids(&self, records: &[HistoryRecord]) -> Result<HashSet<String>> {
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
