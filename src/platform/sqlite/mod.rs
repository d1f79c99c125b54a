//! SQLite storage for Node: memories, their vectors, history, the graph (graph memory) and side records
//! in one database file (see `schema`). The Node entry opens the file (WAL, `synchronous = FULL`, an
//! exclusive lock for this process) and hands over the handle; each call's writes go into one transaction,
//! kept whole or not at all, and the memory reads everything once when it opens: from the open image and
//! its journal when it can (see `image`).

mod connection;
mod image;
mod rows;
mod schema;

use std::cell::OnceCell;
use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use self::connection::{from_sqlite, Connection, Param};
use self::rows::{graph_from_row, graph_json, history_from_row, history_json, memory_json};
use self::rows::{side_from_row, side_json};
use crate::core::codec::vector_to_bytes;
use crate::core::config::SqliteSettings;
use crate::core::error::{MemoryError, Result};
use crate::core::model::graph::GraphRecord;
use crate::core::model::types::{HistoryRecord, StoredMemory};
use crate::core::packed::Packed;
use crate::core::side_records::SideRecord;
use crate::core::storage::{Changeset, Storage};

pub use self::schema::VERSION as SCHEMA_VERSION;

/// A `Storage` in one SQLite database (`storage: {provider: "sqlite", config: {path}}`).
pub struct SqliteStorage {
    /// The host's `storage.open(settings)`, which resolves to a database handle (see `connection`).
    opener: Function,
    settings: SqliteSettings,
    /// The open database, its tables made or migrated.
    connection: OnceCell<Rc<Connection>>,
    /// The change sequence, and the open image waiting to be written.
    images: image::Images,
}

impl SqliteStorage {
    /// A storage that opens `settings.path` with `opener` on first use; `STORAGE_UNAVAILABLE` when the host
    /// has no opener (SQLite storage is Node's: its entry point gives one).
    pub fn new(opener: Option<&JsValue>, settings: SqliteSettings) -> Result<Self> {
        let Some(opener) = opener.and_then(|opener| opener.dyn_ref::<Function>()) else {
            let why = "storage.provider \"sqlite\" is available in Node only (import memwasm in Node 20 or later)";
            return Err(MemoryError::StorageUnavailable(why.into()));
        };
        Ok(Self { opener: opener.clone(), settings, connection: OnceCell::new(), images: Default::default() })
    }

    /// The connection, opened and its tables made or migrated on the first call.
    async fn tables(&self) -> Result<&Rc<Connection>> {
        if let Some(connection) = self.connection.get() {
            return Ok(connection);
        }
        let settings = js_sys::Object::new();
        let driver = self.settings.driver.as_deref().map_or(JsValue::UNDEFINED, JsValue::from_str);
        for (key, value) in [
            ("path", JsValue::from_str(&self.settings.path)),
            ("driver", driver),
            ("busyTimeoutMs", JsValue::from(self.settings.busy_timeout_ms)),
        ] {
            let _ = js_sys::Reflect::set(&settings, &key.into(), &value);
        }
        let context = format!("opening {}", self.settings.path);
        let opening = self.opener.call1(&JsValue::NULL, &settings).map_err(|e| from_sqlite(&context, &e))?;
        let handle = JsFuture::from(Promise::resolve(&opening)).await.map_err(|e| from_sqlite(&context, &e))?;
        let connection = Connection::new(&handle)?;
        if let Err(error) = schema::upgrade(&connection).and_then(|()| self.images.start(&connection)) {
            connection.close();
            return Err(error);
        }
        Ok(self.connection.get_or_init(|| Rc::new(connection)))
    }

