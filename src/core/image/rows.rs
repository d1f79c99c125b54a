//! The image's vectors, handed to the index a chunk of rows at a time, read from the image's own bytes.

use super::source::{read_floats, ImageBytes};
use crate::core::packed::{RowChunk, RowSource};

/// Rows read from the image's bytes per chunk handed out: the vectors are never all copied at once.
pub(super) const ROWS_PER_CHUNK: usize = 1024;

/// The image's vectors: `dim` values per row, each row naming its memory, handed out [`ROWS_PER_CHUNK`]
/// rows at a time.
pub struct ImageRows {
    pub(super) dim: usize,
    pub(super) owners: Vec<Option<u32>>,
    /// The image, whose bytes from `values_at` on are the rows' little-endian `f32`s.
    pub(super) image: Box<dyn ImageBytes>,
    pub(super) values_at: usize,
    /// The first row of the next chunk.
    pub(super) next_row: usize,
    pub(super) chunk: Vec<f32>,
}

impl RowSource for ImageRows {
    fn next_chunk(&mut self) -> Option<RowChunk<'_>> {
        let rows = self.next_row..(self.next_row + ROWS_PER_CHUNK).min(self.owners.len());
        if rows.is_empty() || self.dim == 0 {
            return None;
        }
        self.next_row = rows.end;
        let at = self.values_at + rows.start * self.dim * 4;
        read_floats(&*self.image, at, rows.len() * self.dim, &mut self.chunk);
        Some(RowChunk { dim: self.dim, owners: &self.owners[rows], values: &self.chunk })
    }
}
