//! A store's open image: every memory record and vector in one checked binary blob, so that opening a
//! persistent memory reads one value instead of decoding each record's JSON and each vector on its own.
//!
//! Records stay the source of truth. A storage keeps the image beside them with the change sequence it
//! covers (`seq`), and a journal: the records changed (and the ids deleted) after `seq`. Opening reads the
//! image, applies the journal ([`with_journal`]) and gets exactly what reading every record would give,
//! in the same order. An image that is torn, altered, of another format or written by another version of
//! this library is rejected here ([`decode`] says why) and the storage reads the records instead, then
//! writes a fresh image: it is never trusted, only used.
//!
//! Layout (little-endian): `MWIM`, format (u32), the writer's library version (text), payload length (u64),
//! checksum (u64) and the length of the payload's part before the vector values (u64), then the payload:
//! `seq` (u64), the record count (u32) and each record (`record`), the records' keyword terms
//! (`keywords`), then the vector dimension (u32), the row count (u32), each row's record index (u32) and
//! the rows' `f32` values. Knowing where the values begin, a decoder reads the records' part and leaves
//! the values where they are (`source`).

mod bytes;
mod checksum;
mod journal;
mod keywords;
mod parts;
mod record;
mod rows;
mod source;
#[cfg(test)]
mod source_tests;
#[cfg(test)]
mod tests;

pub use self::bytes::Rejected;
use self::bytes::{arrays, put_floats, Reader, Writer};
use self::checksum::{checksum, Checksum};
pub use self::journal::with_journal;
pub use self::parts::Parts;
pub use self::rows::ImageRows;
pub use self::source::ImageBytes;
use self::source::{read_part, sum_part};
use std::rc::Rc;

use crate::core::keyword::CountedTexts;
use crate::core::model::types::StoredMemory;
use crate::core::packed::{CountedKeywords, Packed};

/// The image format this library writes and reads; any other is rebuilt.
pub const IMAGE_FORMAT: u32 = 3;
const MAGIC: &[u8; 4] = b"MWIM";
/// The most vector bytes an image holds: a larger store opens from its records (encoding a larger image
/// beside the loaded index would near wasm32's 4 GiB of memory). 100,000 memories of 1,024 dimensions fit.
pub const MAX_VECTOR_BYTES: usize = 448 << 20;
/// The version of the library that wrote an image: an image from any other version is rebuilt.
const WRITER: &str = env!("CARGO_PKG_VERSION");
/// How long after opening a storage writes a fresh image, off the open (when the memory stays open).
pub const WRITE_AFTER_MS: f64 = 500.0;
/// A journal of up to this many entries never calls for a fresh image, whatever the store's size.
const SMALL_JOURNAL: usize = 256;

/// Whether an image over `count` memories, with `journal` records changed or deleted after it, is still
/// worth keeping: above max(256, count/16) entries, opening reads too much beside the image and the storage
/// writes a fresh one soon after the open (the image and its journal are still used for that open).
pub fn journal_is_small(journal: usize, count: usize) -> bool {
    journal <= journal_limit(count)
}

/// The memories stored after a write of `upserts` and `deletes` over `count`, as far as the write tells:
/// an upsert may replace a memory, so this may count high, which only lets the journal grow longer before a
/// write calls for a fresh image (an open still folds it).
pub fn grown(count: usize, upserts: usize, deletes: usize) -> usize {
    count.saturating_add(upserts).saturating_sub(deletes)
}

/// The most journal entries an image over `count` memories is kept with: max(256, count/16).
pub fn journal_limit(count: usize) -> usize {
    SMALL_JOURNAL.max(count / 16)
}

/// A decoded image: the memories (without their vectors) in stored order, and their vectors as rows.
pub struct Decoded {
    /// The last change sequence the image covers.
    pub seq: u64,
    pub memories: Vec<StoredMemory>,
    pub rows: ImageRows,
    /// The memories' keyword terms, in the same order.
    pub counted: CountedTexts,
}

impl Decoded {
    /// The memories, their vectors and their keyword terms, for the indexes to load in bulk.
    pub fn into_packed(self) -> Packed {
        let of_memory = (0..self.memories.len() as u32).map(Some).collect();
        let counted = Some(CountedKeywords { texts: Rc::new(self.counted), of_memory });
        Packed { memories: self.memories, rows: Box::new(self.rows), counted }
    }
}

