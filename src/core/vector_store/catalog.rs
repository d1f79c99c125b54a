//! What the default index keeps of each slot beside its vector, updated on every write, so that counting a
//! read's memories, finding a key or a text hash and the scope centroid need no walk over the memories.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};
use std::collections::BTreeSet;

use super::count::{is_plain, type_index};
use super::members::Members;
use super::postings::{digest, Postings};
use crate::core::model::types::MemoryItem;

/// Kind of a removed slot.
pub const GONE: u8 = u8::MAX;
/// Kind of a memory that is not plain (see `count::is_plain`): reads test it in full.
pub const NOT_PLAIN: u8 = u8::MAX - 1;

/// Per-slot facts, the hash and key lookups, and per-scope vector sums.
#[derive(Debug, Default)]
pub struct Catalog {
    /// Slot → interned scope id of its memory (meaningless once removed).
    pub scope: Vec<u32>,
    /// Slot → type index of a plain memory, [`NOT_PLAIN`], or [`GONE`].
    pub kind: Vec<u8>,
    /// Scope id → type index → how many plain memories, and how many of them have no vector.
    pub plain: Vec<[[u32; 2]; 8]>,
    /// The slots of memories that are not plain, which a count tests in full.
    pub others: BTreeSet<u32>,
    hashes: Postings,
    keys: Postings,
    /// Scope id → sum and number of the unit vectors of its [`summed`] rows (see [`Catalog::sums`]).
    sums: RefCell<Vec<(Vec<f64>, usize)>>,
    /// A bulk load left `sums` out: the first centroid adds up every row.
    sums_deferred: Cell<bool>,
    /// Vector rows with an expiry and not soft-deleted: in a centroid while not expired.
    pub timed: BTreeSet<u32>,
    /// Each scope's slots in order, and its memories with an expiry.
    pub members: Members,
}

/// True when the memory's vector counts in its scope's running sum: it never expires and is not deleted.
pub fn summed(item: &MemoryItem) -> bool {
    item.lifecycle.expires_at.is_none() && item.lifecycle.deleted_at.is_none()
}

/// The lookup digest of `key` in scope id `scope`.
pub fn key_digest(scope: u32, key: &str) -> u64 {
    digest((scope, key))
}

impl Catalog {
    /// Room for `additional` more slots.
    pub fn reserve(&mut self, additional: usize) {
        self.scope.reserve_exact(additional);
        self.kind.reserve_exact(additional);
        self.hashes.reserve(additional);
    }

    /// A new, empty slot at the end.
    pub fn push(&mut self) {
        self.scope.push(0);
        self.kind.push(GONE);
    }

    /// The slots whose memory's text has hash `hash` (or a colliding one), ascending.
    pub fn with_hash(&self, hash: &str) -> &[u32] {
        self.hashes.get(digest(hash))
    }

    /// The slots whose memory has `key` in scope id `scope` (or a colliding pair), ascending.
    pub fn with_key(&self, scope: u32, key: &str) -> &[u32] {
        self.keys.get(key_digest(scope, key))
    }

    /// Notes `item`, now in `slot` under scope id `scope`. `vector` is its unit vector as the index returns
    /// it, given when it has one and it is [`summed`].
    pub fn enter(&mut self, slot: usize, item: &MemoryItem, scope: u32, vector: Option<&[f32]>, has_vector: bool) {
        self.scope[slot] = scope;
        self.members.enter(slot as u32, item, scope);
        self.kind[slot] = if is_plain(item) { type_index(item.lifecycle.memory_type) } else { NOT_PLAIN };
        self.tally(slot, has_vector, 1);
        self.hashes.insert(digest(item.hash.as_str()), slot as u32);
        if let Some(key) = &item.lifecycle.key {
            self.keys.insert(key_digest(scope, key), slot as u32);
        }
        if let Some(vector) = vector {
            self.add(scope, vector, 1.0);
        } else if has_vector && item.lifecycle.deleted_at.is_none() {
            self.timed.insert(slot as u32);
        }
    }

