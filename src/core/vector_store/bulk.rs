//! Loading many memories at once (at open): every memory goes in first, then each row of the packed
//! vectors is copied straight into its arena row. No `Vec` per vector, and the arena is allocated once,
//! already zeroed.

use super::{summed_row, InMemoryVectorStore, NO_VECTOR};
use crate::core::error::Result;
use crate::core::packed::Packed;
use crate::core::vector_store::VectorStore;

impl InMemoryVectorStore {
    /// Inserts or replaces `packed`'s memories (in order, as `upsert` would), then writes each row's
    /// vector into its memory's slot.
    pub(super) fn load_rows(&mut self, packed: Packed) -> Result<()> {
        let Packed { memories, mut rows, .. } = packed;
        VectorStore::reserve(self, memories.len());
        self.catalog.defer_sums();
        let mut slots = Vec::with_capacity(memories.len());
        for memory in memories {
            slots.push(self.upsert_slot(memory)?);
        }
        let mut scratch = Vec::new();
        while let Some(chunk) = rows.next_chunk() {
            for (owner, row) in chunk.rows() {
                if let Some(&slot) = slots.get(owner) {
                    self.write_row(slot, row, &mut scratch)?;
                }
            }
        }
        Ok(())
    }

    /// Gives slot `slot` the vector `row`, fitted as `upsert` fits it (through `scratch`).
    fn write_row(&mut self, slot: usize, row: &[f32], scratch: &mut Vec<f32>) -> Result<()> {
        let unit = self.fit_row(row, scratch)?;
        let Some(memory) = &self.slots[slot] else { return Ok(()) };
        let scope = self.scopes.intern(&memory.item.scope);
        if self.keys[slot] != NO_VECTOR {
            self.leave(slot);
            self.arena.write(slot, Some(unit));
            self.enter(slot, scope);
            return Ok(());
        }
        // The usual case at open: the memory went in without its vector just before.
        self.arena.write(slot, Some(unit));
        self.keys[slot] = scope;
        let vector = summed_row(&self.arena, &self.keys, &self.slots, slot);
        let Some(memory) = &self.slots[slot] else { return Ok(()) };
        self.catalog.gain_vector(slot, &memory.item, vector.as_deref());
        Ok(())
    }
}
