//! The engine's clock and lifecycle settings, and what every write needs from them: timestamps, history
//! records at the engine's "now", and the batch of last accesses that searches leave behind.

use super::memory::{history_record, MemoryEngine};
use crate::core::lifecycle::LifecycleSettings;
use crate::core::model::types::{EventKind, HistoryRecord, MemoryItem};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::time::Clock;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Reads time from `clock` from now on (an app's or a test's).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = self.clock.replaced_by(clock);
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

    /// Milliseconds since the Unix epoch, by the engine's clock (TTLs count from it).
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Now as ISO 8601, for the times a write stamps and the reads that compare them: never before the
    /// turns the engine stamped ahead of the clock or the memories it loaded (see `Clock::stamp_ms`), so a
    /// write lands after them.
    pub fn now_iso(&self) -> String {
        crate::core::time::iso_from_millis(self.clock.stamp_ms())
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
}
