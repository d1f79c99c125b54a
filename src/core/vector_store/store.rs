//! The default index: memories in insertion order, their vectors in one flat [`Arena`], scope ids
//! interned for a one-lookup pre-check, and a bounded top-k scan. Removal leaves a tombstone; the
//! slots are compacted (order kept) once tombstones outnumber the living.

use rustc_hash::FxHashMap;

use super::arena::Arena;
use super::catalog::{summed, Catalog, NOT_PLAIN};
use super::count::Count;
use super::scopes::ScopeTable;
use super::top_k::{self, TopK};
use super::{normalized, Kept, Listed, Listing, Predicate, Quantization, VectorStore};
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::types::StoredMemory;
use crate::core::packed::Packed;

#[path = "bulk.rs"]
mod bulk;
#[path = "lookups.rs"]
mod lookups;
#[path = "paged.rs"]
mod paged;

/// Row key of a removed slot.
const REMOVED: u32 = u32::MAX;
/// Row key of a memory without a vector (listed, never searched).
const NO_VECTOR: u32 = u32::MAX - 1;
/// In int8 mode, how many candidates per result are rescored in f32 (plus [`RESCORE_EXTRA`]). The int8
/// estimate and the rescored value differ only by the query's (i16) rounding, so a small margin is enough.
const RESCORE_FACTOR: usize = 2;
const RESCORE_EXTRA: usize = 8;
/// In `auto` mode above its threshold, the wider set rescored exactly from f32: it absorbs the codes'
/// error too, for recall@10 ≥ 0.99 against exact f32.
const AUTO_RESCORE_FACTOR: usize = 4;
const AUTO_RESCORE_EXTRA: usize = 32;

/// The in-RAM index. The memories it hands back carry `embedding: None`: vectors live in the arena only
/// ([`VectorStore::vector`] reads one, dequantised in int8 mode).
#[derive(Debug)]
pub struct InMemoryVectorStore {
    /// Slot → memory (without its vector); `None` once removed.
    slots: Vec<Option<StoredMemory>>,
    /// Slot → interned scope id, [`NO_VECTOR`] or [`REMOVED`].
    keys: Vec<u32>,
    /// Per-slot facts, key and hash lookups, per-scope vector sums.
    catalog: Catalog,
    ids: FxHashMap<String, u32>,
    scopes: ScopeTable,
    arena: Arena,
    removed: usize,
    /// In `auto` mode, from how many live memories the scan is int8.
    int8_from: usize,
    /// How many times a memory was read (tests count a call's work with it).
    #[cfg(test)]
    reads: std::cell::Cell<usize>,
}

impl Default for InMemoryVectorStore {
    fn default() -> Self {
        Self::new(Quantization::default())
    }
}

impl InMemoryVectorStore {
    /// An empty index storing vectors as `quantization` says.
    pub fn new(quantization: Quantization) -> Self {
        Self {
            slots: Vec::new(),
            keys: Vec::new(),
            catalog: Catalog::default(),
            ids: FxHashMap::default(),
            scopes: ScopeTable::default(),
            arena: Arena::new(quantization),
            removed: 0,
            int8_from: super::AUTO_INT8_FROM,
            #[cfg(test)]
            reads: Default::default(),
        }
    }

    /// How many times a memory was read since the index was made (tests count a call's work with it).
    #[cfg(test)]
    pub fn memories_read(&self) -> usize {
        self.reads.get()
    }

    /// Counts one memory read (in tests).
    fn read_one(&self) {
        #[cfg(test)]
        self.reads.set(self.reads.get() + 1);
    }

    /// In `auto` mode, scans int8 codes from `memories` live memories on (tests and bench/ lower it).
    pub fn with_int8_from(mut self, memories: usize) -> Self {
        self.int8_from = memories;
        self
    }

    /// How vectors are stored.
    pub fn quantization(&self) -> Quantization {
        self.arena.quantization()
    }

    /// Bytes allocated for vectors (the arena; memories' text and metadata not included).
    pub fn vector_bytes(&self) -> usize {
        self.arena.bytes()
    }

    fn live(&self) -> impl Iterator<Item = &StoredMemory> {
        self.slots.iter().flatten().inspect(|_| self.read_one())
    }

