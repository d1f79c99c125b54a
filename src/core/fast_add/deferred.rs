//! Vectors embedded after the write. The fast pipeline stores a text the decision rewrote without a vector
//! (keyword search still finds it), and `add(…, {infer: false})` and `store()` store a text the embedder
//! failed on that way; each is noted here and, in the same commit, as a side record, so another instance or
//! a restart embeds it too. `settle_vectors` embeds every
//! noted text in one request and writes the vectors; the JS binding starts it as soon as `add()` resolves,
//! and every search, `recall`, export and `add` awaits it first, so none of them ranks without a vector.

use serde_json::Value;

use crate::core::error::Result;
use crate::core::memory::MemoryEngine;
use crate::core::models::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The side records of texts waiting for their vector: key = memory id, value = the text.
const KIND: &str = "vectors-pending";
/// The lock `settle_vectors` holds, so two callers never embed the same texts.
const LOCK: &str = "vectors:settle";

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Lets the fast pipeline store rewritten texts before their vector (the host then calls
    /// `settle_vectors` once `add()` resolves).
    pub fn defer_vectors(&self, enabled: bool) {
        self.deferred.enabled.set(enabled);
    }

    /// True while a text waits for its vector (the host should call `settle_vectors`).
    pub fn has_unsettled_vectors(&self) -> bool {
        !self.deferred.pending.borrow().is_empty()
    }

    /// True when rewritten texts may be stored before their vector: enabled, an embedder configured, and
    /// vectors kept in this index (a remote index gets every vector with its write).
    pub(crate) fn may_defer_vectors(&self) -> bool {
        self.deferred.enabled.get() && self.embedder.is_configured() && self.remote.index.is_none()
    }

    /// Notes that the memories `changes` writes with one of `texts` and no vector wait for that vector (when
    /// vectors may be deferred at all).
    pub(crate) fn note_unsettled(&self, changes: &mut Changeset, texts: &[String]) {
        if !self.may_defer_vectors() {
            return;
        }
        let waiting: Vec<(String, String)> = changes
            .upserts
            .iter()
            .filter(|m| m.embedding.is_none() && texts.contains(&m.item.memory))
            .map(|m| (m.item.id.clone(), m.item.memory.clone()))
            .collect();
        for (id, text) in waiting {
            changes.side.push(SideWrite::put(KIND, &id, Value::String(text.clone())));
            self.deferred.pending.borrow_mut().insert(id, text);
        }
    }

    /// Takes back `note_unsettled` for memory `id`, which `changes` no longer writes.
    pub(crate) fn forget_unsettled(&self, changes: &mut Changeset, id: &str) {
        changes.side.retain(|write| !(write.kind == KIND && write.key == id));
        self.deferred.pending.borrow_mut().remove(id);
    }

    /// `settle_vectors`, best effort: what fails keeps waiting for the next call, and keyword search still
    /// finds it meanwhile. Reads and `add()` call this first.
    pub async fn settle_quietly(&self) {
        let _ = self.settle_vectors().await; // nothing to do while deferral is off
    }

    /// Embeds every text waiting for its vector (one request; one per text if that fails) and writes the
    /// vectors of the memories that still hold that text; the rest are forgotten. Waits for a settle already
    /// running. When no text could be embedded, they all keep waiting, for the next call.
    pub async fn settle_vectors(&self) -> Result<()> {
        if !self.deferred.enabled.get() {
            return Ok(());
        }
        let _guard = self.conversations.locks.lock(LOCK).await;
        if !self.deferred.loaded.get() {
            for record in self.side_records(KIND).await? {
                let text = record.value.as_str().unwrap_or_default().to_owned();
                self.deferred.pending.borrow_mut().entry(record.key).or_insert(text);
            }
            self.deferred.loaded.set(true);
        }
        let pending = self.deferred.pending.borrow().clone();
        if pending.is_empty() {
            return Ok(());
        }
        let mut texts: Vec<String> = pending.values().cloned().collect();
        texts.sort();
        texts.dedup();
        let embedded = self.embed_all(&texts, &mut Vec::new()).await?;
        if embedded.is_empty() {
            return Ok(()); // the embedder is unreachable: everything keeps waiting
        }
        let mut changes = Changeset::default();
        for (id, text) in &pending {
            changes.side.push(SideWrite::delete(KIND, id));
            // A text the embedder refuses on its own while others pass stays keyword-only, not retried forever.
            let Some(Some(vector)) = embedded.get(text) else { continue };
            let Some(mut memory) = self.indexed(id).filter(|m| m.item.memory == *text) else { continue };
            memory.embedding = Some(vector.clone());
            changes.upserts.push(memory);
        }
        self.commit(changes).await?;
        let mut waiting = self.deferred.pending.borrow_mut();
        waiting.retain(|id, text| pending.get(id) != Some(text));
        Ok(())
    }
}
