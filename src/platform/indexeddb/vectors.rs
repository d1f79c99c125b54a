//! Keeping the `vectors` chunks in step with the memory records of a commit, inside its one readwrite
//! transaction: the chunks it touches are read, changed in wasm and written back (deleted once empty), so a
//! record and its vector are stored, replaced or removed together or not at all.
//!
//! A new vector goes to the last chunk (the highest key, read in the transaction, so tabs writing at once
//! never share a new chunk), or to a new one when that is full or of another dimension; a changed vector
//! is overwritten in place; a memory keeps its chunk until it is deleted. Which chunk holds a memory is a
//! hint from what this instance last read or wrote ([`Placement`]): a commit checks it against the chunk
//! it reads, and a vector not found where the hint says is appended anew, its record naming the new chunk.
//! A vector whose fingerprint is unchanged (metadata updates, noted accesses) costs no chunk read or write.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbObjectStore;

use super::chunk::{fingerprint, Chunk};
use super::outcome::settled;
use super::paced::PacedWriter;
use super::placement::{Placed, Placement};
use crate::core::error::Result;
use crate::core::model::types::StoredMemory;
use crate::core::storage::Changeset;

const CONTEXT: &str = "the write was rolled back";

/// The chunk writes of one commit, and where each upserted memory's vector now lives.
pub struct VectorWrites {
    chunks: BTreeMap<u32, Chunk>,
    changed: Vec<u32>,
    /// Per upsert, in order: where its vector is (`None`: it has none).
    pub placed: Vec<Option<Placed>>,
}

impl VectorWrites {
    /// Reads the chunks `changes` touch from `store` (in the commit's transaction) and applies the changes.
    /// The hints are taken from `placement` once the first read is back: by then every earlier commit of
    /// this instance has completed and settled its own.
    pub async fn plan(store: &IdbObjectStore, placement: &RefCell<Placement>, changes: &Changeset) -> Result<Self> {
        let keys: Array = settled(store.get_all_keys(), CONTEXT).await?.unchecked_into();
        let last = keys
            .iter()
            .filter_map(|key| key.as_f64())
            .fold(None, |max: Option<f64>, key| Some(max.map_or(key, |m| m.max(key))));
        let hints: HashMap<String, Placed> = {
            let mut placement = placement.borrow_mut();
            let ids = changes.upserts.iter().map(|m| &m.item.id).chain(&changes.deletes);
            ids.filter_map(|id| Some((id.clone(), placement.get(id)?))).collect()
        };
        // Upserts whose vector changed (or went), and deletes: the chunks they were in are read.
        let changed = |m: &&StoredMemory| {
            let print = m.embedding.as_deref().map(fingerprint);
            hints.get(&m.item.id).is_some_and(|placed| print != Some(placed.print))
        };
        let reads = changes.upserts.iter().filter(changed).map(|m| &m.item.id).chain(&changes.deletes);
        let chunks = read(store, reads.filter_map(|id| Some(hints.get(id)?.chunk))).await?;
        let mut writes = Self { chunks, changed: Vec::new(), placed: Vec::new() };

        let mut known: HashMap<&str, Option<Placed>> = HashMap::new();
        let current = |known: &HashMap<&str, Option<Placed>>, id: &str| match known.get(id) {
            Some(placed) => *placed,
            None => hints.get(id).copied(),
        };
        for id in &changes.deletes {
            if let Some(placed) = current(&known, id) {
                writes.remove(placed.chunk, id);
            }
            known.insert(id, None);
        }
        let mut appends = Vec::new();
        for (at, memory) in changes.upserts.iter().enumerate() {
            let id = memory.item.id.as_str();
            let new = memory.embedding.as_deref().map(|vector| (vector, fingerprint(vector)));
            let placed = match (current(&known, id), new) {
                (Some(old), Some((_, print))) if old.print == print => Some(old),
                (Some(old), Some((vector, print))) if writes.replace(old.chunk, id, vector) => {
                    Some(Placed { print, ..old })
                }
                (old, new) => {
                    if let Some(old) = old {
                        writes.remove(old.chunk, id);
                    }
                    if new.is_some() {
                        appends.push(at);
                    }
                    None
                }
            };
            known.insert(id, placed);
            writes.placed.push(placed);
        }
        if !appends.is_empty() {
            writes.append(store, last, &changes.upserts, &appends).await?;
        }
        Ok(writes)
    }

