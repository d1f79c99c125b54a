//! Memories, history, graph and side records as SQLite rows: JSON text (the same shapes IndexedDB stores)
//! and vectors as little-endian `f32` bytes. Decoding never panics: a row that does not decode is reported
//! as `Err(why)` for the caller to skip with a warning (it stays stored).

use js_sys::{Array, Uint8Array};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

use crate::core::codec::vector_from_bytes;
use crate::core::error::{MemoryError, Result};
use crate::core::model::graph::GraphRecord;
use crate::core::model::types::{HistoryRecord, MemoryItem, StoredMemory};
use crate::core::side_records::SideRecord;

/// `value` as JSON text.
pub fn json<T: Serialize>(value: &T, what: &str) -> Result<String> {
    serde_json::to_string(value).map_err(|error| MemoryError::Storage(format!("cannot encode {what}: {error}")))
}

/// The JSON text stored for a memory (without its vector, which has its own column).
pub fn memory_json(memory: &StoredMemory) -> Result<String> {
    json(&MemoryItem { score: None, ..memory.item.clone() }, "a memory")
}

/// Column `at` of `row` as text.
pub fn text(row: &JsValue, at: u32) -> std::result::Result<String, String> {
    Array::from(row).get(at).as_string().ok_or_else(|| format!("column {at} is not text"))
}

/// A memory row `[record, vector]`: the memory, and the vector when the row has a finite one (one that is
/// not is dropped with a warning: the memory is then listed, not found by vector search).
pub fn memory_from_row(row: &JsValue) -> std::result::Result<StoredMemory, String> {
    let record = text(row, 0)?;
    let item: MemoryItem = serde_json::from_str(&record).map_err(|error| error.to_string())?;
    if item.id.is_empty() {
        return Err("memory record without an id".into());
    }
    let vector = Array::from(row).get(1);
    let embedding = match vector.dyn_into::<Uint8Array>().ok() {
        None => None,
        Some(bytes) => match vector_from_bytes(&bytes.to_vec()) {
            Ok(vector) => Some(vector),
            Err(error) => {
                super::warn(&format!("memwasm: memory {} loaded without its vector: {error}", item.id));
                None
            }
        },
    };
    Ok(StoredMemory { item, embedding })
}

/// A history row `[record]`.
pub fn history_from_row(row: &JsValue) -> std::result::Result<HistoryRecord, String> {
    serde_json::from_str(&text(row, 0)?).map_err(|error| format!("history record: {error}"))
}

/// A graph row `[record]`.
pub fn graph_from_row(row: &JsValue) -> std::result::Result<GraphRecord, String> {
    serde_json::from_str(&text(row, 0)?).map_err(|error| format!("graph record: {error}"))
}

/// A side row `[key, value]`.
pub fn side_from_row(row: &JsValue) -> std::result::Result<SideRecord, String> {
    let value: Value = serde_json::from_str(&text(row, 1)?).map_err(|error| format!("side record: {error}"))?;
    Ok(SideRecord { key: text(row, 0)?, value })
}
