//! Memories, history, graph and side records as SQLite rows: the JSON text Workers KV stores (the same record
//! codecs, so one copy of their code serves both), with vectors in their own column as little-endian `f32`
//! bytes. Decoding never panics: a row that does not decode is reported as `Err(why)` for the caller to skip
//! with a warning (it stays stored).

use js_sys::{Array, Uint8Array};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

use crate::core::codec::vector_from_bytes;
use crate::core::error::{MemoryError, Result};
use crate::core::kv::record::{decode_history, decode_memory, encode_history, encode_memory};
use crate::core::model::graph::GraphRecord;
use crate::core::model::types::{HistoryRecord, StoredMemory};
use crate::core::side_records::SideRecord;

/// The JSON text stored for a memory (its vector has a column of its own).
pub fn memory_json(memory: &StoredMemory) -> Result<String> {
    encode_memory(&StoredMemory { item: memory.item.clone(), embedding: None }, 0)
}

/// The JSON text stored for a history record.
pub fn history_json(record: &HistoryRecord) -> Result<String> {
    encode_history(record)
}

/// The JSON text stored for a graph record.
pub fn graph_json(record: &GraphRecord) -> Result<String> {
    serde_json::to_string(record)
        .map_err(|error| MemoryError::Storage(format!("cannot encode a graph record: {error}")))
}

/// The JSON text stored for a side record's value.
pub fn side_json(value: &Value) -> Result<String> {
    Ok(value.to_string())
}

/// Column `at` of `row` as text.
fn text(row: &JsValue, at: u32) -> std::result::Result<String, String> {
    Array::from(row).get(at).as_string().ok_or_else(|| format!("column {at} is not text"))
}

/// A memory row `[id, record, vector]`: the memory, and the vector when the row has a finite one (one that is
/// not is dropped with a warning: the memory is then listed, not found by vector search).
pub fn memory_from_row(row: &JsValue) -> std::result::Result<StoredMemory, String> {
    let id = text(row, 0)?;
    let mut memory = decode_memory(&id, &text(row, 1)?).map_err(|error| error.to_string())?.memory;
    if memory.item.id.is_empty() {
        return Err(format!("memory {id}: its record has no id"));
    }
    if let Ok(bytes) = Array::from(row).get(2).dyn_into::<Uint8Array>() {
        match vector_from_bytes(&bytes.to_vec()) {
            Ok(vector) => memory.embedding = Some(vector),
            Err(error) => super::warn(&format!("memwasm: memory {id} loaded without its vector: {error}")),
        }
    }
    Ok(memory)
}

/// A history row `[id, record]`.
pub fn history_from_row(row: &JsValue) -> std::result::Result<HistoryRecord, String> {
    decode_history(&text(row, 0)?, &text(row, 1)?).map_err(|error| error.to_string())
}

/// A graph row `[key, record]`.
pub fn graph_from_row(row: &JsValue) -> std::result::Result<GraphRecord, String> {
    let key = text(row, 0)?;
    serde_json::from_str(&text(row, 1)?).map_err(|error| format!("graph record {key}: {error}"))
}

/// A side row `[key, value]`.
pub fn side_from_row(row: &JsValue) -> std::result::Result<SideRecord, String> {
    let value: Value = serde_json::from_str(&text(row, 1)?).map_err(|error| format!("side record: {error}"))?;
    Ok(SideRecord { key: text(row, 0)?, value })
}
