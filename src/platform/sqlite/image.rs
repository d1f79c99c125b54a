//! The SQLite store's open image (`core::image`): one row of table `image` holding every memory and
//! vector as of change `seq`, and the journal after it (rows of `memories` whose `changed` is above `seq`,
//! ids in `gone` deleted after it). Opening reads the image and the journal instead of every row; a
//! missing, torn or foreign image, a large journal, or a row count that disagrees (rows written by
//! something other than memwasm) reads every row instead, and a fresh image is written shortly after
//! (or when the memory closes), in one transaction: a crash mid-write leaves the old image. The image is
//! stored in parts of [`PART`] bytes, so that no value nears SQLite's length limit (1 GB) at any size.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Uint8Array};
use wasm_bindgen::{closure::Closure, JsCast, JsValue};

use super::connection::{Connection, Param};
use super::rows::memory_from_row;
use crate::core::error::Result;
use crate::core::image::{decode, encode, with_journal};
use crate::core::model::types::StoredMemory;
use crate::core::packed::Packed;

/// How long after opening a fresh image is written (when the memory is not closed before).
const WRITE_AFTER_MS: f64 = 500.0;
/// Below this many journal entries an image is always used as it is.
const SMALL_JOURNAL: usize = 256;
/// The size of each stored part of the image.
const PART: usize = 256 * 1024;

/// An encoded image and the change sequence it covers, waiting to be written.
type Pending = RefCell<Option<(u64, Vec<u8>)>>;

/// The change sequence and the image waiting to be written.
#[derive(Default)]
pub struct Images {
    seq: Cell<u64>,
    pending: Rc<Pending>,
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

    /// Every stored memory, from the image and its journal when they can be used, else from every row.
    pub fn load(&self, db: &Rc<Connection>, read_all: impl FnOnce() -> Result<Vec<StoredMemory>>) -> Result<Packed> {
        if let Some(packed) = self.read_image(db)? {
            return Ok(packed);
        }
        let memories = read_all()?;
        self.keep(db, &memories);
        Ok(Packed::unpacked(memories))
    }

    /// The image with its journal applied; `None` (after a warning when the image is unusable) to read
    /// every row instead.
    fn read_image(&self, db: &Rc<Connection>) -> Result<Option<Packed>> {
        let Some(bytes) = stored_image(db)? else { return Ok(None) };
        let image = match decode(&bytes) {
            Ok(image) => image,
            Err(why) => {
                super::warn(&format!("memwasm: the SQLite store's open image is not used ({why}); reading every row"));
                return Ok(None);
            }
        };
        let seq = Param::Int(image.seq);
        // The index, not a walk of every row in rowid order (the planner's choice without `INDEXED BY`).
        let sql =
            "SELECT id, record, vector FROM memories INDEXED BY memories_by_change WHERE changed > ? ORDER BY rowid";
        let rows = db.all(sql, &[seq])?;
        let changed: Vec<StoredMemory> = rows.iter().filter_map(|row| memory_from_row(&row).ok()).collect();
        let gone = db.all("SELECT id FROM gone WHERE changed > ?", &[Param::Int(image.seq)])?;
        let gone: Vec<String> = gone.iter().filter_map(|row| Array::from(&row).get(0).as_string()).collect();
        let journal = rows.length() as usize + gone.len();
        let count = image.memories.len();
        let packed = with_journal(image, &gone, changed);
        let stored = number(&first(&db.all("SELECT count(*) FROM memories", &[])?), 0) as usize;
        if packed.memories.len() != stored {
            return Ok(None);
        }
        if journal > SMALL_JOURNAL.max(count / 16) {
            let memories = packed.into_memories();
            self.keep(db, &memories);
            return Ok(Some(Packed::unpacked(memories)));
        }
        Ok(Some(packed))
    }

    /// Encodes the image of `memories` (all of them, as of now) and writes it soon.
    fn keep(&self, db: &Rc<Connection>, memories: &[StoredMemory]) {
        let Some(bytes) = encode(memories, self.seq.get()) else { return };
        let first_pending = self.pending.replace(Some((self.seq.get(), bytes))).is_none();
        if first_pending {
            let (db, pending) = (Rc::clone(db), Rc::clone(&self.pending));
            let fire = Closure::once_into_js(move || write(&db, &pending));
            let timer = crate::platform::timer::set_timeout(fire.unchecked_ref(), WRITE_AFTER_MS);
            unref(&timer);
        }
    }

    /// Writes the waiting image now (before the database closes).
    pub fn flush(&self, db: &Connection) {
        write(db, &self.pending);
    }

    /// Forgets the waiting image (everything was deleted).
    pub fn forget(&self) {
        self.pending.take();
    }
}

/// The stored image's parts joined, `None` when there is none. Parts of two images never mix (each write
/// replaces every part in one transaction); should they, the checksum rejects the result.
fn stored_image(db: &Connection) -> Result<Option<Vec<u8>>> {
    let parts = db.all("SELECT bytes FROM image ORDER BY part", &[])?;
    let parts: Vec<Uint8Array> = parts.iter().filter_map(|row| Array::from(&row).get(0).dyn_into().ok()).collect();
    if parts.is_empty() {
        return Ok(None);
    }
    // Not zeroed first: zeroing the image's length took as long as reading it.
    let mut bytes = Vec::with_capacity(parts.iter().map(|part| part.length() as usize).sum());
    parts.iter().for_each(|part| bytes.extend_from_slice(&part.to_vec()));
    Ok(Some(bytes))
}

/// Writes the waiting image, if any, in place of the stored one, and drops the tombstones it covers, in
/// one transaction; a failure (a closed database, a full disk) leaves the previous image, which the journal
/// still brings up to date.
fn write(db: &Connection, pending: &Pending) {
    let Some((seq, bytes)) = pending.take() else { return };
    let written = db.transaction(|| {
        db.exec("DELETE FROM image")?;
        for (part, chunk) in bytes.chunks(PART).enumerate() {
            let sql = "INSERT INTO image (part, seq, bytes) VALUES (?, ?, ?)";
            db.run(sql, &[Param::Int(part as u64), Param::Int(seq), Param::Blob(chunk)])?;
        }
        db.run("DELETE FROM gone WHERE changed <= ?", &[Param::Int(seq)])
    });
    if let Err(error) = written {
        super::warn(&format!("memwasm: the SQLite store's open image was not written ({error})"));
    }
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
