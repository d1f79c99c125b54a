//! A page of a scope's memories, oldest first (what `getAll` reads): the request, the answer, and the
//! answer by a walk over every memory (the [`VectorStore::list_page`] default).

use super::{Plain, Predicate, VectorStore};
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, StoredMemory};

/// Which page of which memories.
#[derive(Clone, Copy)]
pub struct Listing<'a> {
    /// The memories listed are this scope's (and those filed under narrower scopes in it).
    pub scope: &'a Scope,
    /// The exact test of a listed memory: passes only memories of `scope` not expired at `now`.
    pub keep: Predicate<'a>,
    /// When set (of the same scope), the caller vouches that `keep` passes a memory that is neither soft-deleted, compressed
    /// nor given a mem0 `expirationDate`, and not expired at `now`, exactly when `plain` passes it.
    pub plain: Option<Plain<'a>>,
    /// The time expiries are compared with (ISO 8601).
    pub now: &'a str,
    /// How many kept memories to skip, and how many to return after them.
    pub offset: usize,
    pub limit: usize,
}

/// A page and what the store came across to make it.
#[derive(Debug, Default)]
pub struct Listed<'a> {
    /// Up to `limit` kept memories from the `offset`-th, oldest first.
    pub page: Vec<&'a StoredMemory>,
    /// How many memories `keep` passes, over all pages.
    pub total: usize,
    /// Every memory of `scope` expired at `now` (whatever its state), oldest first: the caller purges them.
    pub expired: Vec<&'a StoredMemory>,
}

/// The page by walking every memory, testing each with `keep`.
pub fn walk<'s, V: VectorStore + ?Sized>(store: &'s V, listing: &Listing) -> Listed<'s> {
    let mut listed = Listed::default();
    for memory in store.list(usize::MAX, listing.keep) {
        if listed.total >= listing.offset && listed.page.len() < listing.limit {
            listed.page.push(memory);
        }
        listed.total += 1;
    }
    let expired = |item: &MemoryItem| listing.scope.contains(&item.scope) && item.lifecycle.is_expired(listing.now);
    listed.expired = store.list(usize::MAX, &expired);
    listed
}
