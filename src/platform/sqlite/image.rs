//! The SQLite store's open image (`core::image`): one row of table `image` holding every memory and
//! vector as of change `seq`, and the journal after it (rows of `memories` whose `changed` is above `seq`,
//! ids in `gone` deleted after it). Opening reads the image and the journal instead of every row; a
//! missing, torn or foreign image, or a row count that disagrees (rows written by something other than
//! memwasm), reads every row instead. After such an open, one whose journal is large, or a write too large
//! for a journal, a fresh image is read from the rows and written half a second later, off the open (or
//! when the memory closes first), in one transaction: a crash mid-write leaves the old image. The image is
//! stored in parts of [`PART`] bytes, so that no value nears SQLite's length limit (1 GB) at any size.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Uint8Array};
use wasm_bindgen::{closure::Closure, JsCast, JsValue};

use super::connection::{Connection, Param};
use super::rows::memory_from_row;
use crate::core::error::Result;
use crate::core::image::{decode, encode, grown, journal_is_small, with_journal, Parts, WRITE_AFTER_MS};
use crate::core::model::types::StoredMemory;
use crate::core::packed::Packed;
use crate::platform::js_bytes::JsBytes;

/// The size of each stored part of the image.
const PART: usize = 256 * 1024;

/// The change sequence, whether a fresh image is due, and the memories stored (as the last load found
/// them, grown by the writes since).
#[derive(Default)]
pub struct Images {
    seq: Rc<Cell<u64>>,
    due: Rc<Cell<bool>>,
    stored: Cell<usize>,
}

impl Images {
    /// Reads the last change sequence used (call once the tables exist).
    pub fn start(&self, db: &Connection) -> Result<()> {
        let sql = "SELECT max((SELECT coalesce(max(changed), 0) FROM memories), \
                   (SELECT coalesce(max(changed), 0) FROM gone), (SELECT coalesce(max(seq), 0) FROM image))";
        self.seq.set(number(&first(&db.all(sql, &[])?), 0) as u64);
        Ok(())
    }

    /// The sequence of the next change.
    pub fn next(&self) -> u64 {
        self.seq.set(self.seq.get() + 1);
        self.seq.get()
    }

    /// Every stored memory, from the image and its journal when they can be used, else from every row;
    /// a fresh image is written soon after (off the open) when there was none or its journal is large.
    pub fn load(&self, db: &Rc<Connection>) -> Result<Packed> {
        let (packed, small) = match self.read_image(db)? {
            Some(read) => read,
            None => (Packed::unpacked(every_memory(db)?), false),
        };
        self.stored.set(packed.memories.len());
        if !small {
            self.write_soon(db);
        }
        Ok(packed)
    }

    /// After a committed write of `upserts` and `deletes`: when they are more than the journal of an image
    /// of the memories stored before it may hold (an import, a large delete), a fresh image is written
    /// soon, so the next open does not read them from the journal, nor every row.
    pub fn after_commit(&self, db: &Rc<Connection>, upserts: usize, deletes: usize) {
        let stored = self.stored.get();
        if !journal_is_small(upserts + deletes, stored) {
            self.write_soon(db);
        }
        self.stored.set(grown(stored, upserts, deletes));
    }

    /// The image with its journal applied, and whether the journal is small; `None` (after a warning when
    /// the image is unusable) to read every row instead.
    fn read_image(&self, db: &Rc<Connection>) -> Result<Option<(Packed, bool)>> {
        let Some(bytes) = stored_image(db)? else { return Ok(None) };
        let image = match decode(bytes) {
            Ok(image) => image,
            Err(why) => {
                super::warn(&format!("memwasm: the SQLite store's open image is not used ({why}); reading every row"));
                return Ok(None);
            }
        };
        let seq = image.seq;
        // The index, not a walk of every row in rowid order (the planner's choice without `INDEXED BY`).
        let sql =
            "SELECT id, record, vector FROM memories INDEXED BY memories_by_change WHERE changed > ? ORDER BY rowid";
        let rows = db.all(sql, &[Param::Int(seq)])?;
        let changed: Vec<StoredMemory> = rows.iter().filter_map(|row| memory_from_row(&row).ok()).collect();
        let gone = db.all("SELECT id FROM gone WHERE changed > ?", &[Param::Int(seq)])?;
        let gone: Vec<String> = gone.iter().filter_map(|row| Array::from(&row).get(0).as_string()).collect();
        let small = journal_is_small(rows.length() as usize + gone.len(), image.memories.len());
        let packed = with_journal(image, &gone, changed);
        let stored = number(&first(&db.all("SELECT count(*) FROM memories", &[])?), 0) as usize;
        Ok((packed.memories.len() == stored).then_some((packed, small)))
    }

