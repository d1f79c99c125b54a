//! Export and import: memories (with their embeddings) and history as JSON Lines, for backups and for
//! moving memory between a browser and a Worker. The round trip is exact, whatever the storage.
//!
//! The first line is a header, `{"kind":"memwasm-export","version":2,"memories":M,"history":H}`; then M
//! `{"kind":"memory",…MemoryItem, "embedding":"<base64 of little-endian f32>"}` lines and H
//! `{"kind":"history",…HistoryRecord}` lines. An import checks every line before it writes anything.
//!
//! Version 2 added the lifecycle fields to memory lines (soft-deleted and expired memories are exported
//! too, marked as such); version 1 files still import, their memories with the lifecycle defaults. The
//! version changed so that an older memwasm refuses a version 2 file instead of importing it without those
//! fields (which would bring soft-deleted memories back and drop expiries, pins and keys).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::codec::{vector_from_base64, vector_to_base64};
use super::error::{MemoryError, Result};
use super::identity::content_hash;
use super::limits::{MAX_IMPORT_LINE_BYTES, MAX_IMPORT_MEMORIES};
use super::memory::MemoryEngine;
use super::scope::Scope;
use super::storage::{Changeset, Storage};
use super::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use super::vector_store::VectorStore;
use crate::core::models::{Embedder, Llm};

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
    },
    Memory(Box<ExportedMemory>),
    History(HistoryRecord),
}

#[derive(Serialize, Deserialize)]
struct ExportedMemory {
    #[serde(flatten)]
    item: MemoryItem,
    #[serde(default)]
    embedding: Option<String>,
}

/// What an export holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bundle {
    pub memories: Vec<StoredMemory>,
    pub history: Vec<HistoryRecord>,
}

/// How much an import wrote.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImportSummary {
    /// Memories written (new or replaced by id).
    pub memories: usize,
    /// History records added (records already stored are not added twice).
    pub history: usize,
}

/// `bundle` as JSON Lines, header first.
pub fn to_jsonl(bundle: &Bundle) -> String {
    let header =
        Line::Header { version: EXPORT_VERSION, memories: bundle.memories.len(), history: bundle.history.len() };
    let memories = bundle.memories.iter().map(|memory| {
        let item = MemoryItem { score: None, ..memory.item.clone() };
        Line::Memory(Box::new(ExportedMemory { item, embedding: memory.embedding.as_deref().map(vector_to_base64) }))
    });
    let history = bundle.history.iter().cloned().map(Line::History);
    std::iter::once(header)
        .chain(memories)
        .chain(history)
        .map(|line| serde_json::to_string(&line).unwrap_or_default() + "\n")
        .collect()
}

