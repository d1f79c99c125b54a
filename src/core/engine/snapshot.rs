//! A whole in-memory instance as one JSON text, to carry it into another instance: the browser package
//! moves a memory from its core module into the full one when a call first needs the full module.
//!
//! A snapshot is `{"version":1,"export":<exportMemories text of everything>,"side":[{kind,key,value}]}`:
//! memories (soft-deleted and expired ones too) with their vectors, all history, and every side record
//! (summaries, journals, buffers, the embedding cache). Storages that persist memories themselves have no
//! snapshot: another instance opens the same storage instead.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// The snapshot format this library writes and reads.
pub const SNAPSHOT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Snapshot {
    version: u32,
    export: String,
    side: Vec<SideEntry>,
}

#[derive(Serialize, Deserialize, Default)]
struct SideEntry {
    kind: String,
    key: String,
    value: Value,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Everything this instance holds, or `None` when its storage persists it (reopen that storage): only
    /// storages that hold everything in RAM hand over all their side records.
    pub async fn snapshot(&self) -> Result<Option<String>> {
        let Some(side) = self.storage.all_side().await? else { return Ok(None) };
        let export = self.export(Scope::default()).await?;
        let side = side.into_iter().map(|(kind, record)| SideEntry { kind, key: record.key, value: record.value });
        let snapshot = Snapshot { version: SNAPSHOT_VERSION, export, side: side.collect() };
        let text = serde_json::to_string(&snapshot).map_err(|error| MemoryError::Storage(format!("snapshot: {error}")));
        text.map(Some)
    }

    /// Writes a `snapshot` into this instance (a new one: memories with the same ids are replaced, side
    /// records overwritten). `INVALID_INPUT`, with nothing written, for a text that is not a snapshot of
    /// this version or whose export part does not import.
    pub async fn restore_snapshot(&self, snapshot: &str) -> Result<()> {
        let value: Value = serde_json::from_str(snapshot)
            .map_err(|error| MemoryError::InvalidInput(format!("snapshot: not JSON: {error}")))?;
        let snapshot: Snapshot = crate::core::value_de::from_value(&value)
            .map_err(|error| MemoryError::InvalidInput(format!("snapshot: {error}")))?;
        if snapshot.version != SNAPSHOT_VERSION {
            let why = format!("snapshot.version: {} (this memwasm reads {SNAPSHOT_VERSION})", snapshot.version);
            return Err(MemoryError::InvalidInput(why));
        }
        self.import(&snapshot.export).await?;
        let side = snapshot.side.into_iter().map(|entry| SideWrite::put(&entry.kind, &entry.key, entry.value));
        self.write_side(side.collect()).await
    }
}

#[cfg(test)]
#[path = "snapshot_tests.rs"]
mod tests;