    fn item(&self, slot: usize) -> &StoredMemory {
        self.read_one();
        self.slots[slot].as_ref().expect("searched slots are live")
    }

    /// The best `limit` slots among rows whose key is visible and whose memory passes `keep`, the first
    /// `exact` of them with their exact score (all of them from f32 rows; from int8 codes, those past
    /// `exact` keep the codes' estimate). With `plain`
    /// (whose scope made `visible`), a plain memory passes when its type is asked for, and `keep` runs on
    /// the others only: the pool of a fused search is chosen without touching a thousand memories.
    fn scan(
        &self,
        query: &[f32],
        (limit, exact): (usize, usize),
        visible: &[bool],
        (keep, plain): Kept,
    ) -> Result<Vec<(f32, u32)>> {
        match self.arena.dimension() {
            None => return Ok(Vec::new()),
            Some(expected) if expected != query.len() => {
                return Err(MemoryError::DimensionMismatch { expected, actual: query.len() })
            }
            Some(_) => {}
        }
        let query = self.arena.prepare(query);
        let live = self.slots.len() - self.removed;
        let (factor, extra) = match self.quantization() {
            Quantization::None => (1, 0),
            Quantization::Int8 => (RESCORE_FACTOR, RESCORE_EXTRA),
            Quantization::Auto if live < self.int8_from => (1, 0),
            Quantization::Auto => (AUTO_RESCORE_FACTOR, AUTO_RESCORE_EXTRA),
        };
        let rescoring = factor > 1;
        // The margin for the codes' error: `factor` × the exact ones for a top 10, growing more slowly for
        // more. The exact best are among the `rescored` best estimates.
        let exact = exact.min(limit);
        let margin = exact.saturating_mul(factor - 1).min(exact / 4 + 224);
        let rescored = exact.saturating_add(margin).saturating_add(extra);
        let wanted = if rescoring { limit.max(rescored) } else { limit };
        let rows = (self.keys.as_slice(), visible);
        let kept = |slot: usize| match (plain, self.catalog.kind[slot]) {
            (Some(plain), kind) if kind < NOT_PLAIN => plain.takes(kind),
            _ => keep(&self.item(slot).item),
        };
        // First the best `pool` rows of the visible scopes, with `keep` run on them only. That is exact when
        // the pool holds every visible row, or when at least `wanted` of it pass: every row left out scores
        // no higher. Else a second scan runs `keep` on each row that would make the cut.
        let pool = wanted.saturating_add((wanted / 2).min(64));
        let mut top = TopK::new(pool, live);
        self.arena.scan(&query, rows, rescoring, &mut top, &|_| true);
        let pooled = top.into_unsorted();
        let every_row = pooled.len() < pool;
        let mut hits: Vec<(f32, u32)> = pooled.into_iter().filter(|(_, slot)| kept(*slot as usize)).collect();
        if hits.len() < wanted && !every_row {
            let mut top = TopK::new(wanted, live);
            self.arena.scan(&query, rows, rescoring, &mut top, &kept);
            hits = top.into_unsorted();
        }
        top_k::keep_best(&mut hits, wanted);
        if rescoring {
            // The best `rescored` estimates get their exact scores; the others keep their estimates.
            top_k::put_best_first(&mut hits, rescored);
            let (head, tail) = hits.split_at(rescored.min(hits.len()));
            let mut best = TopK::new(limit, hits.len());
            self.arena.rescore_each(&query, head, |score, slot| best.push(score, slot));
            tail.iter().for_each(|&(score, slot)| best.push(score, slot));
            return Ok(best.into_sorted());
        }
        top_k::sort(&mut hits);
        Ok(hits)
    }