/// Reads and checks an export; `INVALID_INPUT` names the first bad line.
pub fn from_jsonl(text: &str) -> Result<Bundle> {
    let mut lines = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty());
    let Some((_, first)) = lines.next() else { return Err(bad(1, "empty input, expected a memwasm export".into())) };
    let Ok(Line::Header { version, memories, history }) = serde_json::from_str(first) else {
        return Err(bad(1, "not a memwasm export (the first line must be its header)".into()));
    };
    if !(OLDEST_EXPORT_VERSION..=EXPORT_VERSION).contains(&version) {
        let reads = format!("this library reads versions {OLDEST_EXPORT_VERSION} to {EXPORT_VERSION}");
        return Err(bad(1, format!("export version {version} is not supported ({reads})")));
    }
    if memories > MAX_IMPORT_MEMORIES {
        return Err(bad(1, format!("an import exceeds the limit of {MAX_IMPORT_MEMORIES} memories ({memories})")));
    }
    let mut bundle = Bundle::default();
    let mut ids = HashSet::new();
    for (index, text) in lines {
        let number = index + 1;
        if text.len() > MAX_IMPORT_LINE_BYTES {
            return Err(bad(number, format!("the line exceeds the limit of {MAX_IMPORT_LINE_BYTES} bytes")));
        }
        let line = serde_json::from_str(text).map_err(|error| bad(number, error.to_string()))?;
        match line {
            Line::Header { .. } => return Err(bad(number, "a second header".into())),
            // The header promised at most the limit: more memory lines than that is a bad file (stop reading).
            Line::Memory(_) if bundle.memories.len() >= MAX_IMPORT_MEMORIES => {
                return Err(bad(number, format!("an import exceeds the limit of {MAX_IMPORT_MEMORIES} memories")));
            }
            Line::Memory(memory) => {
                let memory = checked_memory(*memory).map_err(|why| bad(number, why))?;
                if let Some(first) = bundle.memories.iter().find_map(|m: &StoredMemory| m.embedding.as_ref()) {
                    let length = memory.embedding.as_ref().map_or(first.len(), Vec::len);
                    if length != first.len() {
                        return Err(bad(
                            number,
                            format!("embedding has {length} dimensions, earlier ones {}", first.len()),
                        ));
                    }
                }
                if !ids.insert(("memory", memory.item.id.clone())) {
                    return Err(bad(number, format!("memory {} appears twice", memory.item.id)));
                }
                bundle.memories.push(memory);
            }
            Line::History(record) => {
                if record.event == EventKind::None || record.memory_id.trim().is_empty() || record.id.trim().is_empty()
                {
                    return Err(bad(
                        number,
                        "a history record needs an id, a memoryId and an ADD/UPDATE/DELETE event".into(),
                    ));
                }
                if !ids.insert(("history", record.id.clone())) {
                    return Err(bad(number, format!("history record {} appears twice", record.id)));
                }
                bundle.history.push(record);
            }
        }
    }
    if (bundle.memories.len(), bundle.history.len()) != (memories, history) {
        let found = format!("{} memories and {} history records", bundle.memories.len(), bundle.history.len());
        return Err(bad(
            1,
            format!("the header promises {memories} memories and {history} history records, found {found}"),
        ));
    }
    Ok(bundle)
}

fn checked_memory(memory: ExportedMemory) -> std::result::Result<StoredMemory, String> {
    let item = MemoryItem { score: None, ..memory.item };
    if item.id.trim().is_empty() {
        return Err("a memory needs an id".into());
    }
    if item.hash != content_hash(&item.memory) {
        return Err(format!("hash of memory {} does not match its text", item.id));
    }
    item.scope.clone().validated().map_err(|error| format!("memory {}: {error}", item.id))?;
    let embedding = memory.embedding.as_deref().map(vector_from_base64).transpose().map_err(|error| match error {
        MemoryError::InvalidInput(why) => why,
        other => other.to_string(),
    })?;
    if let Some(vector) = &embedding {
        let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        if (norm - 1.0).abs() > 1e-3 {
            return Err(format!("embedding of memory {} is not unit length", item.id));
        }
    }
    Ok(StoredMemory { item, embedding })
}

fn bad(line: usize, why: String) -> MemoryError {
    MemoryError::InvalidInput(format!("import line {line}: {why}"))
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
        let mut vectors = self.vectors_of(&items.iter().map(|item| item.id.clone()).collect::<Vec<_>>()).await?;
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
        Ok(to_jsonl(&Bundle { memories, history }))
    }

    /// Writes an export back, all or nothing: memories are written (replacing any with the same id), and
    /// history records not stored yet are added.
    pub async fn import(&self, jsonl: &str) -> Result<ImportSummary> {
        let bundle = from_jsonl(jsonl)?;
        let incoming = bundle.memories.iter().find_map(|memory| memory.embedding.as_ref()).map(Vec::len);
        if let (Some(expected), Some(actual)) = (self.index.borrow().dimension(), incoming) {
            if expected != actual {
                return Err(MemoryError::DimensionMismatch { expected, actual });
            }
        }
        let stored = self.stored_history_ids(&bundle.history).await?;
        let history: Vec<HistoryRecord> = bundle.history.into_iter().filter(|r| !stored.contains(&r.id)).collect();
        let summary = ImportSummary { memories: bundle.memories.len(), history: history.len() };
        self.commit(Changeset { upserts: bundle.memories, deletes: Vec::new(), history, ..Changeset::default() })
            .await?;
        Ok(summary)
    }

    async fn stored_history_ids(&self, records: &[HistoryRecord]) -> Result<HashSet<String>> {
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
#[path = "transfer_tests.rs"]
mod tests;