    /// Issues the chunk writes (in the transaction the chunks were read in).
    pub async fn write(&self, store: &IdbObjectStore, writer: &mut PacedWriter<'_>) -> Result<()> {
        for key in &self.changed {
            match self.chunks.get(key) {
                Some(chunk) if !chunk.ids.is_empty() => {
                    let value = chunk.to_js().map_err(|error| writer.fail(error))?;
                    writer.issue(store, &value, false, 0).await?;
                }
                _ => writer.delete(store, &JsValue::from(*key)).await?,
            }
        }
        Ok(())
    }

    /// `placement` once the commit of `changes` succeeded.
    pub fn settle(&self, placement: &mut Placement, changes: &Changeset) {
        for id in &changes.deletes {
            placement.remove(id);
        }
        for (memory, placed) in changes.upserts.iter().zip(&self.placed) {
            match placed {
                Some(placed) => placement.insert(memory.item.id.clone(), *placed),
                None => placement.remove(&memory.item.id),
            };
        }
    }

    fn touch(&mut self, key: u32) {
        if !self.changed.contains(&key) {
            self.changed.push(key);
        }
    }

    fn remove(&mut self, key: u32, id: &str) {
        if self.chunks.get_mut(&key).is_some_and(|chunk| chunk.remove(id)) {
            self.touch(key);
        }
    }

    fn replace(&mut self, key: u32, id: &str, vector: &[f32]) -> bool {
        let replaced = self.chunks.get_mut(&key).is_some_and(|chunk| chunk.replace(id, vector));
        if replaced {
            self.touch(key);
        }
        replaced
    }

    /// Appends the vectors of `upserts[at]` for each `at` to the last chunk (`last`, the highest key), then
    /// to new ones.
    async fn append(
        &mut self,
        store: &IdbObjectStore,
        last: Option<f64>,
        upserts: &[StoredMemory],
        at: &[usize],
    ) -> Result<()> {
        let mut tail = last.map(|key| key as u32);
        let mut next = tail.map_or(0, |key| key.saturating_add(1));
        if let Some(key) = tail.filter(|key| !self.chunks.contains_key(key)) {
            self.chunks.extend(read(store, [key]).await?);
        }
        for &at in at {
            let (memory, Some(vector)) = (&upserts[at], upserts[at].embedding.as_deref()) else { continue };
            let fits = |chunk: &Chunk| chunk.dim == vector.len() && !chunk.is_full();
            let key = match tail {
                Some(key) if self.chunks.get(&key).is_some_and(fits) => key,
                _ => {
                    let key = next;
                    next = next.saturating_add(1);
                    tail = Some(key);
                    key
                }
            };
            self.chunks.entry(key).or_insert_with(|| Chunk::new(key, vector.len())).push(&memory.item.id, vector);
            self.touch(key);
            self.placed[at] = Some(Placed { chunk: key, print: fingerprint(vector) });
        }
        Ok(())
    }
}

/// The chunks with these keys that exist and decode (one that does not is left alone, never rewritten).
async fn read(store: &IdbObjectStore, keys: impl IntoIterator<Item = u32>) -> Result<BTreeMap<u32, Chunk>> {
    let mut keys: Vec<u32> = keys.into_iter().collect();
    keys.sort_unstable();
    keys.dedup();
    let requests: Vec<_> = keys.iter().map(|key| (*key, settled(store.get(&JsValue::from(*key)), CONTEXT))).collect();
    let mut chunks = BTreeMap::new();
    for (key, request) in requests {
        let value = request.await?;
        if value.is_undefined() {
            continue;
        }
        if let Ok(chunk) = Chunk::from_js(&value).map_err(|why| super::warn_corrupt(super::schema::VECTORS, &why)) {
            if chunk.key == key {
                chunks.insert(key, chunk);
            }
        }
    }
    Ok(chunks)
}
