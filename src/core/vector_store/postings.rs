//! A lookup from a 64-bit digest (of a text hash, or of a scope and key) to the slots holding it, in slot
//! order. Digests may collide: callers check each slot's memory. Most digests have one slot, kept inline.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher};

/// The slots under one digest, ascending.
#[derive(Debug)]
enum Slots {
    One(u32),
    Many(Vec<u32>),
}

/// Digest → slots.
#[derive(Debug, Default)]
pub struct Postings {
    slots: HashMap<u64, Slots, BuildHasherDefault<Spread>>,
}

/// Hashes a digest to itself: it is a hash already.
#[derive(Debug, Default)]
struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|b| self.0 = self.0.rotate_left(8) ^ u64::from(*b));
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// The digest of `value` (deterministic: `DefaultHasher::new()` has fixed keys).
pub fn digest(value: impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

impl Postings {
    /// Room for `additional` more digests.
    pub fn reserve(&mut self, additional: usize) {
        self.slots.reserve(additional);
    }

    /// Notes `slot` under `digest`.
    pub fn insert(&mut self, digest: u64, slot: u32) {
        let Some(held) = self.slots.get_mut(&digest) else {
            self.slots.insert(digest, Slots::One(slot));
            return;
        };
        match held {
            Slots::One(one) if *one == slot => {}
            Slots::One(one) => *held = Slots::Many(if *one < slot { vec![*one, slot] } else { vec![slot, *one] }),
            Slots::Many(many) => {
                if let Err(at) = many.binary_search(&slot) {
                    many.insert(at, slot);
                }
            }
        }
    }

    /// Forgets `slot` under `digest`.
    pub fn remove(&mut self, digest: u64, slot: u32) {
        let emptied = match self.slots.get_mut(&digest) {
            Some(Slots::One(one)) => *one == slot,
            Some(Slots::Many(many)) => {
                many.retain(|held| *held != slot);
                many.is_empty()
            }
            None => false,
        };
        if emptied {
            self.slots.remove(&digest);
        }
    }

    /// The slots under `digest`, ascending.
    pub fn get(&self, digest: u64) -> &[u32] {
        match self.slots.get(&digest) {
            Some(Slots::One(one)) => std::slice::from_ref(one),
            Some(Slots::Many(many)) => many,
            None => &[],
        }
    }
}
