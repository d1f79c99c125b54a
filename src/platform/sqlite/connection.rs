//! The database handle the Node entry opens (memwasm's `sqlite.mjs`, over `node:sqlite` or
//! `better-sqlite3`): an object with `exec(sql)`, `run(sql, params)` and `all(sql, params)` (rows as
//! arrays), called synchronously, so a transaction begun here ends before any other call of this memory
//! runs. A driver's error carries SQLite's code (`SQLITE_FULL`, `SQLITE_BUSY`, …), mapped here to ours.

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::core::error::{MemoryError, Result};

/// A parameter or column value.
pub enum Param<'a> {
    Text(&'a str),
    Blob(&'a [u8]),
    /// An integer (change sequences: far below 2^53, exact as a JS number).
    Int(u64),
    Null,
}

impl Param<'_> {
    fn to_js(&self) -> JsValue {
        match self {
            Self::Text(text) => JsValue::from_str(text),
            Self::Blob(bytes) => js_sys::Uint8Array::from(*bytes).into(),
            Self::Int(value) => JsValue::from_f64(*value as f64),
            Self::Null => JsValue::NULL,
        }
    }
}

/// The handle, its three methods looked up once.
pub struct Connection {
    handle: JsValue,
    exec: Function,
    run: Function,
    all: Function,
}

impl Connection {
    /// Wraps `handle`; `INVALID_CONFIG` unless it has `exec`, `run` and `all` methods.
    pub fn new(handle: &JsValue) -> Result<Self> {
        let method = |name: &str| Reflect::get(handle, &name.into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
        match (method("exec"), method("run"), method("all")) {
            (Some(exec), Some(run), Some(all)) => Ok(Self { handle: handle.clone(), exec, run, all }),
            _ => Err(MemoryError::InvalidConfig(
                "storage.connection: must be a database opened by memwasm's Node entry (exec, run, all)".into(),
            )),
        }
    }

    /// Closes the database (releasing the file to other processes), when the handle can.
    pub fn close(&self) {
        let close = Reflect::get(&self.handle, &"close".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
        if let Some(close) = close {
            let _ = close.call0(&self.handle);
        }
    }

    /// Runs statements without parameters or results.
    pub fn exec(&self, sql: &str) -> Result<()> {
        self.exec.call1(&self.handle, &sql.into()).map(drop).map_err(|e| from_sqlite(&short(sql), &e))
    }

    /// Runs one statement with `params`.
    pub fn run(&self, sql: &str, params: &[Param]) -> Result<()> {
        let params: Array = params.iter().map(Param::to_js).collect();
        self.run.call2(&self.handle, &sql.into(), &params).map(drop).map_err(|e| from_sqlite(&short(sql), &e))
    }

    /// The rows of one query with `params`, each an array of its columns.
    pub fn all(&self, sql: &str, params: &[Param]) -> Result<Array> {
        let params: Array = params.iter().map(Param::to_js).collect();
        let rows = self.all.call2(&self.handle, &sql.into(), &params).map_err(|e| from_sqlite(&short(sql), &e))?;
        rows.dyn_into().map_err(|_| MemoryError::Storage(format!("SQLite: {}: the rows are not an array", short(sql))))
    }

    /// Runs `write` in one `BEGIN IMMEDIATE` … `COMMIT`: all of it, or (rolled back) none of it.
    pub fn transaction<T>(&self, write: impl FnOnce() -> Result<T>) -> Result<T> {
        self.exec("BEGIN IMMEDIATE")?;
        match write().and_then(|value| self.exec("COMMIT").map(|()| value)) {
            Ok(value) => Ok(value),
            Err(error) => {
                let _ = self.exec("ROLLBACK");
                Err(nothing_written(error))
            }
        }
    }
}

/// `error`, saying that the write it ended was rolled back.
fn nothing_written(error: MemoryError) -> MemoryError {
    match error {
        MemoryError::Storage(why) => MemoryError::Storage(format!("{why}; nothing was written")),
        MemoryError::StorageQuota(why) => MemoryError::StorageQuota(format!("{why}; nothing was written")),
        MemoryError::StorageUnavailable(why) => MemoryError::StorageUnavailable(format!("{why}; nothing was written")),
        other => other,
    }
}

/// The first words of a statement, to say which one failed.
fn short(sql: &str) -> String {
    sql.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// A driver's exception in `context` (the statement, or what was being done) as our error, by SQLite's
/// result code (the primary one: `SQLITE_IOERR_WRITE` is `SQLITE_IOERR`).
pub fn from_sqlite(context: &str, error: &JsValue) -> MemoryError {
    let text = |key: &str| Reflect::get(error, &key.into()).ok().and_then(|v| v.as_string());
    let message = text("message").or_else(|| error.as_string()).unwrap_or_else(|| "failed".into());
    let code = text("code").unwrap_or_default();
    let primary = code.split('_').take(2).collect::<Vec<_>>().join("_");
    let said = format!("SQLite {code} in {context}: {message}");
    if code.starts_with("STORAGE_UNAVAILABLE") {
        return MemoryError::StorageUnavailable(message);
    }
    match primary.as_str() {
        "SQLITE_FULL" => MemoryError::StorageQuota(format!("{said} (the disk or the database's size limit is full)")),
        "SQLITE_BUSY" | "SQLITE_LOCKED" => MemoryError::StorageUnavailable(format!(
            "{said} (another process, or another open memory, holds the database file)"
        )),
        "SQLITE_READONLY" | "SQLITE_CANTOPEN" | "SQLITE_PERM" => {
            MemoryError::StorageUnavailable(format!("{said} (the database file cannot be written)"))
        }
        _ => MemoryError::Storage(said),
    }
}