    /// The decoded rows of a query, those that do not decode skipped with a warning.
    async fn read<T>(&self, table: &str, sql: &str, params: &[Param<'_>], decode: Decode<T>) -> Result<Vec<T>> {
        Ok(decoded(table, &self.tables().await?.all(sql, params)?, decode))
    }

    /// Issues every write of `changes`, change number `seq`, inside the caller's transaction.
    fn write(db: &Connection, changes: &Changeset, seq: u64) -> Result<()> {
        for id in &changes.deletes {
            db.run("DELETE FROM memories WHERE id = ?", &[Param::Text(id)])?;
            db.run("INSERT OR REPLACE INTO gone (id, changed) VALUES (?, ?)", &[Param::Text(id), Param::Int(seq)])?;
        }
        for memory in &changes.upserts {
            let vector = memory.embedding.as_deref().map(vector_to_bytes);
            let vector = vector.as_deref().map_or(Param::Null, Param::Blob);
            let record = memory_json(memory)?;
            let sql = "INSERT INTO memories (id, record, vector, changed) VALUES (?, ?, ?, ?) ON CONFLICT (id) \
                       DO UPDATE SET record = excluded.record, vector = excluded.vector, changed = excluded.changed";
            db.run(sql, &[Param::Text(&memory.item.id), Param::Text(&record), vector, Param::Int(seq)])?;
        }
        for record in &changes.history {
            let sql = "INSERT INTO history (id, memory_id, record) VALUES (?, ?, ?) \
                       ON CONFLICT (id) DO UPDATE SET memory_id = excluded.memory_id, record = excluded.record";
            let text = history_json(record)?;
            db.run(sql, &[Param::Text(&record.id), Param::Text(&record.memory_id), Param::Text(&text)])?;
        }
        for key in &changes.graph.deletes {
            db.run("DELETE FROM graph WHERE key = ?", &[Param::Text(key)])?;
        }
        for record in &changes.graph.upserts {
            let (key, text) = (record.key(), graph_json(record)?);
            db.run(
                "INSERT OR REPLACE INTO graph (key, record) VALUES (?, ?)",
                &[Param::Text(&key), Param::Text(&text)],
            )?;
        }
        for write in &changes.side {
            let (kind, key) = (Param::Text(&write.kind), Param::Text(&write.key));
            match &write.value {
                Some(value) => {
                    let text = side_json(value)?;
                    db.run(
                        "INSERT OR REPLACE INTO side (kind, key, value) VALUES (?, ?, ?)",
                        &[kind, key, Param::Text(&text)],
                    )?
                }
                None => db.run("DELETE FROM side WHERE kind = ? AND key = ?", &[kind, key])?,
            }
        }
        Ok(())
    }
}

impl Storage for SqliteStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        self.load_packed().await.map(Packed::into_memories)
    }

    async fn load_packed(&self) -> Result<Packed> {
        self.images.load(self.tables().await?)
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        if changes.is_empty() {
            return Ok(());
        }
        let db = self.tables().await?;
        let seq = self.images.next();
        db.transaction(|| Self::write(db, changes, seq))?;
        self.images.after_commit(db, changes.upserts.len(), changes.deletes.len());
        Ok(())
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        let sql = "SELECT id, record FROM history WHERE memory_id = ? ORDER BY seq";
        self.read("history", sql, &[Param::Text(memory_id)], history_from_row).await
    }

    async fn clear(&self) -> Result<()> {
        let db = self.tables().await?;
        self.images.forget();
        db.transaction(|| {
            db.exec("DELETE FROM memories; DELETE FROM history; DELETE FROM graph; DELETE FROM side; DELETE FROM image; DELETE FROM gone;")
        })
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        self.read("history", "SELECT id, record FROM history ORDER BY seq", &[], history_from_row).await.map(Some)
    }

    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        self.read("graph", "SELECT key, record FROM graph ORDER BY key", &[], graph_from_row).await.map(Some)
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        let sql = "SELECT key, value FROM side WHERE kind = ? ORDER BY key";
        self.read("side", sql, &[Param::Text(kind)], side_from_row).await
    }

    /// Closes the database; the handle refuses every later call (`STORAGE_UNAVAILABLE`).
    fn close(&self) {
        if let Some(connection) = self.connection.get() {
            self.images.flush(connection);
            connection.close();
        }
    }
}

impl Drop for SqliteStorage {
    /// Closes the database, releasing the file to other processes.
    fn drop(&mut self) {
        self.close();
    }
}

/// Decodes one row, or says why it does not decode.
type Decode<T> = fn(&JsValue) -> std::result::Result<T, String>;

/// The rows of `table` that decode, each other one skipped with a warning.
fn decoded<T>(table: &str, rows: &js_sys::Array, decode: Decode<T>) -> Vec<T> {
    rows.iter().filter_map(|row| decode(&row).map_err(|why| warn_corrupt(table, &why)).ok()).collect()
}

/// Warns that a stored row of `table` does not decode (it stays stored).
fn warn_corrupt(table: &str, why: &str) {
    warn(&format!("memwasm: skipped a corrupt row in SQLite table \"{table}\": {why}"));
}

fn warn(text: &str) {
    web_sys::console::warn_1(&JsValue::from_str(text));
}
