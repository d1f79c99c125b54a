//! Memories as IndexedDB values (history: see `history`). A memory record is the `MemoryItem` as a plain
//! object (camelCase, scope ids and lifecycle fields at the top level, metadata as an object) plus `order`,
//! its position within the write that stored it (ties of `createdAt` keep their order across reloads),
//! `chunk`, the key of the `vectors` chunk holding its vector (absent without one; see `chunk`), and
//! `changed`, the change number of that write (version 7; see `journal`). Records from before schema
//! version 3 have no lifecycle fields and read back with their defaults; records from before version 5
//! carried the vector inline as `embedding` (little-endian `f32` bytes in a `Uint8Array`), which is still
//! read.
//!
//! All memory records are decoded at once through one `JSON.stringify` and `serde_json` (far fewer calls
//! across the wasm boundary than one object walk per record); should that fail, record by record. A
//! commit encodes its records the same way in reverse, a batch at a time: one `serde_json` string and one
//! `JSON.parse` (metadata holding an integer that a JS number cannot hold exactly is refused).
//! Decoding never panics: a record that does not decode is reported as `Err(why)` for the caller to skip.

use std::borrow::Cow;

use js_sys::{Array, Object, Reflect, Uint8Array};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

use super::stored_json::from_stored;
use crate::core::codec::vector_from_bytes;
use crate::core::error::{MemoryError, Result};
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::platform::js_strings;

const EMBEDDING: &str = "embedding";
const ORDER: &str = "order";
const CHUNK: &str = "chunk";

/// A memory record as read back.
#[derive(Debug)]
pub struct MemoryRecord {
    /// The memory; its `embedding` only for a record of before version 5 (vectors live in chunks).
    pub memory: StoredMemory,
    /// Its position within the write that stored it.
    pub order: f64,
    /// The `vectors` chunk holding its vector.
    pub chunk: Option<u32>,
}

/// Notes in `record` the chunk holding its memory's vector (a record being migrated, see `migrate`).
pub fn place(record: &JsValue, chunk: u32) -> Result<()> {
    set(record, CHUNK, &JsValue::from(chunk))
}

/// The memory a record stores.
pub fn memory_from_js(record: JsValue) -> std::result::Result<MemoryRecord, String> {
    let record = own_copy(record)?;
    decode_memory(&record).map_err(|why| format!("record {}: {why}", id_of(&record)))
}

fn decode_memory(record: &Object) -> std::result::Result<MemoryRecord, String> {
    let embedding = match take(record, EMBEDDING) {
        value if value.is_null() || value.is_undefined() => None,
        value => match value.dyn_into::<Uint8Array>() {
            Ok(bytes) => Some(vector_from_bytes(&bytes.to_vec()).map_err(|error| error.to_string())?),
            Err(_) => return Err("embedding is not a Uint8Array".into()),
        },
    };
    let order = take(record, ORDER).as_f64().unwrap_or(0.0);
    let chunk = match take(record, CHUNK) {
        value if value.is_null() || value.is_undefined() => None,
        value => Some(chunk_key(value.as_f64()).ok_or("chunk is not a chunk number")?),
    };
    // Read as the batch reads its records (`Fast`), so the two paths share one reader.
    let Fast { item, .. } = from_stored(record)?;
    if item.id.is_empty() {
        return Err("memory record without an id".into());
    }
    Ok(MemoryRecord { memory: StoredMemory { item, embedding }, order, chunk })
}

fn chunk_key(value: Option<f64>) -> Option<u32> {
    value.filter(|key| key.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(key)).map(|key| key as u32)
}

/// A memory record as `serde_json` reads it from the stringified batch (or one record, see `decode_memory`).
#[derive(Deserialize)]
struct Fast {
    #[serde(flatten)]
    item: MemoryItem,
    #[serde(default)]
    order: f64,
    #[serde(default)]
    chunk: Option<f64>,
    /// An inline vector (before version 5): such a record is decoded on its own.
    #[serde(default)]
    embedding: Option<IgnoredAny>,
}

/// The memories that `records` (an array of memory records) store, each `Ok` or `Err(why)`.
pub fn memories_from_js(records: &Array) -> Vec<std::result::Result<MemoryRecord, String>> {
    let batch = js_sys::JSON::stringify(records).ok().and_then(|text| text.as_string());
    let Some(Ok(fast)) = batch.map(|text| serde_json::from_str::<Vec<Fast>>(&text)) else {
        return records.iter().map(memory_from_js).collect();
    };
    let fast = fast.into_iter().enumerate();
    fast.map(|(at, record)| match record {
        Fast { embedding: Some(_), .. } => memory_from_js(records.get(at as u32)),
        record => from_fast(record),
    })
    .collect()
}

/// The memories that `texts` (a pack's JSON texts, see `packs`) store, each `Ok` or `Err(why)`: read as one
/// JSON array when they all decode, else text by text.
pub fn memories_from_texts(texts: &Array) -> Vec<std::result::Result<MemoryRecord, String>> {
    let joined = String::from(texts.join(","));
    if let Ok(fast) = serde_json::from_str::<Vec<Fast>>(&format!("[{joined}]")) {
        if fast.len() == texts.length() as usize {
            return fast.into_iter().map(from_fast).collect();
        }
    }
    texts.iter().map(|text| memory_from_text(&text)).collect()
}