    /// Notes that `item`, entered in `slot` without a vector, now has one (`vector` as for
    /// [`Catalog::enter`]).
    pub fn gain_vector(&mut self, slot: usize, item: &MemoryItem, vector: Option<&[f32]>) {
        self.tally(slot, false, -1);
        self.tally(slot, true, 1);
        if let Some(vector) = vector {
            self.add(self.scope[slot], vector, 1.0);
        } else if item.lifecycle.deleted_at.is_none() {
            self.timed.insert(slot as u32);
        }
    }

    /// Forgets `item`, leaving `slot`; `vector` and `has_vector` as given to [`Catalog::enter`].
    pub fn leave(&mut self, slot: usize, item: &MemoryItem, vector: Option<&[f32]>, has_vector: bool) {
        let scope = self.scope[slot];
        self.members.leave(slot as u32, item, scope);
        self.tally(slot, has_vector, -1);
        self.kind[slot] = GONE;
        self.hashes.remove(digest(item.hash.as_str()), slot as u32);
        if let Some(key) = &item.lifecycle.key {
            self.keys.remove(key_digest(scope, key), slot as u32);
        }
        match vector {
            Some(vector) => self.add(scope, vector, -1.0),
            None => {
                self.timed.remove(&(slot as u32));
            }
        }
    }

    /// Counts the memory in `slot` in (`change` 1) or out of (-1) its plain tallies or `others`.
    fn tally(&mut self, slot: usize, has_vector: bool, change: i32) {
        let (scope, kind) = (self.scope[slot] as usize, self.kind[slot]);
        if kind == NOT_PLAIN {
            match change > 0 {
                true => self.others.insert(slot as u32),
                false => self.others.remove(&(slot as u32)),
            };
            return;
        }
        if self.plain.len() <= scope {
            self.plain.resize(scope + 1, [[0; 2]; 8]);
        }
        let counts = &mut self.plain[scope][usize::from(kind)];
        for count in &mut counts[..if has_vector { 1 } else { 2 }] {
            *count = count.saturating_add_signed(change);
        }
    }

    /// Leaves the running sums out until a centroid is asked for: a bulk load (an open), which most
    /// searches follow and no centroid, spares a pass over every vector.
    pub fn defer_sums(&mut self) {
        self.sums_deferred.set(true);
    }

    /// Scope id → sum and number of the unit vectors of its [`summed`] rows; when deferred, first added
    /// up from `rows`, every summed row as its scope id and unit vector.
    pub fn sums<'a>(&self, rows: impl Iterator<Item = (u32, Cow<'a, [f32]>)>) -> Ref<'_, Vec<(Vec<f64>, usize)>> {
        if self.sums_deferred.replace(false) {
            let mut sums = self.sums.borrow_mut();
            sums.clear();
            rows.for_each(|(scope, vector)| add_to(&mut sums, scope, &vector, 1.0));
        }
        self.sums.borrow()
    }

    fn add(&mut self, scope: u32, vector: &[f32], sign: f64) {
        if !self.sums_deferred.get() {
            add_to(self.sums.get_mut(), scope, vector, sign);
        }
    }

    /// Forgets everything (the slots are re-entered after a compaction).
    pub fn clear(&mut self) {
        *self = Self::default();
    }
}

/// Adds `vector` (`sign` 1) to the sum of scope id `scope` in `sums`, or takes it out (-1).
fn add_to(sums: &mut Vec<(Vec<f64>, usize)>, scope: u32, vector: &[f32], sign: f64) {
    let at = scope as usize;
    if sums.len() <= at {
        sums.resize_with(at + 1, Default::default);
    }
    let (sum, count) = &mut sums[at];
    if sum.len() != vector.len() {
        *sum = vec![0.0; vector.len()];
    }
    sum.iter_mut().zip(vector).for_each(|(s, x)| *s += sign * f64::from(*x));
    *count = if sign > 0.0 { *count + 1 } else { count.saturating_sub(1) };
    if *count == 0 {
        sum.iter_mut().for_each(|s| *s = 0.0);
    }
}
