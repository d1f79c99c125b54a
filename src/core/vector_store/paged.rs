//! The default index's pages of a scope ([`VectorStore::list_page`](super::super::VectorStore::list_page)),
//! read from each scope's slot lists (see [`Members`](super::super::members::Members)) rather than a walk.
//!
//! A plain read (scope and types only) counts its memories from the list lengths, finds where its page
//! starts by rank, and reads only the page; it tests in full only the scope's memories that are
//! soft-deleted, compressed or given a mem0 `expirationDate`. Another read (a filter, a time range, …)
//! tests every memory of the visible scopes, in order, to count them exactly, and keeps only the page.
//! Either way the expired memories come from the scopes' expiry order: those due, no others.

use super::InMemoryVectorStore;
use crate::core::model::types::StoredMemory;
use crate::core::vector_store::listing::{Listed, Listing};
use crate::core::vector_store::members::{listed_kind, OTHER};
use crate::core::vector_store::slot_set::{below, Cursor, SlotSet};
use crate::core::vector_store::Plain;

impl InMemoryVectorStore {
    /// See [`crate::core::vector_store::VectorStore::list_page`].
    pub(super) fn page_of(&self, listing: &Listing) -> Listed<'_> {
        let scopes = self.scopes.visible_ids(listing.scope);
        let mut expired = Vec::new();
        for scope in &scopes {
            self.catalog.members.due(*scope, listing.now, &mut expired);
        }
        expired.sort_unstable();
        let (page, total) = match listing.plain {
            Some(plain) => self.ranked(listing, plain, &scopes, &expired),
            None => self.scanned(listing, &scopes),
        };
        Listed { page: self.items(&page), total, expired: self.items(&expired) }
    }

    /// The memories in `slots`.
    fn items(&self, slots: &[u32]) -> Vec<&StoredMemory> {
        let mut items = Vec::with_capacity(slots.len());
        for slot in slots {
            items.push(self.item(*slot as usize));
        }
        items
    }

    /// The slot lists of the `scopes` whose listed kind `wanted` passes.
    fn lists(&self, scopes: &[u32], wanted: &dyn Fn(u8) -> bool) -> Vec<&SlotSet> {
        let mut lists = Vec::new();
        for scope in scopes {
            self.catalog.members.lists(*scope, wanted, &mut lists);
        }
        lists
    }

    /// The page of a plain read and its count: the lists of the visible scopes and asked-for types hold only
    /// memories it keeps, bar the expired ones (`expired`, ascending); the others are tested.
    fn ranked(&self, listing: &Listing, plain: Plain, scopes: &[u32], expired: &[u32]) -> (Vec<u32>, usize) {
        let asked = |kind: u8| kind != OTHER && plain.takes(kind);
        let lists = self.lists(scopes, &asked);
        let mut tested = Vec::new();
        for others in self.lists(scopes, &|kind| kind == OTHER) {
            for block in others.blocks() {
                for slot in block {
                    if (listing.keep)(&self.item(*slot as usize).item) {
                        tested.push(*slot);
                    }
                }
            }
        }
        tested.sort_unstable();
        let mut gone = Vec::new();
        for slot in expired {
            if asked(listed_kind(&self.item(*slot as usize).item)) {
                gone.push(*slot);
            }
        }
        // How many memories the read keeps below `slot`.
        let rank = |slot: u32| {
            let mut rank = below(&tested, slot);
            for list in &lists {
                rank += list.rank(slot);
            }
            rank - below(&gone, slot)
        };
        let mut total = tested.len();
        for list in &lists {
            total += list.len();
        }
        total -= gone.len();
        if listing.offset >= total || listing.limit == 0 {
            return (Vec::new(), total);
        }
        // The slot of the `offset`-th kept memory: the lowest with more than `offset` kept up to it.
        let (mut low, mut high) = (0, self.slots.len() as u32);
        while low < high {
            let middle = low + (high - low) / 2;
            if rank(middle + 1) > listing.offset {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        let mut cursors: Vec<Cursor> = Vec::with_capacity(lists.len() + 1);
        for list in &lists {
            cursors.push(list.from(low));
        }
        cursors.push(Cursor::sorted(&tested, below(&tested, low)));
        (merged(cursors, &gone, listing.limit), total)
    }

    /// The page of any read and its count: every memory of the visible scopes tested in order.
    fn scanned(&self, listing: &Listing, scopes: &[u32]) -> (Vec<u32>, usize) {
        let mut slots = Vec::new();
        for list in self.lists(scopes, &|_| true) {
            for block in list.blocks() {
                slots.extend_from_slice(block);
            }
        }
        slots.sort_unstable();
        let mut page = Vec::new();
        let mut total = 0;
        for slot in slots {
            if (listing.keep)(&self.item(slot as usize).item) {
                if total >= listing.offset && page.len() < listing.limit {
                    page.push(slot);
                }
                total += 1;
            }
        }
        (page, total)
    }
}

/// Up to `limit` slots of `cursors` (each ascending, none shared) in one ascending run, bar those in `gone`
/// (ascending).
fn merged(mut cursors: Vec<Cursor>, gone: &[u32], limit: usize) -> Vec<u32> {
    let mut page = Vec::new();
    while page.len() < limit {
        let mut lowest: Option<(u32, usize)> = None;
        for (at, cursor) in cursors.iter().enumerate() {
            if let Some(slot) = cursor.peek() {
                if lowest.is_none_or(|(low, _)| slot < low) {
                    lowest = Some((slot, at));
                }
            }
        }
        let Some((slot, at)) = lowest else { break };
        cursors[at].advance();
        if gone.binary_search(&slot).is_err() {
            page.push(slot);
        }
    }
    page
}
