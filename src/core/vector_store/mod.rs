//! The search index: every memory of the instance in RAM, searched by brute-force cosine similarity.
//! Persistence is separate (see `storage`); this is what queries read.
//!
//! The default [`InMemoryVectorStore`] keeps vectors unit-length in flat arenas (f32 and int8 codes by
//! default, see [`Quantization`]), scans them with SIMD128 dot products on wasm32, pre-checks scopes by
//! interned id and keeps a bounded top-k heap.

mod arena;
#[cfg(test)]
mod bulk_tests;
mod catalog;
mod count;
#[cfg(test)]
mod count_tests;
mod kernels;
mod listing;
mod members;
mod postings;
mod quantize;
pub mod remote;
pub(crate) mod remote_slot;
mod scopes;
mod slot_set;
mod store;
#[cfg(test)]
pub(crate) mod tests;
mod top_k;

pub use count::{Count, Plain};
pub use listing::{Listed, Listing};
pub use store::InMemoryVectorStore;

use serde::Deserialize;

use super::error::Result;
use super::model::scope::Scope;
use super::model::types::{MemoryItem, StoredMemory};
use super::packed::Packed;

/// A predicate over memories, used for scope and filter checks.
pub type Predicate<'a> = &'a dyn Fn(&MemoryItem) -> bool;

/// What a search keeps: the exact test, and when set what it comes down to for a plain memory.
pub type Kept<'a> = (Predicate<'a>, Option<Plain<'a>>);

/// How the index stores vectors (`vectorStore.config.quantization`: `"auto"`, `"none"` or `"int8"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quantization {
    /// f32 and int8 codes: exact f32 scans below [`AUTO_INT8_FROM`] memories; above, an int8 scan whose
    /// best candidates (a wider set than `int8`'s) are rescored exactly from f32. 1.25× the f32 memory.
    #[default]
    Auto,
    /// f32 only: exact scores at every size.
    None,
    /// One byte per dimension plus one f32 scale per vector (about 4× less memory); the top candidates
    /// of the int8 scan are rescored in f32 from the dequantised codes.
    Int8,
}

/// From how many memories an `auto` index scans int8 codes instead of f32 (bench/ measures the crossover).
pub const AUTO_INT8_FROM: usize = 5_000;

