//! The database layout and its versions. SQLite's `user_version` is the schema version; `upgrade` brings a
//! database of any older version (0 = new) up to `VERSION` step by step, in one transaction, so an
//! interrupted upgrade leaves the old layout intact. A database of a newer version is refused.
//!
//! - `memories`: one row per memory: `id`, `record` (the memory's JSON, as IndexedDB stores it) and
//!   `vector` (little-endian `f32` bytes, or NULL). Rows load in `rowid` order, the order they were first
//!   written (an update keeps its row).
//! - `history`: one row per event, `seq` in insertion order, by `id` (unique) and `memory_id`.
//! - `graph`: graph memory's entities and relations, JSON under their key.
//! - `side`: side records (message buffers, the embedding cache, conversation metadata, …) by kind and key.
//! - From version 2, the open image and its journal (see `image`): `memories.changed`, the change sequence
//!   of each row's last write; `gone`, the ids deleted and when; `image`, the image in parts of at most
//!   256 KiB (`part` 0, 1, …), each with the sequence the image covers.

use js_sys::Array;

use super::connection::Connection;
use crate::core::error::{MemoryError, Result};

/// The schema version this library writes.
pub const VERSION: u32 = 2;

const VERSION_1: &str = "
CREATE TABLE memories (id TEXT PRIMARY KEY NOT NULL, record TEXT NOT NULL, vector BLOB);
CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
  memory_id TEXT NOT NULL, record TEXT NOT NULL);
CREATE INDEX history_by_memory ON history (memory_id, seq);
CREATE TABLE graph (key TEXT PRIMARY KEY NOT NULL, record TEXT NOT NULL);
CREATE TABLE side (kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, key));
";

const VERSION_2: &str = "
ALTER TABLE memories ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX memories_by_change ON memories (changed);
CREATE TABLE gone (id TEXT PRIMARY KEY NOT NULL, changed INTEGER NOT NULL);
CREATE TABLE image (part INTEGER PRIMARY KEY NOT NULL, seq INTEGER NOT NULL, bytes BLOB NOT NULL);
";

/// The stored schema version.
fn stored_version(connection: &Connection) -> Result<u32> {
    let rows = connection.all("PRAGMA user_version", &[])?;
    let version = Array::from(&rows.get(0)).get(0).as_f64().unwrap_or(0.0);
    Ok(version as u32)
}

/// Creates or migrates the tables; `STORAGE` for a database written by a newer memwasm.
pub fn upgrade(connection: &Connection) -> Result<()> {
    let old = stored_version(connection)?;
    if old > VERSION {
        let why = format!(
            "the SQLite database has schema version {old}, written by a newer memwasm (this one reads up to \
             {VERSION}); upgrade memwasm to open it"
        );
        return Err(MemoryError::Storage(why));
    }
    if old == VERSION {
        return Ok(());
    }
    connection.transaction(|| {
        if old < 1 {
            connection.exec(VERSION_1)?;
        }
        if old < 2 {
            connection.exec(VERSION_2)?;
        }
        // Later versions add `if old < 3 { … }` here.
        connection.exec(&format!("PRAGMA user_version = {VERSION}"))
    })
}