    /// [`VectorStore::upsert`], giving the memory's slot (a bulk load writes its vector there next).
    pub(super) fn upsert_slot(&mut self, mut memory: StoredMemory) -> Result<usize> {
        let given = memory.embedding.take();
        let mut scratch = Vec::new();
        let vector = match &given {
            None => None,
            Some(vector) => Some(self.fit_row(vector, &mut scratch)?),
        };
        let scope = self.scopes.intern(&memory.item.scope);
        let key = if vector.is_some() { scope } else { NO_VECTOR };
        let slot = match self.ids.get(&memory.item.id) {
            Some(&slot) => {
                self.leave(slot as usize);
                self.arena.write(slot as usize, vector);
                slot as usize
            }
            None => {
                let slot = self.slots.len();
                self.ids.insert(memory.item.id.clone(), slot as u32);
                self.slots.push(None);
                self.keys.push(REMOVED);
                self.catalog.push();
                self.arena.push(vector);
                slot
            }
        };
        // The vector lives in the arena only (one copy): records carry none, `vector()` reads it (and
        // dequantises it in int8 mode).
        memory.embedding = None;
        self.keys[slot] = key;
        self.slots[slot] = Some(memory);
        self.enter(slot, scope);
        Ok(slot)
    }

    fn results(&self, hits: Vec<(f32, u32)>) -> Vec<(f32, &StoredMemory)> {
        hits.into_iter().map(|(score, slot)| (score, self.item(slot as usize))).collect()
    }

    /// Notes the memory now in `slot`, filed under interned scope id `scope`, in the catalog.
    fn enter(&mut self, slot: usize, scope: u32) {
        let vector = summed_row(&self.arena, &self.keys, &self.slots, slot);
        let Some(memory) = &self.slots[slot] else { return };
        let has_vector = self.keys[slot] != NO_VECTOR;
        self.catalog.enter(slot, &memory.item, scope, vector.as_deref(), has_vector);
    }

    /// Takes the memory in `slot` out of the catalog (before it changes or goes).
    fn leave(&mut self, slot: usize) {
        let vector = summed_row(&self.arena, &self.keys, &self.slots, slot);
        let has_vector = self.keys[slot] != NO_VECTOR;
        if let Some(memory) = &self.slots[slot] {
            self.catalog.leave(slot, &memory.item, vector.as_deref(), has_vector);
        }
    }

    /// Drops tombstones, keeping the order of the living, and re-interns their scopes.
    fn compact(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        self.scopes.clear();
        let mut kept = 0;
        let mut scopes = Vec::with_capacity(self.ids.len());
        for (from, memory) in slots.into_iter().enumerate() {
            let Some(memory) = memory else { continue };
            let scope = self.scopes.intern(&memory.item.scope);
            scopes.push(scope);
            self.keys[kept] = match self.keys[from] {
                NO_VECTOR => NO_VECTOR,
                _ => scope,
            };
            if from != kept {
                self.arena.move_row(from, kept);
            }
            self.ids.insert(memory.item.id.clone(), kept as u32);
            self.slots.push(Some(memory));
            kept += 1;
        }
        self.keys.truncate(kept);
        self.keys.shrink_to(kept * 2);
        self.catalog.clear();
        self.catalog.reserve(kept);
        for (slot, scope) in scopes.into_iter().enumerate() {
            self.catalog.push();
            self.enter(slot, scope);
        }
        self.slots.shrink_to(kept * 2);
        self.arena.truncate(kept);
        self.removed = 0;
    }
}

/// The unit vector of `slot` when its memory has one and it counts in its scope's running sum.
fn summed_row<'a>(
    arena: &'a Arena,
    keys: &[u32],
    slots: &[Option<StoredMemory>],
    slot: usize,
) -> Option<std::borrow::Cow<'a, [f32]>> {
    let memory = slots[slot].as_ref()?;
    (!matches!(keys[slot], NO_VECTOR | REMOVED) && summed(&memory.item)).then(|| arena.row(slot))
}

impl VectorStore for InMemoryVectorStore {
    fn upsert(&mut self, memory: StoredMemory) -> Result<()> {
        self.upsert_slot(memory).map(drop)
    }

    fn has_vector(&self, id: &str) -> bool {
        self.ids.get(id).is_some_and(|slot| self.has_vector_at(*slot as usize))
    }

