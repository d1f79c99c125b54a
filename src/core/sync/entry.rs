//! Reading an entry of the sync log back (as `entry_write` wrote it, decrypted by the app).

use serde::Deserialize;

use super::entry_write::ENTRY_VERSION;
use crate::core::codec::vector_from_base64;
use crate::core::engine::embedding_model::EmbeddingModel;
use crate::core::engine::transfer::{ExportedMemory as EntryMemory, SideLine};
use crate::core::error::{MemoryError, Result};
use crate::core::model::graph::GraphRecord;
use crate::core::model::types::{HistoryRecord, StoredMemory};

/// What one entry of the log carries.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// `ENTRY_VERSION`.
    pub v: u32,
    /// The model the vectors come from, when known: a device with another model embeds the texts again.
    #[serde(default)]
    pub embedder: Option<EmbeddingModel>,
    #[serde(default)]
    pub memories: Vec<EntryMemory>,
    #[serde(default)]
    pub deletes: Vec<String>,
    #[serde(default)]
    pub history: Vec<HistoryRecord>,
    #[serde(default)]
    pub graph: Vec<GraphRecord>,
    #[serde(default)]
    pub graph_deletes: Vec<String>,
    /// Side records kept per memory (a memory's sources), as exports carry them. An older reader skips them.
    #[serde(default)]
    pub side: Vec<SideLine>,
}

impl Entry {
    /// Reads an entry the log gave back (decrypted): `SYNC_ENTRY_INVALID` for anything else.
    pub fn from_text(text: &str) -> Result<Self> {
        let entry: Entry = serde_json::from_str(text)
            .map_err(|error| MemoryError::SyncEntry(format!("not a memwasm sync entry ({error})")))?;
        if entry.v == 0 || entry.v > ENTRY_VERSION {
            let why = format!("entry version {} (this library reads 1 to {ENTRY_VERSION}): upgrade memwasm", entry.v);
            return Err(MemoryError::SyncEntry(why));
        }
        Ok(entry)
    }

    /// The memories, their vectors decoded.
    pub fn stored_memories(&self) -> Result<Vec<StoredMemory>> {
        let decode = |memory: &EntryMemory| -> Result<StoredMemory> {
            let embedding = match &memory.embedding {
                Some(text) => Some(vector_from_base64(text).map_err(|_| {
                    MemoryError::SyncEntry(format!("memory {}: the vector is not base64 of f32s", memory.item.id))
                })?),
                None => None,
            };
            Ok(StoredMemory { item: memory.item.clone(), embedding })
        };
        self.memories.iter().map(decode).collect()
    }
}
