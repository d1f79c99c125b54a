//! The `compressed` mark follows its summary. `compress()` marks a session's memories (`compressed`,
//! `compressedAt`, `compressedInto`); a commit that deletes a compression summary, for good or softly, lifts
//! the mark from the memories it summarised, so reads show them again; a commit that restores a soft-deleted
//! summary puts the mark back on those of its `sourceMemoryIds` that are live and covered by no other
//! summary, so the scope reads as it did before the delete. Each mark and each lifting is an UPDATE in the
//! memory's history, with the text unchanged.

use serde_json::Value;

use crate::core::conversations::Conversations;
use crate::core::model::types::{EventKind, MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The metadata keys of the `compressed` mark.
const MARK: [&str; 3] = ["compressed", "compressedAt", "compressedInto"];

/// True for a summary that `compress()` wrote.
fn is_summary(item: &MemoryItem) -> bool {
    item.metadata.get("compressionSource").and_then(Value::as_bool) == Some(true)
}

/// Marks `item` as compressed into `summary` at `now`.
pub(crate) fn mark(item: &mut MemoryItem, summary: &str, now: &str) {
    item.metadata.insert(MARK[0].into(), Value::Bool(true));
    item.metadata.insert(MARK[1].into(), Value::from(now));
    item.metadata.insert(MARK[2].into(), Value::from(summary));
}

/// True when `changes` already writes the memory `id`.
fn written(changes: &Changeset, id: &str) -> bool {
    changes.deletes.iter().any(|d| d == id) || changes.upserts.iter().any(|m| m.item.id == id)
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Conversations<'_, L, E, S, V> {
    /// Adds to `changes` the lifting of the mark from the originals of every summary it deletes, and the
    /// mark again on the originals of every summary it restores.
    pub(crate) fn follow_summaries(&self, changes: &mut Changeset) {
        self.uncover_originals(changes);
        self.cover_originals(changes);
    }

    fn uncover_originals(&self, changes: &mut Changeset) {
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
        let ids: Vec<String> = index
            .list(usize::MAX, &covered)
            .into_iter()
            .map(|m| m.item.id.clone())
            .filter(|id| !written(changes, id))
            .collect();
        drop(index);
        let originals: Vec<StoredMemory> = ids.iter().filter_map(|id| self.indexed(id)).collect();
        for mut original in originals {
            MARK.iter().for_each(|key| drop(original.item.metadata.remove(*key)));
            self.stage_mark_change(original, changes);
        }
    }

    /// The mark again on the live, uncovered `sourceMemoryIds` of each summary `changes` restores (one the
    /// index holds deleted and `changes` writes live).
    fn cover_originals(&self, changes: &mut Changeset) {
        let restored: Vec<(String, Vec<String>)> = {
            let index = self.index.borrow();
            let was_deleted = |id: &str| index.get(id).is_some_and(|m| m.item.lifecycle.is_deleted());
            let sources = |item: &MemoryItem| -> Vec<String> {
                let ids = item.metadata.get("sourceMemoryIds").and_then(Value::as_array);
                ids.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
            };
            changes
                .upserts
                .iter()
                .filter(|m| is_summary(&m.item) && !m.item.lifecycle.is_deleted() && was_deleted(&m.item.id))
                .map(|m| (m.item.id.clone(), sources(&m.item)))
                .collect()
        };
        let now = self.now_iso();
        for (summary, ids) in restored {
            for id in ids {
                let Some(mut original) = self.indexed(&id) else { continue };
                if written(changes, &id) || original.item.lifecycle.is_deleted() || original.item.is_compressed() {
                    continue;
                }
                mark(&mut original.item, &summary, &now);
                self.stage_mark_change(original, changes);
            }
        }
    }

    /// Stages `original`, its mark changed, with an UPDATE record (the same text before and after).
    pub(crate) fn stage_mark_change(&self, mut original: StoredMemory, changes: &mut Changeset) {
        original.item.updated_at = self.now_iso();
        let text = Some(original.item.memory.clone());
        changes.history.push(self.record(&original.item, EventKind::Update, text.clone(), text));
        changes.upserts.push(original);
    }
}
