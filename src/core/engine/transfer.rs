//! Export and import: memories (with their embeddings) and history as JSON Lines, for backups and for
//! moving memory between a browser and a Worker. The round trip is exact, whatever the storage.
//!
//! The first line is a header, `{"kind":"memwasm-export","version":2,"memories":M,"history":H}` (and
//! `"embedder":{provider, model, dimensions}`, the model the vectors come from, when known); then M
//! `{"kind":"memory",…MemoryItem, "embedding":"<base64 of little-endian f32>"}` lines and H
//! `{"kind":"history",…HistoryRecord}` lines, memories by creation time and history by time (see `Bundle::in_order`). An
//! import checks every line before it writes anything.
//!
//! Then, when there are some, S `{"kind":"side","of":KIND,"key":KEY,"value":…}` lines (the header says
//! `"side":S`): the side records a feature keeps per memory (keyed `<memoryId>/…`, such as a memory's
//! sources), of the exported memories and history, in kind then key order. An import writes them back; it
//! refuses a kind no feature of this build exports. An older memwasm refuses such a file at its first side
//! line; a file without side records is the same as before.
//!
//! Version 2 added the lifecycle fields to memory lines (soft-deleted and expired memories are exported
//! too, marked as such); version 1 files still import, their memories with the lifecycle defaults. The
//! version changed so that an older memwasm refuses a version 2 file instead of importing it without those
//! fields (which would bring soft-deleted memories back and drop expiries, pins and keys).

use serde::{Deserialize, Serialize};

use super::embedding_model::EmbeddingModel;
use super::memory::MemoryEngine;
use crate::core::codec::vector_to_base64;
use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddWarning, EventKind, HistoryRecord, MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// The format version this library writes (and the newest it reads).
pub const EXPORT_VERSION: u32 = 2;
/// The oldest format version this library reads.
pub const OLDEST_EXPORT_VERSION: u32 = 1;

/// One line of an export.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Line {
    #[serde(rename = "memwasm-export")]
    Header {
        version: u32,
        memories: usize,
        history: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        embedder: Option<EmbeddingModel>,
        #[serde(default, skip_serializing_if = "is_zero")]
        side: usize,
    },
    Memory(Box<ExportedMemory>),
    History(HistoryRecord),
    Side(SideLine),
}

/// A side-record line of an export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideLine {
    /// The record's kind.
    pub of: String,
    pub key: String,
    pub value: serde_json::Value,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// A memory line of an export (and a memory of a sync entry): the record, its vector in base64.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportedMemory {
    #[serde(flatten)]
    pub item: MemoryItem,
    #[serde(default)]
    pub embedding: Option<String>,
}

/// What an export holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bundle {
    pub memories: Vec<StoredMemory>,
    pub history: Vec<HistoryRecord>,
    /// The model the vectors come from, when known.
    pub embedder: Option<EmbeddingModel>,
    /// Side records kept per memory (see the module), in kind then key order.
    pub side: Vec<SideLine>,
}

impl Bundle {
    /// Memories by creation time (ties by id) and history by time (ties: ADD, UPDATE, NONE, DELETE, then id):
    /// two stores that hold the same records export the same text, whatever order they were written in (a
    /// synced device, a restored backup).
    pub fn in_order(mut self) -> Self {
        self.memories = sorted(self.memories, |m| format!("{}\u{0}{}", m.item.created_at, m.item.id));
        let rank = |event: EventKind| match event {
            EventKind::Add => 0,
            EventKind::Update => 1,
            EventKind::None => 2,
            EventKind::Delete => 3,
        };
        self.history = sorted(self.history, |r| format!("{}\u{0}{}{}", r.timestamp, rank(r.event), r.id));
        self
    }
}

/// `items` in the order of their `key`s (one sort of text keys, shared by every item type).
pub(crate) fn sorted<T>(items: Vec<T>, key: impl Fn(&T) -> String) -> Vec<T> {
    let mut keys: Vec<(String, usize)> = items.iter().map(&key).zip(0..).collect();
    keys.sort_unstable();
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    keys.into_iter().filter_map(|(_, at)| slots.get_mut(at).and_then(Option::take)).collect()
}

/// How much an import wrote.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImportSummary {
    /// Memories written (new or replaced by id).
    pub memories: usize,
    /// History records added (records already stored are not added twice).
    pub history: usize,
    /// Memories that came without a vector and could not be embedded (`NOT_EMBEDDED`): they were written
    /// without one (keyword search finds them) and are embedded later; vectors another embedding model made
    /// (`EMBEDDING_MODEL_CHANGED`). Left out when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}

