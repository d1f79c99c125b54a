//! Opening without an image (see `image`): every memory record, every pack (see `packs`) and every
//! `vectors` chunk, read with one `getAll` each in one readonly transaction (a consistent snapshot, with
//! the change counter it includes), handed to the index as [`Packed`] memories and rows (another tab's notice reads some records and chunks,
//! joined the same way). Records are joined to their rows by chunk and id before any vector is copied;
//! then each chunk is copied into wasm once, into one reused buffer, and the index copies its rows from
//! there. [`Placement`] is filled as the chunks go by.
//!
//! A record whose chunk has no row for it is skipped with a warning (it stays stored), as a record that
//! does not decode is; a record whose stored vector is not finite is loaded without it (listed, not found
//! by vector search), also with a warning.

use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::JsCast;
use web_sys::IdbDatabase;

use super::chunk::{fingerprint, JsChunk};
use super::connection::{Reading, READ_CONTEXT};
use super::journal::Changes;
use super::outcome::settled;
use super::packs::memories_of;
use super::placement::Placed;
use super::records::{memories_from_js, MemoryRecord};
use super::schema::{MEMORIES, VECTORS};
use super::{skip_corrupt, warn_corrupt, Shared};
use crate::core::error::Result;
use crate::core::packed::{Packed, RowChunk, RowSource};

/// Where a memory's record sits among the records: its `order`, the chunk holding its vector and, when
/// the open image says it, the vector's fingerprint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    pub order: f64,
    pub chunk: Option<u32>,
    pub print: Option<u64>,
}

/// Every record, read at once: the memories, each one's place, and the last change number they include.
pub struct FullRead {
    pub packed: Packed,
    pub places: Vec<Place>,
    pub seq: u64,
    /// The database they were read from (see `Reading`).
    pub database: IdbDatabase,
}

/// Every stored memory in `stores`, oldest first, and their vectors as rows; `shared`'s placement (when
/// given: opening) is refilled as the rows are handed out.
pub async fn read_all(stores: Reading, shared: Option<Rc<Shared>>) -> Result<FullRead> {
    let changes = Changes::read(&stores.image, READ_CONTEXT);
    let records = settled(stores.memories.get_all(), READ_CONTEXT);
    let packs = settled(stores.packs.get_all(), READ_CONTEXT);
    let chunks = settled(stores.vectors.get_all(), READ_CONTEXT);
    // The records are decoded while the database reads the chunks.
    let records: Array = records.await?.unchecked_into();
    let packs: Array = packs.await?.unchecked_into();
    let records = memories_from_js(&records).into_iter().chain(packs.iter().flat_map(|pack| memories_of(&pack)));
    let records: Vec<MemoryRecord> = records.filter_map(|record| skip_corrupt(MEMORIES, record)).collect();
    let chunks: Array = chunks.await?.unchecked_into();
    let chunks =
        chunks.iter().filter_map(|chunk| JsChunk::from_js(&chunk).map_err(|why| warn_corrupt(VECTORS, &why)).ok());
    let chunks: Vec<JsChunk> = chunks.collect();
    let seq = changes.await?.last;
    if let Some(shared) = &shared {
        let mut placement = shared.placement.borrow_mut();
        placement.clear();
        placement.reserve(records.len());
    }
    let (packed, places) = pack(records, chunks, shared);
    Ok(FullRead { packed, places, seq, database: stores.database })
}

/// `records`, oldest first, with the rows of `chunks` that hold their vectors, and each one's place; the
/// rows' places are noted in `shared`'s placement (when given) as they are handed out.
pub fn pack(records: Vec<MemoryRecord>, chunks: Vec<JsChunk>, shared: Option<Rc<Shared>>) -> (Packed, Vec<Place>) {
    let rows = find_rows(&records, &chunks);
    let mut kept: Vec<_> = records.into_iter().zip(rows).filter(|(record, row)| has_row(record, row)).collect();
    crate::core::sort::sort_by(&mut kept, |(a, _), (b, _)| {
        a.memory.item.created_at.cmp(&b.memory.item.created_at).then(a.order.total_cmp(&b.order))
    });
    let mut owners: Vec<Vec<Option<u32>>> = chunks.iter().map(|chunk| vec![None; chunk.ids.len()]).collect();
    for (owner, (_, row)) in kept.iter().enumerate() {
        if let Some((chunk, row)) = *row {
            owners[chunk][row] = Some(owner as u32);
        }
    }
    let chunks: Vec<_> = chunks.into_iter().zip(owners).collect();
    let rows = ChunkRows { chunks: chunks.into_iter(), owners: Vec::new(), buffer: Vec::new(), shared };
    let places =
        kept.iter().map(|(record, _)| Place { order: record.order, chunk: record.chunk, print: None }).collect();
    (Packed::new(kept.into_iter().map(|(record, _)| record.memory).collect(), Box::new(rows)), places)
}

/// Per record, the (chunk, row) holding its vector: the last row of its chunk with its id.
fn find_rows(records: &[MemoryRecord], chunks: &[JsChunk]) -> Vec<Option<(usize, usize)>> {
    let mut wanted: HashMap<&str, (usize, u32)> = HashMap::with_capacity(records.len());
    for (at, record) in records.iter().enumerate() {
        if let Some(key) = record.chunk {
            wanted.insert(&record.memory.item.id, (at, key));
        }
    }
    let mut rows = vec![None; records.len()];
    for (index, chunk) in chunks.iter().enumerate() {
        for (row, id) in chunk.ids.iter().enumerate() {
            match wanted.get(id.as_str()) {
                Some(&(at, key)) if key == chunk.key => rows[at] = Some((index, row)),
                _ => {}
            }
        }
    }
    rows
}

/// False (with a warning) for a record naming a chunk that has no row for it.
fn has_row(record: &MemoryRecord, row: &Option<(usize, usize)>) -> bool {
    match (record.chunk, row) {
        (Some(chunk), None) => {
            let id = &record.memory.item.id;
            warn_corrupt(MEMORIES, &format!("record \"{id}\": its vector chunk {chunk} has no row for it"));
            false
        }
        _ => true,
    }
}

/// The chunks with the owner of each row, handed out one at a time through one reused buffer.
struct ChunkRows {
    chunks: std::vec::IntoIter<(JsChunk, Vec<Option<u32>>)>,
    /// The owners of the chunk handed out last.
    owners: Vec<Option<u32>>,
    buffer: Vec<f32>,
    shared: Option<Rc<Shared>>,
}

impl RowSource for ChunkRows {
    fn next_chunk(&mut self) -> Option<RowChunk<'_>> {
        let (chunk, owners) = self.chunks.next()?;
        self.owners = owners;
        self.buffer.resize(chunk.values.length() as usize, 0.0);
        chunk.values.copy_to(&mut self.buffer);
        let mut placement = self.shared.as_ref().map(|shared| shared.placement.borrow_mut());
        let rows = self.owners.iter_mut().zip(chunk.ids).zip(self.buffer.chunks_exact(chunk.dim));
        for ((owner, id), row) in rows.filter(|((owner, _), _)| owner.is_some()) {
            if row.iter().all(|x| x.is_finite()) {
                if let Some(placement) = placement.as_mut() {
                    placement.insert(id, Placed { chunk: chunk.key, print: fingerprint(row) });
                }
            } else {
                warn_corrupt(MEMORIES, &format!("record \"{id}\": its vector in chunk {} is not finite", chunk.key));
                *owner = None;
            }
        }
        Some(RowChunk { dim: chunk.dim, owners: &self.owners, values: &self.buffer })
    }
}
