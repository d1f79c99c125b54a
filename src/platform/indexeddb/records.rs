//! Memories and history records as IndexedDB values. A memory record is the `MemoryItem` as a plain
//! object (camelCase, scope ids and lifecycle fields at the top level, metadata as an object) plus
//! `embedding`, the vector as little-endian `f32` bytes in a `Uint8Array` (compact and exact, unlike a
//! number array), and `order`, its position within the write that stored it (ties of `createdAt` keep
//! their order across reloads). Records from before schema version 3 have no lifecycle fields and read
//! back with their defaults.
//! A history record is the `HistoryRecord` object plus the store's auto-incremented `seq`.
//!
//! Decoding never panics: a record that does not decode is reported as `Err(why)` for the caller to skip.

use js_sys::{Object, Reflect, Uint8Array};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use crate::core::codec::{vector_from_bytes, vector_to_bytes};
use crate::core::error::{MemoryError, Result};
use crate::core::types::{HistoryRecord, MemoryItem, StoredMemory};

const EMBEDDING: &str = "embedding";
const ORDER: &str = "order";
const SEQ: &str = "seq";

/// The record that stores `memory`, written as the `order`-th memory of its write.
pub fn memory_to_js(memory: &StoredMemory, order: usize) -> Result<JsValue> {
    let record = plain(&MemoryItem { score: None, ..memory.item.clone() })?;
    let embedding = match &memory.embedding {
        Some(vector) => Uint8Array::from(vector_to_bytes(vector).as_slice()).into(),
        None => JsValue::NULL,
    };
    set(&record, EMBEDDING, &embedding)?;
    set(&record, ORDER, &JsValue::from(order as f64))?;
    Ok(record)
}

/// The memory a record stores, with its `order`.
pub fn memory_from_js(record: JsValue) -> std::result::Result<(StoredMemory, f64), String> {
    let record = own_copy(record)?;
    decode_memory(&record).map_err(|why| format!("record {}: {why}", id_of(&record)))
}

fn decode_memory(record: &Object) -> std::result::Result<(StoredMemory, f64), String> {
    let embedding = match take(record, EMBEDDING) {
        value if value.is_null() || value.is_undefined() => None,
        value => match value.dyn_into::<Uint8Array>() {
            Ok(bytes) => Some(vector_from_bytes(&bytes.to_vec()).map_err(|error| error.to_string())?),
            Err(_) => return Err("embedding is not a Uint8Array".into()),
        },
    };
    let order = take(record, ORDER).as_f64().unwrap_or(0.0);
    let item: MemoryItem = from_plain(record)?;
    if item.id.is_empty() {
        return Err("memory record without an id".into());
    }
    Ok((StoredMemory { item, embedding }, order))
}

/// The record that stores a history entry (the store adds `seq`).
pub fn history_to_js(record: &HistoryRecord) -> Result<JsValue> {
    plain(record)
}

/// The history entry a record stores.
pub fn history_from_js(record: JsValue) -> std::result::Result<HistoryRecord, String> {
    let record = own_copy(record)?;
    take(&record, SEQ);
    from_plain(&record).map_err(|why| format!("record {}: {why}", id_of(&record)))
}

/// The record's `id` for messages (`?` when it has none).
fn id_of(record: &Object) -> String {
    Reflect::get(record, &"id".into()).ok().and_then(|id| id.as_string()).map_or("?".into(), |id| format!("\"{id}\""))
}

fn plain<T: Serialize>(value: &T) -> Result<JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| MemoryError::Storage(format!("cannot encode a record: {error}")))
}

fn from_plain<T: DeserializeOwned>(record: &Object) -> std::result::Result<T, String> {
    serde_wasm_bindgen::from_value(record.clone().into()).map_err(|error| error.to_string())
}

/// A shallow copy of a record object, so fields can be taken out of it.
fn own_copy(record: JsValue) -> std::result::Result<Object, String> {
    if !record.is_object() || record.is_function() {
        return Err(format!("not an object: {record:?}"));
    }
    Ok(Object::assign(&Object::new(), record.unchecked_ref()))
}

/// Removes `key` from `record` and returns its value (`undefined` when absent).
fn take(record: &Object, key: &str) -> JsValue {
    let key = JsValue::from_str(key);
    let value = Reflect::get(record, &key).unwrap_or(JsValue::UNDEFINED);
    let _ = Reflect::delete_property(record, &key);
    value
}

fn set(record: &JsValue, key: &str, value: &JsValue) -> Result<()> {
    Reflect::set(record, &JsValue::from_str(key), value)
        .map(drop)
        .map_err(|_| MemoryError::Storage(format!("cannot encode a record's {key}")))
}