/// `bundle` as JSON Lines, header first.
pub fn to_jsonl(bundle: &Bundle) -> String {
    // Two passes, the first measuring: the text is allocated once at its size, not grown by doubling, which
    // would hold up to three times an export of many memories in memory at the peak.
    let size: usize = lines(bundle).map(|line| line.len() + 1).sum();
    let mut text = String::with_capacity(size);
    for line in lines(bundle) {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// Each line of `bundle`'s export, as JSON.
fn lines(bundle: &Bundle) -> impl Iterator<Item = String> + '_ {
    let (memories, history, embedder) = (bundle.memories.len(), bundle.history.len(), bundle.embedder.clone());
    let header = Line::Header { version: EXPORT_VERSION, memories, history, embedder, side: bundle.side.len() };
    let memories = bundle.memories.iter().map(|memory| {
        let item = MemoryItem { score: None, ..memory.item.clone() };
        Line::Memory(Box::new(ExportedMemory { item, embedding: memory.embedding.as_deref().map(vector_to_base64) }))
    });
    let history = bundle.history.iter().cloned().map(Line::History);
    let side = bundle.side.iter().cloned().map(Line::Side);
    std::iter::once(header)
        .chain(memories)
        .chain(history)
        .chain(side)
        .map(|line| serde_json::to_string(&line).unwrap_or_default())
}

#[path = "transfer_read.rs"]
mod read;
pub use read::{ExpectedDimension, Reader};

/// Reads and checks an export; `INVALID_INPUT` names the first bad line.
pub fn from_jsonl(text: &str) -> Result<Bundle> {
    let mut reader = Reader::new(text, None)?;
    while reader.next_line()? {}
    reader.finish()
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The memories in `scope` (everything for an empty scope) and their history, as JSON Lines.
    pub async fn export(&self, scope: Scope) -> Result<String> {
        let scope = if scope == Scope::default() { scope } else { scope.validated()? };
        self.load_scope(&scope).await?;
        self.settle_quietly().await;
        let items: Vec<MemoryItem> = {
            let index = self.index.borrow();
            index.list(usize::MAX, &|item| scope.contains(&item.scope)).into_iter().map(|m| m.item.clone()).collect()
        };
        // Neither an int8 index nor a remote one keeps f32 vectors in its records: export those it gives.
        let mut vectors =
            self.remote_vectors().vectors_of(&items.iter().map(|item| item.id.clone()).collect::<Vec<_>>()).await?;
        let memories: Vec<StoredMemory> =
            items.into_iter().map(|item| StoredMemory { embedding: vectors.remove(&item.id), item }).collect();
        let history = match self.storage.all_history().await? {
            Some(all) => all.into_iter().filter(|record| scope.contains(&record.scope)).collect(),
            None => {
                let mut history = Vec::new();
                for memory in &memories {
                    history.extend(self.storage.history(&memory.item.id).await?);
                }
                history
            }
        };
        let embedder = self.recorded_embedding_model().await?;
        let side = self.exported_side(&memories, &history).await?;
        Ok(to_jsonl(&Bundle { memories, history, embedder, side }.in_order()))
    }

    /// The side records the features keep per memory (`EngineHooks::exported_side_kind`) of `memories`
    /// and of the memories `history` names.
    pub(crate) async fn exported_side(
        &self,
        memories: &[StoredMemory],
        history: &[HistoryRecord],
    ) -> Result<Vec<SideLine>> {
        let kinds: Vec<&'static str> = self.extensions.hooks().filter_map(|hooks| hooks.exported_side_kind()).collect();
        if kinds.is_empty() {
            return Ok(Vec::new());
        }
        let ids: std::collections::HashSet<&str> = (memories.iter().map(|m| m.item.id.as_str()))
            .chain(history.iter().map(|record| record.memory_id.as_str()))
            .collect();
        let mut lines = Vec::new();
        for kind in kinds {
            let records = self.side_records(kind).await?;
            // A key is `<memoryId>/…`, and an id may hold a `/` itself: any prefix ending before a `/` may be it.
            let of_these =
                records.into_iter().filter(|r| r.key.match_indices('/').any(|(at, _)| ids.contains(&r.key[..at])));
            lines.extend(of_these.map(|r| SideLine { of: kind.to_owned(), key: r.key, value: r.value }));
        }
        Ok(lines)
    }

    /// The kinds of side records an import may write back (those the features export).
    pub(crate) fn importable_side_kinds(&self) -> Vec<&'static str> {
        self.extensions.hooks().filter_map(|hooks| hooks.exported_side_kind()).collect()
    }
}

#[cfg(test)]
#[path = "transfer_tests.rs"]
mod tests;
