//! Side records in the `side` store (schema version 4): each as `{kind, key, value}` under the out-of-line
//! key `kind + "\u{1f}" + key`, so one kind's records are one key range. Side writes go into the same
//! readwrite transaction as the memories and history of the call.

use idb::{KeyRange, ObjectStore, Query};
use serde_json::{json, Value};
use wasm_bindgen::JsValue;

use super::stored_json::from_stored;
use crate::core::error::{MemoryError, Result};
use crate::core::side_records::{SideRecord, SideWrite};

/// Separates kind and key in a stored key (a unit separator, which neither should contain).
const SEPARATOR: char = '\u{1f}';

fn stored_key(kind: &str, key: &str) -> JsValue {
    JsValue::from_str(&format!("{kind}{SEPARATOR}{key}"))
}

/// The key range holding every record of `kind`.
pub fn kind_range(kind: &str) -> Result<Query> {
    let (lower, upper) = (stored_key(kind, ""), JsValue::from_str(&format!("{kind}{SEPARATOR}\u{10ffff}")));
    let range = KeyRange::bound(&lower, &upper, None, None)
        .map_err(|error| MemoryError::Storage(format!("side records of {kind}: {error}")))?;
    Ok(Query::KeyRange(range))
}

/// Side writes encoded for the store, in order: `(key, Some(record))` to put, `(key, None)` to delete.
pub struct SideWrites(Vec<(JsValue, Option<JsValue>)>);

impl SideWrites {
    /// Encodes `writes` (before the transaction opens, so a bad record fails without writing anything).
    pub fn encode(writes: &[SideWrite]) -> Result<Self> {
        let mut encoded = Self(Vec::with_capacity(writes.len()));
        for write in writes {
            let key = stored_key(&write.kind, &write.key);
            match &write.value {
                Some(value) => {
                    let record = json!({"kind": write.kind, "key": write.key, "value": value});
                    let record =
                        serde::Serialize::serialize(&record, &serde_wasm_bindgen::Serializer::json_compatible())
                            .map_err(|e| {
                                MemoryError::Storage(format!("cannot encode side record {}: {e}", write.key))
                            })?;
                    encoded.0.push((key, Some(record)));
                }
                None => encoded.0.push((key, None)),
            }
        }
        Ok(encoded)
    }

    /// Issues the writes inside the caller's transaction, in order (a later write to a key wins).
    pub fn write(&self, store: &ObjectStore) -> std::result::Result<(), idb::Error> {
        for (key, record) in &self.0 {
            match record {
                Some(record) => store.put(record, Some(key)).map(drop)?,
                None => store.delete(Query::Key(key.clone())).map(drop)?,
            }
        }
        Ok(())
    }
}

/// The side record a stored value holds.
pub fn side_from_js(value: JsValue) -> std::result::Result<SideRecord, String> {
    let record: Value = from_stored(&value).map_err(|why| format!("side record: {why}"))?;
    let key = record.get("key").and_then(Value::as_str).ok_or("side record without a key")?.to_owned();
    Ok(SideRecord { key, value: record.get("value").cloned().unwrap_or(Value::Null) })
}
