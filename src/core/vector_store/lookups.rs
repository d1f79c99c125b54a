//! The default index's answers that read its [`Catalog`](super::super::catalog::Catalog) instead of
//! walking the memories: counts, the memory with a key, the first with a text hash, the scope centroid.

use super::{summed_row, InMemoryVectorStore, NO_VECTOR, REMOVED};
use crate::core::model::scope::Scope;
use crate::core::model::types::StoredMemory;
use crate::core::vector_store::count::Count;
use crate::core::vector_store::Predicate;

impl InMemoryVectorStore {
    /// See [`crate::core::vector_store::VectorStore::count`]: plain memories are summed from the tallies of
    /// the visible scopes and asked-for types; the others are tested one by one.
    pub(super) fn count_rows(&self, count: &Count) -> usize {
        let skip = |slot: usize| count.vectorless && self.has_vector_at(slot);
        let Some(plain) = count.plain else {
            let kept = |slot: usize| !skip(slot) && (count.keep)(&self.item(slot).item);
            return (0..self.slots.len()).filter(|slot| self.slots[*slot].is_some() && kept(*slot)).count();
        };
        let visible = self.scopes.visible_from(plain.scope);
        let mut kept = 0;
        for (counts, _) in self.catalog.plain.iter().zip(&visible).filter(|(_, seen)| **seen) {
            let of_type = counts.iter().enumerate().filter(|(kind, _)| plain.takes(*kind as u8));
            kept += of_type
                .map(|(_, [all, vectorless])| if count.vectorless { *vectorless } else { *all } as usize)
                .sum::<usize>();
        }
        for &slot in &self.catalog.others {
            kept += usize::from(!skip(slot as usize) && (count.keep)(&self.item(slot as usize).item));
        }
        kept
    }

    /// True when `slot` holds a memory with a vector (read from the keys alone: no memory is touched).
    pub(super) fn has_vector_at(&self, slot: usize) -> bool {
        !matches!(self.keys[slot], NO_VECTOR | REMOVED)
    }

    /// See [`crate::core::vector_store::VectorStore::find_by_key`].
    pub(super) fn keyed(&self, scope: &Scope, key: &str) -> Option<&StoredMemory> {
        let id = self.scopes.get(scope)?;
        let holds = |m: &&StoredMemory| &m.item.scope == scope && m.item.lifecycle.key.as_deref() == Some(key);
        self.catalog.with_key(id, key).iter().map(|slot| self.item(*slot as usize)).find(holds)
    }

    /// See [`crate::core::vector_store::VectorStore::find_by_hash`].
    pub(super) fn hashed(&self, hash: &str, keep: Predicate) -> Option<&StoredMemory> {
        let slots = self.catalog.with_hash(hash).iter().map(|slot| self.item(*slot as usize));
        slots.into_iter().find(|m| m.item.hash == hash && keep(&m.item))
    }

    /// See [`crate::core::vector_store::VectorStore::centroid`]: the running sums of the visible scopes, plus the timed rows not
    /// yet expired.
    pub(super) fn scope_centroid(&self, scope: &Scope, now: &str) -> Option<Vec<f64>> {
        let visible = self.scopes.visible_from(scope);
        let mut sum: Vec<f64> = Vec::new();
        let mut count = 0;
        let mut add = |part: &mut dyn Iterator<Item = f64>, n: usize| {
            if sum.is_empty() {
                sum = part.collect();
            } else {
                sum.iter_mut().zip(part).for_each(|(s, x)| *s += x);
            }
            count += n;
        };
        let rows = (0..self.slots.len()).filter_map(|slot| {
            let vector = summed_row(&self.arena, &self.keys, &self.slots, slot)?;
            Some((self.catalog.scope[slot], vector))
        });
        for (id, (part, n)) in self.catalog.sums(rows).iter().enumerate() {
            if *n > 0 && visible[id] {
                add(&mut part.iter().copied(), *n);
            }
        }
        for &slot in &self.catalog.timed {
            let (slot, item) = (slot as usize, &self.item(slot as usize).item);
            if visible[self.catalog.scope[slot] as usize] && !item.lifecycle.is_expired(now) {
                add(&mut self.arena.vector(slot).into_iter().map(f64::from), 1);
            }
        }
        (count > 0).then(|| sum.into_iter().map(|s| s / count as f64).collect())
    }
}
