//! Memories loaded in bulk with their vectors in chunks of rows ([`Storage::load_packed`]), so that
//! opening copies each vector once, straight into the index, instead of through one `Vec` per memory.
//!
//! [`Storage::load_packed`]: super::storage::Storage::load_packed

use std::rc::Rc;

use super::keyword::CountedTexts;
use super::model::types::StoredMemory;

/// Every stored memory, oldest first, and a source of their vectors.
pub struct Packed {
    /// The memories. A memory's own `embedding` is its vector unless a row of `rows` gives it one.
    pub memories: Vec<StoredMemory>,
    /// The vectors, chunk by chunk; each row names the memory (its index in `memories`) it belongs to.
    pub rows: Box<dyn RowSource>,
    /// The memories' keyword terms counted ahead (an open image keeps them), when known.
    pub counted: Option<CountedKeywords>,
}

/// The keyword terms of packed memories, counted ahead: `of_memory[i]` is the counted text of memory `i`
/// (`None`: its text is tokenized when indexed, as a memory changed since the image was written).
pub struct CountedKeywords {
    pub texts: Rc<CountedTexts>,
    pub of_memory: Vec<Option<u32>>,
}

impl Packed {
    /// Memories and the source of their vectors, without counted keyword terms.
    pub fn new(memories: Vec<StoredMemory>, rows: Box<dyn RowSource>) -> Self {
        Self { memories, rows, counted: None }
    }

    /// Memories that carry their vectors themselves (no rows).
    pub fn unpacked(memories: Vec<StoredMemory>) -> Self {
        Self::new(memories, Box::new(NoRows))
    }

    /// The counted text of memory `at`, when there is one.
    pub fn counted_text(&self, at: usize) -> Option<(&Rc<CountedTexts>, usize)> {
        let counted = self.counted.as_ref()?;
        Some((&counted.texts, (*counted.of_memory.get(at)?)? as usize))
    }

    /// The memories with each row's vector attached to its memory: the slow path, one `Vec` per vector.
    pub fn into_memories(mut self) -> Vec<StoredMemory> {
        while let Some(chunk) = self.rows.next_chunk() {
            for (owner, row) in chunk.rows() {
                if let Some(memory) = self.memories.get_mut(owner) {
                    memory.embedding = Some(row.to_vec());
                }
            }
        }
        self.memories
    }
}

/// The memories; the rows are not shown (reading them would use them up).
impl std::fmt::Debug for Packed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Packed").field("memories", &self.memories).finish_non_exhaustive()
    }
}

/// One chunk of vectors: `dim` values per row, row after row, and each row's memory.
#[derive(Debug, Clone, Copy)]
pub struct RowChunk<'a> {
    pub dim: usize,
    /// Per row, the index in [`Packed::memories`] of its memory; `None` for a row to skip.
    pub owners: &'a [Option<u32>],
    pub values: &'a [f32],
}

impl<'a> RowChunk<'a> {
    /// Every row that has a memory, as (memory index, values). Rows beyond `values` are ignored.
    pub fn rows(self) -> impl Iterator<Item = (usize, &'a [f32])> {
        let rows = self.values.chunks_exact(self.dim.max(1)).filter(move |_| self.dim > 0);
        self.owners.iter().zip(rows).filter_map(|(owner, row)| Some((owner.map(|o| o as usize)?, row)))
    }
}

/// Hands out vectors one chunk at a time (so only one chunk need be decoded at once).
pub trait RowSource {
    /// The next chunk, or `None` when every chunk was handed out.
    fn next_chunk(&mut self) -> Option<RowChunk<'_>>;
}

/// A source without rows.
pub struct NoRows;

impl RowSource for NoRows {
    fn next_chunk(&mut self) -> Option<RowChunk<'_>> {
        None
    }
}
