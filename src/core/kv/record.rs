//! How a memory is stored as one KV value: its JSON (the `MemoryItem` shape) plus the embedding as
//! base64 of little-endian `f32`s — about 2 KiB for 1,536 dimensions instead of ~20 KiB of JSON numbers.
//!
//! Each memory value carries `version`, numbered like the IndexedDB schema: values without one were
//! written before memory lifecycle (schema versions 1 and 2 stored the same memory record) and read back
//! with the lifecycle defaults; version 3 added the lifecycle fields. A value of a later version was
//! written by a newer memwasm and is refused with `STORAGE` rather than read (and rewritten) without the
//! fields it does not know. History and graph values are unversioned: their shape has not changed.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::core::codec::{vector_to_base64, INVALID, SEXTETS};
use crate::core::error::{MemoryError, Result};
use crate::core::model::types::{HistoryRecord, MemoryItem, StoredMemory};

/// The memory record version this library writes (and the newest it reads).
pub const RECORD_VERSION: u32 = 3;
/// The version of a memory value without `version`: before lifecycle fields existed.
const UNVERSIONED: u32 = 2;

/// The stored JSON of one memory.
#[derive(Serialize, Deserialize)]
struct MemoryRecord {
    /// Absent in values written before lifecycle fields existed.
    #[serde(default = "unversioned")]
    version: u32,
    #[serde(flatten)]
    item: MemoryItem,
    /// Base64 of the little-endian `f32` vector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    embedding: Option<String>,
    /// Orders memories created in the same millisecond (Workers' clock stands still during a request).
    #[serde(default)]
    seq: u64,
}

fn unversioned() -> u32 {
    UNVERSIONED
}

/// Only the version of a memory value, read before the rest (a newer value may not decode as a whole).
#[derive(Deserialize)]
struct Version {
    #[serde(default = "unversioned")]
    version: u32,
}

/// Increases with every memory created by this process.
static NEXT_SEQ: AtomicU64 = AtomicU64::new(1);

/// A fresh position for a new memory.
pub fn next_seq() -> u64 {
    NEXT_SEQ.fetch_add(1, Ordering::Relaxed)
}

/// A stored memory and its position among memories created in the same millisecond.
pub struct Loaded {
    pub memory: StoredMemory,
    pub seq: u64,
}

/// The KV value of `memory`, at position `seq` (kept when a memory is rewritten).
pub fn encode_memory(memory: &StoredMemory, seq: u64) -> Result<String> {
    let item = MemoryItem { score: None, ..memory.item.clone() };
    let embedding = memory.embedding.as_deref().map(encode_vector);
    let record = MemoryRecord { version: RECORD_VERSION, item, embedding, seq };
    serde_json::to_string(&record).map_err(|e| MemoryError::Storage(format!("cannot encode memory: {e}")))
}

/// The memory stored at `key`, with its write order; `STORAGE` for a value this library cannot read.
pub fn decode_memory(key: &str, value: &str) -> Result<Loaded> {
    let Version { version } = serde_json::from_str(value).map_err(|e| corrupt(key, e))?;
    if version > RECORD_VERSION {
        return Err(MemoryError::Storage(format!(
            "the memory at KV key {key} was written by a newer memwasm (record version {version}, this library \
             reads up to {RECORD_VERSION}); nothing was read"
        )));
    }
    let record: MemoryRecord = serde_json::from_str(value).map_err(|e| corrupt(key, e))?;
    let embedding =
        record.embedding.as_deref().map(|text| decode_vector(text).ok_or_else(|| corrupt(key, "bad vector")));
    let memory = StoredMemory { item: record.item, embedding: embedding.transpose()? };
    Ok(Loaded { memory, seq: record.seq })
}

/// The KV value of a history record.
pub fn encode_history(record: &HistoryRecord) -> Result<String> {
    serde_json::to_string(record).map_err(|e| MemoryError::Storage(format!("cannot encode history: {e}")))
}

/// The history record stored at `key`.
pub fn decode_history(key: &str, value: &str) -> Result<HistoryRecord> {
    serde_json::from_str(value).map_err(|e| corrupt(key, e))
}

fn corrupt(key: &str, why: impl std::fmt::Display) -> MemoryError {
    MemoryError::Storage(format!("unreadable value at KV key {key}: {why}"))
}

/// Standard base64 (with padding) of the vector's little-endian bytes.
pub fn encode_vector(vector: &[f32]) -> String {
    vector_to_base64(vector)
}

/// The vector of [`encode_vector`]'s text; `None` for anything else.
pub fn decode_vector(text: &str) -> Option<Vec<f32>> {
    let text = text.trim_end_matches('=').as_bytes();
    let size = text.len() * 6 / 8;
    if size % 4 != 0 {
        return None;
    }
    let mut bytes = vec![0u8; size];
    let mut at = 0;
    // Four characters make three bytes; the last few characters, if any, go one at a time.
    let mut groups = text.chunks_exact(4);
    for group in &mut groups {
        let [a, b, c, d] = [
            SEXTETS[group[0] as usize],
            SEXTETS[group[1] as usize],
            SEXTETS[group[2] as usize],
            SEXTETS[group[3] as usize],
        ];
        if (a | b | c | d) & 0xC0 != 0 {
            return None; // INVALID: not base64
        }
        let n = u32::from(a) << 18 | u32::from(b) << 12 | u32::from(c) << 6 | u32::from(d);
        (bytes[at], bytes[at + 1], bytes[at + 2]) = ((n >> 16) as u8, (n >> 8) as u8, n as u8);
        at += 3;
    }
    let (mut bits, mut count) = (0u32, 0);
    for &c in groups.remainder() {
        let value = SEXTETS[c as usize];
        if value == INVALID {
            return None;
        }
        bits = bits << 6 | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            bytes[at] = (bits >> count) as u8;
            at += 1;
        }
    }
    Some(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
}
