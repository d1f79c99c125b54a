//! The engine's clock and lifecycle settings, and what every write needs from them: timestamps, history
//! records at the engine's "now", and the batch of last accesses that searches leave behind.

use std::collections::HashMap;

use super::memory::{history_record, MemoryEngine};
use crate::core::lifecycle::LifecycleSettings;
use crate::core::model::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::time::Clock;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Reads time from `clock` from now on (an app's or a test's).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// Counts tokens with `counter` from now on (e.g. an exact BPE tokenizer an app supplies).
    pub fn set_token_counter(&mut self, counter: crate::core::tokens::TokenCounter) {
        self.tokens = counter;
    }

    /// Uses `settings` (`importance.minToStore`, `limits`) from now on.
    pub fn set_lifecycle(&mut self, settings: LifecycleSettings) {
        self.lifecycle = settings;
    }

    /// Moves vector storage and search to `remote`; call `engine.remote_vectors().backfill_remote()` next when the index
    /// was loaded from storage. Only in a build with `extras` (the browser's core module holds no remote index).
    #[cfg(feature = "extras")]
    pub fn set_remote_vectors(&mut self, remote: impl crate::core::vector_store::remote::RemoteVectors + 'static) {
        self.remote = crate::core::vector_store::remote_slot::RemoteSlot::new(remote);
    }

    /// True when vectors are searched remotely.
    pub fn has_remote_vectors(&self) -> bool {
        self.remote.index().is_some()
    }

    /// Uses `pipeline` for the `add()` calls that name none.
    pub fn set_pipeline(&mut self, pipeline: crate::core::add_pipeline::Pipeline) {
        self.pipeline = pipeline;
    }

    /// `false` (mem0's `disableHistory`): changes leave no history records from now on.
    pub fn set_keep_history(&mut self, keep: bool) {
        self.keep_history = keep;
    }

    /// Milliseconds since the Unix epoch, by the engine's clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Now, as ISO 8601, by the engine's clock.
    pub fn now_iso(&self) -> String {
        self.clock.now_iso()
    }

    /// A history record for `item`, now.
    pub(crate) fn record(
        &self,
        item: &MemoryItem,
        event: EventKind,
        old: Option<String>,
        new: Option<String>,
    ) -> HistoryRecord {
        history_record(item, event, old, new, self.now_iso())
    }

    /// Notes that a search returned `ids` now; written later, in one batch (see `take_accesses`).
    pub(crate) fn touch<'a>(&self, ids: impl IntoIterator<Item = &'a str>) {
        let now = self.now_iso();
        let mut accessed = self.accessed.borrow_mut();
        for id in ids {
            accessed.insert(id.to_owned(), now.clone());
        }
    }

    /// The memories whose noted last access is newer than what they hold, with it applied; the notes are
    /// cleared. Callers write them with their next commit.
    pub(crate) fn take_accesses(&self) -> Vec<StoredMemory> {
        let accessed: HashMap<String, String> = std::mem::take(&mut *self.accessed.borrow_mut());
        accessed
            .into_iter()
            .filter_map(|(id, at)| {
                let mut memory = self.indexed(&id)?;
                let newer = memory.item.lifecycle.last_accessed_at.as_ref().is_none_or(|held| *held < at);
                newer.then(|| {
                    memory.item.lifecycle.last_accessed_at = Some(at);
                    memory
                })
            })
            .collect()
    }

    /// Writes the last accesses searches noted (one commit for all of them). `decay()` does it first on its
    /// own; hosts whose engine lives for one request (the Worker) call it after a search.
    pub async fn flush_accesses(&self) -> crate::core::error::Result<()> {
        let touched = self.take_accesses();
        self.commit(crate::core::storage::Changeset { upserts: touched, ..Default::default() }).await
    }
}