    /// Writes a fresh image in [`WRITE_AFTER_MS`] (or when the memory closes first), read from the rows as
    /// they are then: the open does not wait for its encoding.
    fn write_soon(&self, db: &Rc<Connection>) {
        if self.due.replace(true) {
            return;
        }
        let (db, seq, due) = (Rc::clone(db), Rc::clone(&self.seq), Rc::clone(&self.due));
        let fire = Closure::once_into_js(move || write_due(&db, seq.get(), &due));
        let timer = crate::platform::timer::set_timeout(fire.unchecked_ref(), WRITE_AFTER_MS);
        unref(&timer);
    }

    /// Writes the due image now (before the database closes).
    pub fn flush(&self, db: &Connection) {
        write_due(db, self.seq.get(), &self.due);
    }

    /// No image is due any more (everything was deleted).
    pub fn forget(&self) {
        self.due.set(false);
    }
}

/// Every stored row that decodes, in rowid order.
pub fn every_memory(db: &Connection) -> Result<Vec<StoredMemory>> {
    let sql = "SELECT id, record, vector FROM memories ORDER BY rowid";
    Ok(super::decoded("memories", &db.all(sql, &[])?, memory_from_row))
}

/// When an image is due, reads every row (as of change `seq`: nothing else writes meanwhile), encodes their
/// image and writes it.
fn write_due(db: &Connection, seq: u64, due: &Cell<bool>) {
    if !due.replace(false) {
        return;
    }
    let written = every_memory(db).map(|memories| encode(&memories, seq)).and_then(|bytes| match bytes {
        Some(bytes) => write(db, seq, &bytes),
        None => Ok(()),
    });
    if let Err(error) = written {
        super::warn(&format!("memwasm: the SQLite store's open image was not written ({error})"));
    }
}

/// The stored image's parts as SQLite returned them (not joined: decoding reads them a piece at a time),
/// `None` when there is none. Parts of two images never mix (each write replaces every part in one
/// transaction); should they, the checksum rejects the result.
fn stored_image(db: &Connection) -> Result<Option<Parts>> {
    let rows = db.all("SELECT bytes FROM image ORDER BY part", &[])?;
    let (mut parts, mut found) = (Parts::default(), false);
    for part in rows.iter().filter_map(|row| Array::from(&row).get(0).dyn_into::<Uint8Array>().ok()) {
        parts.push(Box::new(JsBytes(part)));
        found = true;
    }
    Ok(found.then_some(parts))
}

/// Writes the image `bytes` of change `seq` in place of the stored one, and drops the tombstones it covers,
/// in one transaction; a failure (a closed database, a full disk) leaves the previous image, which the
/// journal still brings up to date.
fn write(db: &Connection, seq: u64, bytes: &[u8]) -> Result<()> {
    db.transaction(|| {
        db.exec("DELETE FROM image")?;
        for (part, chunk) in bytes.chunks(PART).enumerate() {
            let sql = "INSERT INTO image (part, seq, bytes) VALUES (?, ?, ?)";
            db.run(sql, &[Param::Int(part as u64), Param::Int(seq), Param::Blob(chunk)])?;
        }
        db.run("DELETE FROM gone WHERE changed <= ?", &[Param::Int(seq)])
    })
}

/// Lets Node exit while the timer waits (Node's timers have `unref`; others have nothing to do).
fn unref(timer: &JsValue) {
    let unref = js_sys::Reflect::get(timer, &"unref".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(unref) = unref {
        let _ = unref.call0(timer);
    }
}

/// The first row of `rows` (undefined when there is none).
fn first(rows: &Array) -> JsValue {
    rows.get(0)
}

/// Column `at` of `row` as a number (`0` when it is not one).
fn number(row: &JsValue, at: u32) -> f64 {
    if row.is_undefined() {
        return 0.0;
    }
    Array::from(row).get(at).as_f64().unwrap_or(0.0)
}
