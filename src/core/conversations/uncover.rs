//! Originals stay hidden only while a summary covers them: a commit that deletes a compression summary, for
//! good or softly, also lifts the `compressed` mark (`compressed`, `compressedAt`, `compressedInto`) from the
//! memories it summarised, each with an UPDATE in its history, so reads show them again.

use serde_json::Value;

use crate::core::conversations::Conversations;
use crate::core::model::types::{EventKind, MemoryItem};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The metadata keys of the `compressed` mark.
const MARK: [&str; 3] = ["compressed", "compressedAt", "compressedInto"];

/// True for a summary that `compress()` wrote.
fn is_summary(item: &MemoryItem) -> bool {
    item.metadata.get("compressionSource").and_then(Value::as_bool) == Some(true)
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// Adds to `changes` the lifting of the mark from the originals of every summary it deletes.
    pub(crate) fn uncover_originals(&self, changes: &mut Changeset) {
        let index = self.index.borrow();
        let deleted = changes.deletes.iter().filter(|id| index.get(id).is_some_and(|m| is_summary(&m.item)));
        let soft = changes.upserts.iter().filter(|m| is_summary(&m.item) && m.item.lifecycle.is_deleted());
        let gone: Vec<&str> = deleted.map(String::as_str).chain(soft.map(|m| m.item.id.as_str())).collect();
        if gone.is_empty() {
            return;
        }
        let covered = |item: &MemoryItem| {
            let into = item.metadata.get("compressedInto").and_then(Value::as_str);
            into.is_some_and(|id| gone.contains(&id))
        };
        let written =
            |id: &str| changes.deletes.iter().any(|d| d == id) || changes.upserts.iter().any(|m| m.item.id == id);
        let ids: Vec<String> =
            index.list(usize::MAX, &covered).into_iter().map(|m| m.item.id.clone()).filter(|id| !written(id)).collect();
        drop(index);
        let now = self.now_iso();
        for id in ids {
            let Some(mut original) = self.indexed(&id) else { continue };
            MARK.iter().for_each(|key| drop(original.item.metadata.remove(*key)));
            original.item.updated_at = now.clone();
            let text = Some(original.item.memory.clone());
            changes.history.push(self.record(&original.item, EventKind::Update, text.clone(), text));
            changes.upserts.push(original);
        }
    }
}
