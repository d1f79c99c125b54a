//! `storage: {provider: "indexeddb", config: {dbName, persist?}}`: memories and history in one IndexedDB
//! database of the browser (read by the platform layer; checked here so `cargo test` covers it).

use serde::Deserialize;
use serde_json::Value;

use super::{invalid, provider_options};
use crate::core::error::Result;

/// `storage.config` for IndexedDB, as given.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexedDbOptions {
    pub db_name: Option<String>,
    pub persist: Option<bool>,
}

/// `storage.config` for IndexedDB, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedDbSettings {
    /// The database name; one database holds one memory (its memories and their history).
    pub db_name: String,
    /// Ask the browser to exempt the origin's storage from eviction (`navigator.storage.persist()`).
    pub persist: bool,
}

/// Reads and checks `storage.config` for the `indexeddb` provider.
pub fn indexeddb_settings(config: &Option<Value>) -> Result<IndexedDbSettings> {
    let options: IndexedDbOptions = provider_options(config, "storage.config")?;
    let db_name = match options.db_name {
        None => return Err(invalid("storage.config.dbName", "required for the indexeddb storage")),
        Some(name) if name.trim().is_empty() => return Err(invalid("storage.config.dbName", "must not be empty")),
        Some(name) => name,
    };
    Ok(IndexedDbSettings { db_name, persist: options.persist.unwrap_or(false) })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(config: Value) -> String {
        indexeddb_settings(&Some(config)).unwrap_err().to_string()
    }

    #[test]
    fn reads_name_and_persist() {
        let settings = indexeddb_settings(&Some(json!({"dbName": "notes", "persist": true}))).unwrap();
        assert_eq!(settings, IndexedDbSettings { db_name: "notes".into(), persist: true });
        assert!(!indexeddb_settings(&Some(json!({"dbName": "notes"}))).unwrap().persist);
    }

    #[test]
    fn errors_name_the_field() {
        assert!(indexeddb_settings(&None).unwrap_err().to_string().contains("storage.config.dbName: required"));
        assert!(message(json!({"dbName": " "})).contains("storage.config.dbName: must not be empty"));
        assert!(message(json!({"dbName": 7})).contains("storage.config.dbName"));
        assert!(message(json!({"dbName": "x", "persist": "yes"})).contains("storage.config.persist"));
        assert!(message(json!({"dbname": "x"})).contains("unknown field `dbname`"));
        assert_eq!(indexeddb_settings(&None).unwrap_err().code(), "INVALID_CONFIG");
    }
}
