//! The slots of each scope, in slot (insertion) order, so that a page of a scope's memories is read from
//! them instead of a walk over every memory. They are kept per interned scope id and per *listed kind*:
//! the type of a memory a scope read keeps on its scope and type alone (see [`listed_kind`]), or
//! [`OTHER`] for one a read must test in full. Each scope also keeps its memories with an expiry, soonest
//! first, so that the expired ones are found without a walk.

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
    scopes: Vec<ScopeMembers>,
}

/// One scope's slots.
#[derive(Debug, Default)]
struct ScopeMembers {
    /// (listed kind, its slots), for the kinds the scope holds.
    lists: Vec<(u8, SlotSet)>,
    /// (expiry, slot) of the memories with an expiry, soonest first.
    expiring: SlotSet<(Box<str>, u32)>,
}

impl Members {
    /// Notes `item`, now in `slot` under scope id `scope`.
    pub fn enter(&mut self, slot: u32, item: &MemoryItem, scope: u32) {
        if self.scopes.len() <= scope as usize {
            self.scopes.resize_with(scope as usize + 1, Default::default);
        }
        let members = &mut self.scopes[scope as usize];
        let kind = listed_kind(item);
        match members.lists.iter_mut().find(|(held, _)| *held == kind) {
            Some((_, slots)) => slots.insert(slot),
            None => members.lists.push((kind, SlotSet::of(slot))),
        }
        if let Some(at) = &item.lifecycle.expires_at {
            members.expiring.insert((at.as_str().into(), slot));
        }
    }

    /// Forgets `item`, leaving `slot` under scope id `scope` (as it was entered).
    pub fn leave(&mut self, slot: u32, item: &MemoryItem, scope: u32) {
        let Some(members) = self.scopes.get_mut(scope as usize) else { return };
        let kind = listed_kind(item);
        if let Some(at) = members.lists.iter().position(|(held, _)| *held == kind) {
            members.lists[at].1.remove(&slot);
            if members.lists[at].1.is_empty() {
                members.lists.swap_remove(at);
            }
        }
        if let Some(at) = &item.lifecycle.expires_at {
            members.expiring.remove(&(at.as_str().into(), slot));
        }
    }

    /// Adds to `into` the slot lists of scope id `scope` whose listed kind `wanted` passes.
    pub fn lists<'a>(&'a self, scope: u32, wanted: &dyn Fn(u8) -> bool, into: &mut Vec<&'a SlotSet>) {
        let Some(members) = self.scopes.get(scope as usize) else { return };
        for (kind, slots) in &members.lists {
            if wanted(*kind) {
                into.push(slots);
            }
        }
    }

    /// Adds to `into` the slots of scope id `scope` whose expiry is at or before `now`, soonest first.
    pub fn due(&self, scope: u32, now: &str, into: &mut Vec<u32>) {
        let Some(members) = self.scopes.get(scope as usize) else { return };
        for block in members.expiring.blocks() {
            for (at, slot) in block {
                if &**at > now {
                    return;
                }
                into.push(*slot);
            }
        }
    }
}