    fn remove(&mut self, id: &str) -> Option<StoredMemory> {
        let slot = *self.ids.get(id)? as usize;
        self.leave(slot);
        self.ids.remove(id);
        let mut memory = self.slots[slot].take()?;
        if self.keys[slot] != NO_VECTOR && memory.embedding.is_none() {
            memory.embedding = Some(self.arena.vector(slot));
        }
        self.keys[slot] = REMOVED;
        self.arena.write(slot, None);
        self.removed += 1;
        if self.ids.is_empty() {
            self.clear();
        } else if self.removed > self.ids.len() {
            self.compact();
        }
        Some(memory)
    }

    fn get(&self, id: &str) -> Option<&StoredMemory> {
        self.slots[*self.ids.get(id)? as usize].as_ref()
    }

    fn search(&self, query: &[f32], limit: usize, keep: Predicate) -> Result<Vec<(f32, &StoredMemory)>> {
        Ok(self.results(self.scan(query, (limit, limit), &self.scopes.all_visible(), (keep, None))?))
    }

    fn search_in_scope(
        &self,
        query: &[f32],
        limit: usize,
        scope: &Scope,
        kept: Kept,
    ) -> Result<Vec<(f32, &StoredMemory)>> {
        self.search_pool(query, (limit, limit), scope, kept)
    }

    fn search_pool(
        &self,
        query: &[f32],
        wanted: (usize, usize),
        scope: &Scope,
        kept: Kept,
    ) -> Result<Vec<(f32, &StoredMemory)>> {
        Ok(self.results(self.scan(query, wanted, &self.scopes.visible_from(scope), kept)?))
    }

    fn list(&self, limit: usize, keep: Predicate) -> Vec<&StoredMemory> {
        self.live().filter(|memory| keep(&memory.item)).take(limit).collect()
    }

    fn list_page(&self, listing: &Listing) -> Listed<'_> {
        self.page_of(listing)
    }

    fn find_by_hash(&self, hash: &str, keep: Predicate) -> Option<&StoredMemory> {
        self.hashed(hash, keep)
    }

    fn find_by_key(&self, scope: &Scope, key: &str) -> Option<&StoredMemory> {
        self.keyed(scope, key)
    }

    fn count(&self, count: &Count) -> usize {
        self.count_rows(count)
    }

    fn centroid(&self, scope: &Scope, now: &str) -> Option<Vec<f64>> {
        self.scope_centroid(scope, now)
    }

    fn load_packed(&mut self, packed: Packed) -> Result<()> {
        self.load_rows(packed)
    }

    fn reserve(&mut self, additional: usize) {
        self.slots.reserve_exact(additional);
        self.keys.reserve_exact(additional);
        self.catalog.reserve(additional);
        self.ids.reserve(additional);
        self.arena.reserve(additional);
    }

    fn vector(&self, id: &str) -> Option<Vec<f32>> {
        let slot = *self.ids.get(id)? as usize;
        (self.keys[slot] != NO_VECTOR).then(|| self.arena.vector(slot))
    }

    fn clear(&mut self) {
        *self = Self::new(self.quantization()).with_int8_from(self.int8_from);
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    fn dimension(&self) -> Option<usize> {
        self.arena.dimension()
    }
}

impl InMemoryVectorStore {
    /// `row` as the index keeps it, and the index's dimension set from it: of that dimension
    /// (`DIMENSION_MISMATCH` otherwise) and unit length. A row already unit length (as the engine hands
    /// over) keeps its exact values, so re-inserting a stored vector never changes it; another is scaled
    /// into `scratch`. A zero or non-finite vector is `INVALID_INPUT`.
    pub(super) fn fit_row<'a>(&mut self, row: &'a [f32], scratch: &'a mut Vec<f32>) -> Result<&'a [f32]> {
        if let Some(expected) = self.arena.dimension().filter(|d| *d != row.len()) {
            return Err(MemoryError::DimensionMismatch { expected, actual: row.len() });
        }
        let norm = super::kernels::squared_norm(row).sqrt();
        let unit = if (norm - 1.0).abs() <= 1e-4 {
            row
        } else {
            *scratch = normalized(row.to_vec())
                .ok_or_else(|| MemoryError::InvalidInput("embedding is a zero or non-finite vector".into()))?;
            scratch.as_slice()
        };
        self.arena.set_dimension(row.len());
        Ok(unit)
    }
}
