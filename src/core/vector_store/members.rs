//! The slots of each scope, in slot (insertion) order, so that a page of a scope's memories is read from
//! them instead of a walk over every memory. They are kept per interned scope id and per *listed kind*:
//! the type of a memory a scope read keeps on its scope and type alone (see [`listed_kind`]), or
//! [`OTHER`] for one a read must test in full. Each scope also keeps its memories with an expiry, soonest
//! first, so that the expired ones are found without a walk.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use super::count::type_index;
use super::slot_set::SlotSet;
use crate::core::model::types::{MemoryItem, EXPIRATION_DATE_KEY};

/// Listed kind of a memory a read tests in full: soft-deleted, with a mem0 `expirationDate`, or compressed.
pub const OTHER: u8 = u8::MAX;

/// The listed kind of `item`: its type index when a scope read keeps it on scope and type alone, as long
/// as it is not expired (it may have an expiry, unlike a plain memory for counting); else [`OTHER`].
pub fn listed_kind(item: &MemoryItem) -> u8 {
    let life = &item.lifecycle;
    let other = life.deleted_at.is_some() || item.metadata.contains_key(EXPIRATION_DATE_KEY) || item.is_compressed();
    if other {
        OTHER
    } else {
        type_index(life.memory_type)
    }
}

/// Per scope id: its slots by listed kind, and its slots with an expiry.
#[derive(Debug, Default)]
pub struct Members {
    lists: FxHashMap<(u32, u8), SlotSet>,
    /// Scope id → (expiry, slot) of its memories with an expiry, soonest first.
    expiring: FxHashMap<u32, BTreeSet<(Box<str>, u32)>>,
}

impl Members {
    /// Notes `item`, now in `slot` under scope id `scope`.
    pub fn enter(&mut self, slot: u32, item: &MemoryItem, scope: u32) {
        self.lists.entry((scope, listed_kind(item))).or_default().insert(slot);
        if let Some(at) = &item.lifecycle.expires_at {
            self.expiring.entry(scope).or_default().insert((at.as_str().into(), slot));
        }
    }

    /// Forgets `item`, leaving `slot` under scope id `scope` (as it was entered).
    pub fn leave(&mut self, slot: u32, item: &MemoryItem, scope: u32) {
        let list = (scope, listed_kind(item));
        if let Some(slots) = self.lists.get_mut(&list) {
            slots.remove(slot);
            if slots.is_empty() {
                self.lists.remove(&list);
            }
        }
        if let (Some(at), Some(timed)) = (&item.lifecycle.expires_at, self.expiring.get_mut(&scope)) {
            timed.remove(&(at.as_str().into(), slot));
            if timed.is_empty() {
                self.expiring.remove(&scope);
            }
        }
    }

    /// The slots of scope id `scope` of listed kind `kind` (None when there are none).
    pub fn of(&self, scope: u32, kind: u8) -> Option<&SlotSet> {
        self.lists.get(&(scope, kind))
    }

    /// The slots of scope id `scope` whose expiry is at or before `now`, soonest first.
    pub fn due<'a>(&'a self, scope: u32, now: &'a str) -> impl Iterator<Item = u32> + 'a {
        let timed = self.expiring.get(&scope).into_iter().flatten();
        timed.take_while(move |(at, _)| &**at <= now).map(|(_, slot)| *slot)
    }
}
