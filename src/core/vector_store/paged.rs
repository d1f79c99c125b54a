//! The default index's pages of a scope ([`VectorStore::list_page`](super::super::VectorStore::list_page)),
//! read from each scope's slot lists (see [`Members`](super::super::members::Members)) rather than a walk.
//!
//! A plain read (scope and types only) counts its memories from the list lengths, finds where its page
//! starts by rank, and reads only the page; it tests in full only the scope's memories that are
//! soft-deleted, compressed or given a mem0 `expirationDate`. Another read (a filter, a time range, …)
//! tests every memory of the visible scopes, in order, to count them exactly, and keeps only the page.
//! Either way the expired memories come from the scopes' expiry order: those due, no others.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::InMemoryVectorStore;
use crate::core::model::types::MemoryType;
use crate::core::vector_store::listing::{Listed, Listing};
use crate::core::vector_store::members::{listed_kind, OTHER};
use crate::core::vector_store::Plain;

/// Slots in order from several ascending sources.
type Slots<'a> = Box<dyn Iterator<Item = u32> + 'a>;

impl InMemoryVectorStore {
    /// See [`crate::core::vector_store::VectorStore::list_page`].
    pub(super) fn page_of(&self, listing: &Listing) -> Listed<'_> {
        let scopes = self.scopes.visible_ids(listing.scope);
        let members = &self.catalog.members;
        let mut expired: Vec<u32> = scopes.iter().flat_map(|scope| members.due(*scope, listing.now)).collect();
        expired.sort_unstable();
        let (page, total) = match listing.plain {
            Some(plain) => self.ranked(listing, plain, &scopes, &expired),
            None => self.scanned(listing, &scopes),
        };
        let expired = expired.into_iter().map(|slot| self.item(slot as usize)).collect();
        Listed { page: page.into_iter().map(|slot| self.item(slot as usize)).collect(), total, expired }
    }

    /// The page of a plain read and its count: the lists of the visible scopes and asked-for types hold only
    /// memories it keeps, bar the expired ones (`expired`, ascending); the others are tested.
    fn ranked(&self, listing: &Listing, plain: Plain, scopes: &[u32], expired: &[u32]) -> (Vec<u32>, usize) {
        let members = &self.catalog.members;
        let kinds = || (0..MemoryType::ALL.len() as u8).filter(|kind| plain.types & 1 << kind != 0);
        let lists: Vec<_> =
            scopes.iter().flat_map(|scope| kinds().filter_map(|kind| members.of(*scope, kind))).collect();
        let mut tested: Vec<u32> =
            scopes.iter().filter_map(|scope| members.of(*scope, OTHER)).flat_map(|set| set.from(0)).collect();
        tested.retain(|slot| (listing.keep)(&self.item(*slot as usize).item));
        tested.sort_unstable();
        let in_lists = |slot: &&u32| {
            let kind = listed_kind(&self.item(**slot as usize).item);
            kind != OTHER && plain.types & 1 << kind != 0
        };
        let gone: Vec<u32> = expired.iter().filter(in_lists).copied().collect();
        let below = |slots: &[u32], slot: u32| slots.partition_point(|held| *held < slot);
        // How many memories the read keeps below `slot`.
        let rank = |slot: u32| {
            lists.iter().map(|list| list.rank(slot)).sum::<usize>() + below(&tested, slot) - below(&gone, slot)
        };
        let total = lists.iter().map(|list| list.len()).sum::<usize>() + tested.len() - gone.len();
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
        let mut sources: Vec<Slots> = lists.iter().map(|list| Box::new(list.from(low)) as Slots).collect();
        sources.push(Box::new(tested[below(&tested, low)..].iter().copied()));
        let page = merged(sources).filter(|slot| gone.binary_search(slot).is_err()).take(listing.limit);
        (page.collect(), total)
    }

    /// The page of any read and its count: every memory of the visible scopes tested in order.
    fn scanned(&self, listing: &Listing, scopes: &[u32]) -> (Vec<u32>, usize) {
        let members = &self.catalog.members;
        let kinds = (0..MemoryType::ALL.len() as u8).chain([OTHER]);
        let lists = scopes.iter().flat_map(|scope| kinds.clone().filter_map(|kind| members.of(*scope, kind)));
        let mut page = Vec::new();
        let mut total = 0;
        for slot in merged(lists.map(|list| Box::new(list.from(0)) as Slots).collect()) {
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

/// The slots of `sources` (each ascending, none shared) in one ascending run.
fn merged<'a>(mut sources: Vec<Slots<'a>>) -> impl Iterator<Item = u32> + 'a {
    let mut heads: BinaryHeap<Reverse<(u32, usize)>> =
        sources.iter_mut().enumerate().filter_map(|(at, source)| Some(Reverse((source.next()?, at)))).collect();
    std::iter::from_fn(move || {
        let Reverse((slot, at)) = heads.pop()?;
        if let Some(next) = sources[at].next() {
            heads.push(Reverse((next, at)));
        }
        Some(slot)
    })
}