/// A pluggable in-RAM index of memories and their vectors.
pub trait VectorStore {
    /// Inserts or replaces a memory (by id). Its vector is normalised here; a zero or non-finite one is refused.
    fn upsert(&mut self, memory: StoredMemory) -> Result<()>;
    /// Removes a memory, returning it with its vector.
    fn remove(&mut self, id: &str) -> Option<StoredMemory>;
    /// The memory with this id. Its `embedding` may be `None` even when it has a vector (stores may keep
    /// vectors apart, as the default one does): read vectors with [`VectorStore::vector`].
    fn get(&self, id: &str) -> Option<&StoredMemory>;
    /// Up to `limit` memories passing `keep`, most similar to the unit vector `query` first.
    fn search(&self, query: &[f32], limit: usize, keep: Predicate) -> Result<Vec<(f32, &StoredMemory)>>;
    /// Up to `limit` memories passing `keep`, oldest first.
    fn list(&self, limit: usize, keep: Predicate) -> Vec<&StoredMemory>;
    /// Forgets everything.
    fn clear(&mut self);
    /// How many memories are held.
    fn len(&self) -> usize;
    /// The vector length the index holds, once it holds any vector.
    fn dimension(&self) -> Option<usize>;
    /// True when no memory is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The first memory passing `keep` whose text has this hash (exact-duplicate detection).
    fn find_by_hash(&self, hash: &str, keep: Predicate) -> Option<&StoredMemory> {
        self.list(usize::MAX, &|item| item.hash == hash && keep(item)).into_iter().next()
    }
    /// The first memory of `scope` (exactly) with this key, whatever its state.
    fn find_by_key(&self, scope: &Scope, key: &str) -> Option<&StoredMemory> {
        let keyed = |item: &MemoryItem| &item.scope == scope && item.lifecycle.key.as_deref() == Some(key);
        self.list(1, &keyed).into_iter().next()
    }
    /// A page of the memories `listing.keep` passes, oldest first, their count, and the memories of
    /// `listing.scope` expired at `listing.now`. By default a walk of every memory; stores may read only the
    /// page (using `listing.plain`) and find the expired ones without a walk.
    fn list_page(&self, listing: &Listing) -> Listed<'_> {
        listing::walk(self, listing)
    }
    /// How many memories pass `count.keep` (of those without a vector only, when `count.vectorless`).
    /// Stores may use `count.plain` to skip the predicate for plain memories.
    fn count(&self, count: &Count) -> usize {
        let kept = self.list(usize::MAX, count.keep);
        kept.into_iter().filter(|m| !count.vectorless || !self.has_vector(&m.item.id)).count()
    }
    /// The mean of the unit vectors of the memories in `scope` live at `now` (neither expired nor
    /// soft-deleted), for novelty; `None` when none has a vector.
    fn centroid(&self, scope: &Scope, now: &str) -> Option<Vec<f64>> {
        let members = self.list(usize::MAX, &|item| scope.contains(&item.scope) && item.lifecycle.is_live(now));
        centroid(members.iter().filter_map(|m| self.vector(&m.item.id)))
    }
    /// Like `search`, for memories in `scope` only, passing `kept.0`; stores may check the scope before
    /// scoring a row. `kept.1`, when set, vouches what `kept.0` comes down to for a plain memory (its
    /// scope is `scope`; see [`Count::plain`]), so a store may skip the predicate there.
    fn search_in_scope(
        &self,
        query: &[f32],
        limit: usize,
        scope: &Scope,
        (keep, _): Kept,
    ) -> Result<Vec<(f32, &StoredMemory)>> {
        self.search(query, limit, &|item| scope.contains(&item.scope) && keep(item))
    }
    /// Like `search_in_scope`, for a fused search's pool of `limit` candidates whose first `exact` must carry
    /// their exact similarity: a store that estimates similarity (int8 codes) may give the rest its estimate,
    /// as their last ranks weigh little once fused.
    fn search_pool(
        &self,
        query: &[f32],
        (limit, _exact): (usize, usize),
        scope: &Scope,
        kept: Kept,
    ) -> Result<Vec<(f32, &StoredMemory)>> {
        self.search_in_scope(query, limit, scope, kept)
    }
    /// Inserts or replaces every memory of `packed` with its vector (opening loads them all at once). By
    /// default one `upsert` per memory; stores may copy the rows in bulk.
    fn load_packed(&mut self, packed: Packed) -> Result<()> {
        let memories = packed.into_memories();
        self.reserve(memories.len());
        memories.into_iter().try_for_each(|memory| self.upsert(memory))
    }
    /// Makes room for `additional` more memories (a hint; loading many at once allocates once).
    fn reserve(&mut self, _additional: usize) {}
    /// The unit vector of a memory (dequantised when the store quantizes).
    fn vector(&self, id: &str) -> Option<Vec<f32>> {
        self.get(id).and_then(|memory| memory.embedding.clone())
    }
    /// True when the memory is held with a vector (the vector ranking can find it).
    fn has_vector(&self, id: &str) -> bool {
        self.vector(id).is_some()
    }
}

/// The cosine similarity of two unit vectors, their dot product (0 when their lengths differ).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Scales `vector` to unit length; a zero or non-finite vector is rejected.
pub fn normalized(mut vector: Vec<f32>) -> Option<Vec<f32>> {
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if !norm.is_finite() || norm == 0.0 {
        return None;
    }
    vector.iter_mut().for_each(|x| *x /= norm);
    Some(vector)
}

/// The mean of `vectors` (all of one length; others are skipped), or `None` when there are none. They are
/// summed one at a time, so an iterator that makes each vector on demand never holds them all.
pub fn centroid(vectors: impl IntoIterator<Item = impl AsRef<[f32]>>) -> Option<Vec<f64>> {
    let mut sum: Vec<f64> = Vec::new();
    let mut count = 0usize;
    for vector in vectors {
        let vector = vector.as_ref();
        if sum.is_empty() {
            sum = vec![0.0; vector.len()];
        }
        if vector.len() != sum.len() {
            continue;
        }
        sum.iter_mut().zip(vector).for_each(|(s, x)| *s += f64::from(*x));
        count += 1;
    }
    (count > 0).then(|| sum.into_iter().map(|s| s / count as f64).collect())
}
