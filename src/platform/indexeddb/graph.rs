//! Graph records (graph memory) in the `graph` store: each `GraphRecord` as a plain object (camelCase,
//! `kind` = `entity` | `relation`, scope ids at the top level) under its `GraphRecord::key()`. Graph writes
//! go into the same readwrite transaction as the memories and history of the call.

use idb::{ObjectStore, Query};
use serde::Serialize;
use wasm_bindgen::JsValue;

use super::stored_json::from_stored;
use crate::core::error::{MemoryError, Result};
use crate::core::model::graph::{GraphChanges, GraphRecord};

/// A graph write encoded for the store: `(key, record)` pairs to put, keys to delete.
pub struct GraphWrites {
    puts: Vec<(JsValue, JsValue)>,
    deletes: Vec<JsValue>,
}

impl GraphWrites {
    /// Encodes `changes` (before the transaction opens, so a bad record fails without writing anything).
    pub fn encode(changes: &GraphChanges) -> Result<Self> {
        let encode = |record: &GraphRecord| {
            let value = record
                .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
                .map_err(|error| MemoryError::Storage(format!("cannot encode a graph record: {error}")))?;
            Ok((JsValue::from_str(&record.key()), value))
        };
        let puts = changes.upserts.iter().map(encode).collect::<Result<_>>()?;
        let deletes = changes.deletes.iter().map(|key| JsValue::from_str(key)).collect();
        Ok(Self { puts, deletes })
    }

    /// Issues the writes inside the caller's transaction.
    pub fn write(&self, store: &ObjectStore) -> std::result::Result<(), idb::Error> {
        for key in &self.deletes {
            store.delete(Query::Key(key.clone()))?;
        }
        for (key, value) in &self.puts {
            store.put(value, Some(key))?;
        }
        Ok(())
    }
}

/// The graph record a stored value holds.
pub fn graph_from_js(value: JsValue) -> std::result::Result<GraphRecord, String> {
    from_stored(&value).map_err(|why| format!("graph record: {why}"))
}
