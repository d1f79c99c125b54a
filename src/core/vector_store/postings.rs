//! A lookup from a 64-bit digest (of a text hash, or of a scope and key) to the slots holding it, in slot
//! order. Digests may collide: callers check each slot's memory.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Digest → slots, ascending.
#[derive(Debug, Default)]
pub struct Postings {
    slots: HashMap<u64, Vec<u32>>,
}

/// The digest of `value` (deterministic: `DefaultHasher::new()` has fixed keys).
pub fn digest(value: impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

impl Postings {
    /// Notes `slot` under `digest`.
    pub fn insert(&mut self, digest: u64, slot: u32) {
        let slots = self.slots.entry(digest).or_default();
        if let Err(at) = slots.binary_search(&slot) {
            slots.insert(at, slot);
        }
    }

    /// Forgets `slot` under `digest`.
    pub fn remove(&mut self, digest: u64, slot: u32) {
        if let Some(slots) = self.slots.get_mut(&digest) {
            slots.retain(|held| *held != slot);
            if slots.is_empty() {
                self.slots.remove(&digest);
            }
        }
    }

    /// The slots under `digest`, ascending.
    pub fn get(&self, digest: u64) -> &[u32] {
        self.slots.get(&digest).map_or(&[], Vec::as_slice)
    }
}