/// The memory one of a pack's JSON texts stores.
pub fn memory_from_text(text: &JsValue) -> std::result::Result<MemoryRecord, String> {
    let text = text.as_string().ok_or("a packed memory is not a JSON text")?;
    serde_json::from_str::<Fast>(&text).map_err(|error| format!("a packed memory: {error}")).and_then(from_fast)
}

fn from_fast(record: Fast) -> std::result::Result<MemoryRecord, String> {
    match record {
        Fast { item, .. } if item.id.is_empty() => Err("record \"\": memory record without an id".into()),
        Fast { item, embedding: Some(_), .. } => Err(format!("record \"{}\": an inline vector in a pack", item.id)),
        Fast { item, order, chunk, .. } => match chunk.map(|key| chunk_key(Some(key))) {
            Some(None) => Err(format!("record \"{}\": chunk is not a chunk number", item.id)),
            chunk => Ok(MemoryRecord { memory: StoredMemory { item, embedding: None }, order, chunk: chunk.flatten() }),
        },
    }
}

/// A memory record as written: the `MemoryItem` (without score), `order` and `chunk`.
#[derive(Serialize)]
struct Written<'a> {
    #[serde(flatten)]
    item: Cow<'a, MemoryItem>,
    order: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk: Option<u32>,
    /// The change number of the write (see `journal`).
    changed: u64,
}

/// The records that store `memories` (without their vectors) at change number `changed`, the first written
/// as the `first`-th memory of its write; the `order`-th memory's vector went to chunk `chunks[order]`.
pub fn memories_to_js(
    memories: &[StoredMemory],
    chunks: &[Option<u32>],
    first: usize,
    changed: u64,
) -> Result<Vec<JsValue>> {
    let memories: Vec<(&StoredMemory, usize)> = memories.iter().zip(first..).collect();
    let records = written(&memories, chunks, changed)?;
    Ok(parsed(&records)?.iter().collect())
}

/// The JSON texts that store `memories` in a pack (see `packs`), each with its `order` within its write, at
/// change number `changed`; the `order`-th memory's vector went to chunk `chunks[order]`.
pub fn texts_to_js(memories: &[(&StoredMemory, usize)], chunks: &[Option<u32>], changed: u64) -> Result<Array> {
    let records = written(memories, chunks, changed)?;
    let texts: std::result::Result<Vec<String>, _> = records.iter().map(serde_json::to_string).collect();
    let texts = texts.map_err(|error| MemoryError::Storage(format!("cannot encode a record: {error}")))?;
    Ok(js_strings(texts.iter().map(String::as_str)))
}

/// The records as written of `memories`, each with its `order`; refused when one holds an integer a JS number
/// cannot hold exactly.
fn written<'a>(
    memories: &[(&'a StoredMemory, usize)],
    chunks: &[Option<u32>],
    changed: u64,
) -> Result<Vec<Written<'a>>> {
    memories
        .iter()
        .map(|&(memory, order)| {
            if !memory.item.metadata.values().all(js_safe) {
                let id = &memory.item.id;
                let why = format!("the metadata of memory \"{id}\" holds an integer a JS number cannot hold");
                return Err(MemoryError::Storage(format!("cannot encode a record: {why}")));
            }
            let item = match memory.item.score {
                None => Cow::Borrowed(&memory.item),
                Some(_) => Cow::Owned(MemoryItem { score: None, ..memory.item.clone() }),
            };
            Ok(Written { item, order, chunk: chunks.get(order).copied().flatten(), changed })
        })
        .collect()
}

/// `values` as a JS array: one `serde_json` string, one `JSON.parse`.
fn parsed<T: Serialize>(values: &[T]) -> Result<Array> {
    let failed = |why: &str| MemoryError::Storage(format!("cannot encode a record: {why}"));
    let text = serde_json::to_string(values).map_err(|error| failed(&error.to_string()))?;
    let array = js_sys::JSON::parse(&text).map_err(|_| failed("JSON.parse refused it"))?;
    array.dyn_into::<Array>().map_err(|_| failed("not an array"))
}

/// False for a value holding an integer that a JS number cannot hold exactly.
fn js_safe(value: &Value) -> bool {
    const SAFE: u64 = (1 << 53) - 1;
    match value {
        Value::Number(number) => number.as_i64().map_or(number.as_u64().is_none(), |n| n.unsigned_abs() <= SAFE),
        Value::Array(values) => values.iter().all(js_safe),
        Value::Object(map) => map.values().all(js_safe),
        _ => true,
    }
}

/// The record's `id` for messages (`?` when it has none).
fn id_of(record: &Object) -> String {
    Reflect::get(record, &"id".into()).ok().and_then(|id| id.as_string()).map_or("?".into(), |id| format!("\"{id}\""))
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
