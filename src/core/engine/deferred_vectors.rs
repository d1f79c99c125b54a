//! Vectors embedded after the write. The fast pipeline stores a text the decision rewrote without a vector
//! (keyword search still finds it), and `add(…, {infer: false})` and `store()` store a text the embedder
//! failed on that way; each is noted here and, in the same commit, as a side record, so another instance or
//! a restart embeds it too. `settle_vectors` embeds every noted text in one request and writes the vectors;
//! the JS binding starts it as soon as `add()` resolves, and every search, `recall`, export and `add`
//! awaits it first, so none of them ranks without a vector while the embedder answers.
//!
//! Reads send a text at most `MAX_SETTLE_TRIES` times: after that it stays keyword-only and reads stop
//! re-sending it (a read warns with `VECTORS_PENDING`, `stats()` counts it in `keywordOnly`). The next
//! `add()` gives it that many tries again, and so does the next instance (its side record stays).

use serde_json::Value;

use crate::core::engine::memory::MemoryEngine;
use crate::core::error::Result;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The side records of texts waiting for their vector: key = memory id, value = the text.
const KIND: &str = "vectors-pending";
/// The lock `settle_vectors` holds, so two callers never embed the same texts.
const LOCK: &str = "vectors:settle";
/// How often one instance tries to embed a text before leaving it keyword-only.
pub const MAX_SETTLE_TRIES: u32 = 3;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Lets writes store texts before their vector (the host then calls `settle_vectors` once `add()`
    /// resolves).
    pub fn defer_vectors(&self, enabled: bool) {
        self.deferred.enabled.set(enabled);
    }

    /// True while a text waits for its vector and may still be tried (the host should call `settle_vectors`).
    pub fn has_unsettled_vectors(&self) -> bool {
        let tries = self.deferred.tries.borrow();
        self.deferred.pending.borrow().values().any(|text| tries.get(text).is_none_or(|n| *n < MAX_SETTLE_TRIES))
    }

    /// True when texts may be stored before their vector: enabled, an embedder configured, and vectors kept
    /// in this index (a remote index gets every vector with its write).
    pub(crate) fn may_defer_vectors(&self) -> bool {
        self.deferred.enabled.get() && self.embedder.is_configured() && self.remote.index().is_none()
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

    /// Gives every waiting text its tries again (`add()` does, so a text left keyword-only by an outage is
    /// embedded once the embedder is back, without reads re-sending it meanwhile).
    pub(crate) fn retry_unsettled(&self) {
        self.deferred.tries.borrow_mut().clear();
    }

    /// Takes back `note_unsettled` for memory `id`, which `changes` no longer writes.
    pub(crate) fn forget_unsettled(&self, changes: &mut Changeset, id: &str) {
        changes.side.retain(|write| !(write.kind == KIND && write.key == id));
        self.deferred.pending.borrow_mut().remove(id);
    }

    /// `settle_vectors`, best effort: what fails keeps waiting (within its tries), and keyword search still
    /// finds it meanwhile. Reads and `add()` call this first.
    pub async fn settle_quietly(&self) {
        let _ = self.settle_vectors().await; // nothing to do while deferral is off
    }

    /// Embeds every text waiting for its vector that has tries left (one request; one per text if that
    /// fails) and writes the vectors of the memories that still hold that text; memories deleted or
    /// rewritten meanwhile are forgotten. A text that fails counts a try. Waits for a settle already running.
    pub async fn settle_vectors(&self) -> Result<()> {
        if !self.deferred.enabled.get() || !self.embedder.is_configured() {
            return Ok(());
        }
        let _guard = self.locks.lock(LOCK).await;
        if !self.deferred.loaded.get() {
            for record in self.side_records(KIND).await? {
                let text = record.value.as_str().unwrap_or_default().to_owned();
                self.deferred.pending.borrow_mut().entry(record.key).or_insert(text);
            }
            self.deferred.loaded.set(true);
        }
        let (mut changes, mut done) = (Changeset::default(), Vec::new());
        let mut due = Vec::new();
        for (id, text) in self.deferred.pending.borrow().iter() {
            if self.indexed(id).is_none_or(|m| m.item.memory != *text) {
                changes.side.push(SideWrite::delete(KIND, id)); // gone or rewritten: nothing to settle
                done.push((id.clone(), text.clone()));
            } else if self.deferred.tries.borrow().get(text).is_none_or(|n| *n < MAX_SETTLE_TRIES) {
                due.push((id.clone(), text.clone()));
            }
        }
        let mut texts: Vec<String> = due.iter().map(|(_, text)| text.clone()).collect();
        texts.sort();
        texts.dedup();
        let failed = |texts: &mut dyn Iterator<Item = &String>| {
            let mut tries = self.deferred.tries.borrow_mut();
            texts.for_each(|text| *tries.entry(text.clone()).or_default() += 1);
        };
        let embedded = match self.embed_all(&texts, &mut Vec::new()).await {
            Ok(embedded) => embedded,
            Err(error) => {
                failed(&mut texts.iter()); // a vector of the wrong length counts a try too
                return Err(error);
            }
        };
        failed(&mut texts.iter().filter(|text| !embedded.contains_key(*text)));
        for (id, text) in due {
            let Some(Some(vector)) = embedded.get(&text) else { continue };
            changes.side.push(SideWrite::delete(KIND, &id));
            if let Some(mut memory) = self.indexed(&id).filter(|m| m.item.memory == text) {
                memory.embedding = Some(vector.clone());
                changes.upserts.push(memory);
            }
            done.push((id, text));
        }
        self.commit(changes).await?;
        let mut waiting = self.deferred.pending.borrow_mut();
        waiting.retain(|id, text| !done.iter().any(|(i, t)| i == id && t == text));
        let mut tries = self.deferred.tries.borrow_mut();
        tries.retain(|text, _| waiting.values().any(|t| t == text));
        Ok(())
    }
}
