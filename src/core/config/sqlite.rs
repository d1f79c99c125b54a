//! `storage: {provider: "sqlite", config: {path, driver?, busyTimeoutMs?}}`: memories, history and every
//! side record in one SQLite database file, in Node (opened by the platform layer; checked here so
//! `cargo test` covers it).

use serde::Deserialize;
use serde_json::Value;

use super::{invalid, provider_options};
use crate::core::error::Result;

/// The SQLite libraries the Node entry can open a database with.
pub const SQLITE_DRIVERS: &[&str] = &["node:sqlite", "better-sqlite3"];
/// How long opening waits for another connection to release the file, by default.
const BUSY_TIMEOUT_MS: u32 = 2_000;

/// `storage.config` for SQLite, as given.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct SqliteOptions {
    path: Option<String>,
    driver: Option<String>,
    busy_timeout_ms: Option<u32>,
}

/// `storage.config` for SQLite, checked: what the Node entry opens the database with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqliteSettings {
    /// The database file (made when missing).
    pub path: String,
    /// `node:sqlite` or `better-sqlite3`; `None`: the first of them this Node has.
    pub driver: Option<String>,
    /// How long opening waits for another connection to release the file before `STORAGE_UNAVAILABLE`.
    pub busy_timeout_ms: u32,
}

/// Reads and checks `storage.config` for the `sqlite` provider.
pub fn sqlite_settings(config: &Option<Value>) -> Result<SqliteSettings> {
    let options: SqliteOptions = provider_options(config, "storage.config")?;
    let path = match options.path {
        None => return Err(invalid("storage.config.path", "required for the sqlite storage (a file path)")),
        Some(path) if path.trim().is_empty() => return Err(invalid("storage.config.path", "must not be empty")),
        Some(path) => path,
    };
    if let Some(c) = path.chars().find(|c| c.is_control()) {
        // A C string ends at NUL: node:sqlite on Node 20 opened the file named by the path's prefix.
        let why =
            format!("must not contain a control character (found U+{:04X}): give the file's path as it is", c as u32);
        return Err(invalid("storage.config.path", why));
    }
    if let Some(driver) = options.driver.as_deref().filter(|driver| !SQLITE_DRIVERS.contains(driver)) {
        let why = format!("unknown driver \"{driver}\" (supported: {})", SQLITE_DRIVERS.join(", "));
        return Err(invalid("storage.config.driver", why));
    }
    if options.busy_timeout_ms.is_some_and(|ms| ms > 60_000) {
        return Err(invalid("storage.config.busyTimeoutMs", "must be at most 60000"));
    }
    let busy_timeout_ms = options.busy_timeout_ms.unwrap_or(BUSY_TIMEOUT_MS);
    Ok(SqliteSettings { path, driver: options.driver, busy_timeout_ms })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(config: Value) -> String {
        sqlite_settings(&Some(config)).unwrap_err().to_string()
    }

    #[test]
    fn reads_path_driver_and_timeout_with_defaults() {
        let settings = sqlite_settings(&Some(json!({"path": "m.db"}))).unwrap();
        assert_eq!(settings, SqliteSettings { path: "m.db".into(), driver: None, busy_timeout_ms: 2_000 });
        let given = json!({"path": "m.db", "driver": "better-sqlite3", "busyTimeoutMs": 50});
        let settings = sqlite_settings(&Some(given)).unwrap();
        assert_eq!((settings.driver.as_deref(), settings.busy_timeout_ms), (Some("better-sqlite3"), 50));
    }

    #[test]
    fn bad_options_name_the_field() {
        assert!(message(json!({})).contains("storage.config.path: required"));
        assert!(sqlite_settings(&None).unwrap_err().to_string().contains("storage.config.path: required"));
        assert!(message(json!({"path": " "})).contains("storage.config.path: must not be empty"));
        assert!(message(json!({"path": 3})).contains("storage.config.path"));
        for cut in ["\0", "\0.x", "\n", "\t", "\u{1b}", "\u{85}"] {
            let refused = message(json!({ "path": format!("victim.db{cut}") }));
            assert!(
                refused.contains("storage.config.path: must not contain a control character (found U+"),
                "{refused}"
            );
        }
        assert!(message(json!({"path": "m.db", "driver": "sqlite3"})).contains("unknown driver \"sqlite3\""));
        assert!(message(json!({"path": "m.db", "busyTimeoutMs": 60_001})).contains("busyTimeoutMs"));
        assert!(message(json!({"path": "m.db", "dbName": "x"})).contains("dbName"));
    }
}
