//! Counting the memories a read keeps without calling its predicate on every row. Most memories are
//! "plain": live with no expiry, no mem0 `expirationDate`, not soft-deleted and not a compressed original.
//! For a read that looks no further than scope and type (no filter, window, participant or importance
//! floor), a plain memory is kept exactly when its scope is visible and its type is asked for; a store may
//! then add up plain memories from tallies it keeps per scope and type, and run the predicate only on the others.

use super::Predicate;
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, MemoryType, EXPIRATION_DATE_KEY};

/// What to count.
pub struct Count<'a> {
    /// The exact test of a memory.
    pub keep: Predicate<'a>,
    /// Count only memories held without a vector.
    pub vectorless: bool,
    /// When set, the caller vouches that `keep` passes a plain memory exactly when `plain` does.
    pub plain: Option<Plain<'a>>,
}

/// What `keep` comes down to for a plain memory: its scope and its type.
#[derive(Debug, Clone, Copy)]
pub struct Plain<'a> {
    pub scope: &'a Scope,
    /// Bit `i` set: type `MemoryType::ALL[i]` is kept.
    pub types: u8,
}

impl Plain<'_> {
    /// Every type, or those of `types`, as a [`Plain::types`] mask.
    pub fn mask(types: Option<&[MemoryType]>) -> u8 {
        match types {
            None => u8::MAX,
            Some(types) => types.iter().fold(0, |mask, kind| mask | 1 << type_index(*kind)),
        }
    }

    /// True when a plain memory of `scope` and type `kind` is kept.
    pub fn passes(&self, scope: &Scope, kind: MemoryType) -> bool {
        self.scope.contains(scope) && self.takes(type_index(kind))
    }

    /// True when the type at `index` of [`MemoryType::ALL`] is asked for.
    pub fn takes(&self, index: u8) -> bool {
        self.types & 1 << index != 0
    }
}

/// The position of `kind` in [`MemoryType::ALL`].
pub fn type_index(kind: MemoryType) -> u8 {
    MemoryType::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u8
}

/// True when `item` is plain: no expiry, no mem0 `expirationDate`, not soft-deleted, not compressed.
pub fn is_plain(item: &MemoryItem) -> bool {
    let life = &item.lifecycle;
    life.expires_at.is_none()
        && life.deleted_at.is_none()
        && !item.metadata.contains_key(EXPIRATION_DATE_KEY)
        && !item.is_compressed()
}