/// The image of `memories` (with their vectors), covering changes up to `seq`; `None` when their vectors
/// differ in length (the index would refuse them) or exceed [`MAX_VECTOR_BYTES`]: such a store opens from
/// its records.
pub fn encode(memories: &[StoredMemory], seq: u64) -> Option<Vec<u8>> {
    let dim = memories.iter().find_map(|memory| memory.embedding.as_ref().map(Vec::len)).unwrap_or(0);
    if !fits(memories.len(), dim) {
        return None;
    }
    let rows: Vec<(usize, &Vec<f32>)> =
        memories.iter().enumerate().filter_map(|(at, memory)| Some((at, memory.embedding.as_ref()?))).collect();
    if rows.iter().any(|(_, vector)| vector.len() != dim) {
        return None;
    }
    // One buffer, written once: the header's length and checksum are filled in after the payload, so the
    // image never exists twice (a Durable Object encodes one beside its warm index, within its memory limit).
    let mut image = Writer { bytes: Vec::with_capacity(rows.len() * (dim + 1) * 4 + memories.len() * 256 + 64) };
    image.bytes.extend_from_slice(MAGIC);
    image.u32(IMAGE_FORMAT);
    image.str(WRITER);
    let sizes = image.bytes.len();
    image.u64(0);
    image.u64(0);
    image.u64(0);
    let payload = image.bytes.len();
    image.u64(seq);
    image.u32(memories.len() as u32);
    memories.iter().for_each(|memory| record::write_item(&mut image, &memory.item));
    keywords::write(&mut image, memories);
    image.u32(dim as u32);
    image.u32(rows.len() as u32);
    rows.iter().for_each(|(at, _)| image.u32(*at as u32));
    let front = (image.bytes.len() - payload) as u64;
    image.bytes.reserve_exact(rows.len() * dim * 4);
    rows.iter().for_each(|(_, vector)| put_floats(&mut image.bytes, vector));
    let length = (image.bytes.len() - payload) as u64;
    let sum = checksum(&image.bytes[payload..]);
    image.bytes[sizes..sizes + 8].copy_from_slice(&length.to_le_bytes());
    image.bytes[sizes + 8..sizes + 16].copy_from_slice(&sum.to_le_bytes());
    image.bytes[sizes + 16..payload].copy_from_slice(&front.to_le_bytes());
    Some(image.bytes)
}

/// True when `count` vectors of `dim` values fit in an image.
fn fits(count: usize, dim: usize) -> bool {
    count.saturating_mul(dim).saturating_mul(4) <= MAX_VECTOR_BYTES
}

/// The longest header read before its fields are known (the writer's version is a short text).
const HEADER_MAX: usize = 256;

/// The image in `bytes`, or why it cannot be used (torn, altered, another format or library version).
/// Only the part before the vector values is copied (when `bytes` are not in this memory); the values are
/// summed through a window and read a chunk at a time as the index takes them.
pub fn decode(bytes: impl ImageBytes + 'static) -> Result<Decoded, Rejected> {
    let image: Box<dyn ImageBytes> = Box::new(bytes);
    let size = image.size();
    let start = read_part(&*image, 0, size.min(HEADER_MAX));
    let mut header = Reader::new(&start);
    if header.take(4).ok() != Some(MAGIC.as_slice()) {
        return Err("not a memwasm image".into());
    }
    let format = header.u32()?;
    let writer = header.str()?;
    if format != IMAGE_FORMAT || writer != WRITER {
        return Err(format!(
            "written by memwasm {writer} in format {format} (this is {WRITER}, format {IMAGE_FORMAT})"
        ));
    }
    let (length, sum, front) = (header.u64()?, header.u64()?, header.u64()?);
    let header_length = header.position();
    drop(start);
    let total = usize::try_from(length).ok().and_then(|length| header_length.checked_add(length));
    if total.is_none_or(|total| total > size) {
        return Err(format!("cut short (its header says {length} bytes follow it; {size} bytes in all)"));
    }
    if total != Some(size) {
        return Err(format!("torn or altered ({size} bytes, longer than its header says)"));
    }
    let (length, front) = (size - header_length, usize::try_from(front).unwrap_or(usize::MAX));
    if front > length {
        return Err("torn or altered (its vectors would begin past its end)".into());
    }
    let values_at = header_length + front;
    let payload = read_part(&*image, header_length, front);
    let mut summed = Checksum::default();
    summed.add(&payload);
    sum_part(&*image, values_at, length - front, &mut summed);
    if summed.finish() != sum {
        return Err("torn or altered (its checksum does not match)".into());
    }
    let mut input = Reader::new(&payload);
    let seq = input.u64()?;
    let count = input.u32()? as usize;
    let mut memories = Vec::with_capacity(count.min(payload.len()));
    let mut seen = record::SeenMetadata::default();
    for _ in 0..count {
        memories.push(StoredMemory { item: record::read_item(&mut input, &mut seen)?, embedding: None });
    }
    let counted = keywords::read(&mut input, count)?;
    let dim = input.u32()? as usize;
    let row_count = input.u32()? as usize;
    let owner_bytes = input.take(row_count.checked_mul(4).ok_or("too many rows")?)?;
    let owners: Vec<Option<u32>> = arrays(owner_bytes).map(|b| Some(u32::from_le_bytes(b))).collect();
    if owners.iter().flatten().any(|owner| *owner as usize >= count) {
        return Err("a vector row names no record".into());
    }
    if !input.at_end() {
        return Err("its vectors do not begin where its header says".into());
    }
    if row_count.checked_mul(dim).and_then(|n| n.checked_mul(4)) != Some(length - front) {
        return Err("its vectors are not as many as its rows".into());
    }
    drop(payload);
    let rows = ImageRows { dim, owners, image, values_at, next_row: 0, chunk: Vec::new() };
    Ok(Decoded { seq, memories, rows, counted })
}
