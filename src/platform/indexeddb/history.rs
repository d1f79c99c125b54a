//! History in the `history` store (schema version 6): one record per batch of a write's history entries,
//! `{seq, memoryIds, records}`. `records` is the entries as one JSON array string (one string to clone,
//! not one object per entry), `memoryIds` the distinct memories they belong to (the `multiEntry` index that
//! `history(id)` reads). `seq` is auto-incremented, so batches come back oldest first, and the entries of a
//! batch are in write order. Batches written by versions 6 to 8 also hold `ids`, the entries' ids, for a
//! unique index that version 9 dropped: an entry id is never written twice (an import skips the entries
//! already stored), and should two writes race to store one, reading keeps its first entry only.
//!
//! Decoding never panics: an entry or a batch that does not decode is reported as `Err(why)` for the
//! caller to skip (it stays stored).

use std::collections::HashSet;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use super::stored_json::from_stored;
use crate::core::error::{MemoryError, Result};
use crate::core::model::types::HistoryRecord;
use crate::platform::js_strings;

/// Entries per batch record, at most.
pub const BATCH: usize = 500;
/// The `multiEntry` index of the memories a batch's entries belong to.
pub const BY_MEMORY: &str = "memoryIds";
const RECORDS: &str = "records";

/// The batch record storing `entries` (the store adds `seq`).
pub fn batch_to_js(entries: &[HistoryRecord]) -> Result<JsValue> {
    let text = serde_json::to_string(entries)
        .map_err(|error| MemoryError::Storage(format!("cannot encode a history record: {error}")))?;
    batch_record(entries.iter().map(|entry| entry.memory_id.as_str()), text)
}

/// A batch record of entries already encoded as `records` (a JSON array), with their memory ids.
pub fn batch_record<'a>(memory_ids: impl Iterator<Item = &'a str>, records: String) -> Result<JsValue> {
    let mut seen = HashSet::new();
    let memory_ids = js_strings(memory_ids.filter(|id| seen.insert(*id)));
    let batch = Object::new();
    let fields: [(&str, JsValue); 2] = [(BY_MEMORY, memory_ids.into()), (RECORDS, records.into())];
    for (name, value) in fields {
        Reflect::set(&batch, &JsValue::from_str(name), &value)
            .map_err(|_| MemoryError::Storage(format!("cannot encode a history batch's {name}")))?;
    }
    Ok(batch.into())
}

/// The entries a batch record holds, in write order; only those of `memory_id` when given.
pub fn entries_from_js(batch: &JsValue, memory_id: Option<&str>) -> Vec<std::result::Result<HistoryRecord, String>> {
    let text = Reflect::get(batch, &JsValue::from_str(RECORDS)).ok().and_then(|text| text.as_string());
    let Some(text) = text else { return vec![Err("a history batch without records".into())] };
    let Some(entries) = js_sys::JSON::parse(&text).ok().and_then(|entries| entries.dyn_into::<Array>().ok()) else {
        return vec![Err("a history batch whose records are not a JSON array".into())];
    };
    let belongs = |entry: &JsValue| {
        memory_id.is_none_or(|wanted| {
            Reflect::get(entry, &"memoryId".into()).ok().and_then(|id| id.as_string()).as_deref() == Some(wanted)
        })
    };
    entries.iter().filter(belongs).map(entry_from_js).collect()
}

fn entry_from_js(entry: JsValue) -> std::result::Result<HistoryRecord, String> {
    let id = Reflect::get(&entry, &"id".into()).ok().and_then(|id| id.as_string());
    let id = id.map_or("?".into(), |id| format!("\"{id}\""));
    from_stored(&entry).map_err(|why| format!("record {id}: {why}"))
}

/// `entries` with only the first of each id (see the module's doc).
pub fn first_of_each_id(entries: impl Iterator<Item = HistoryRecord>) -> Vec<HistoryRecord> {
    let mut seen = HashSet::new();
    entries.filter(|entry| seen.insert(entry.id.clone())).collect()
}
