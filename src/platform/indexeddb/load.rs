//! Reading memories with their vectors: at open, one `getAll` of the memory records and one of the
//! `vectors` chunks, in one readonly transaction (a consistent snapshot); for another tab's notice, the
//! records it names and the chunks they point to. Vectors are joined to records by chunk and id, and
//! [`Placement`] notes where each one is for later commits.
//!
//! A record whose vector is missing from its chunk or not finite is skipped with a warning (it stays
//! stored), as a record that does not decode is.

use std::collections::HashMap;

use idb::TransactionMode;
use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbObjectStore;

use super::chunk::{fingerprint, Chunk};
use super::connection::Connection;
use super::outcome::{from_idb, settled};
use super::records::{memories_from_js, memory_from_js, MemoryRecord};
use super::schema::{MEMORIES, VECTORS};
use super::vectors::{Placed, Placement};
use super::{skip_corrupt, warn_corrupt};
use crate::core::error::Result;
use crate::core::types::StoredMemory;

const CONTEXT: &str = "nothing was read";

/// The two stores of a readonly transaction over memories and vectors.
async fn stores(connection: &Connection) -> Result<(IdbObjectStore, IdbObjectStore)> {
    let transaction = connection.transaction(&[MEMORIES, VECTORS], TransactionMode::ReadOnly).await?;
    let store = |name| transaction.object_store(name).map(IdbObjectStore::from).map_err(|e| from_idb(&e, CONTEXT));
    Ok((store(MEMORIES)?, store(VECTORS)?))
}

/// Every stored memory with its vector, oldest first, and where the vectors are.
pub async fn load_all(connection: &Connection) -> Result<(Vec<StoredMemory>, Placement)> {
    let (memories, vectors) = stores(connection).await?;
    let (records, chunks) = (settled(memories.get_all(), CONTEXT), settled(vectors.get_all(), CONTEXT));
    // The records are decoded while the database reads the chunks.
    let records: Array = records.await?.unchecked_into();
    let records = memories_from_js(&records).into_iter().filter_map(|record| skip_corrupt(MEMORIES, record));
    let records = records.collect();
    let chunks: Array = chunks.await?.unchecked_into();
    let (mut memories, placement) = join(records, chunks.iter());
    crate::core::sort::sort_by(&mut memories, |(a, a_order), (b, b_order)| {
        a.item.created_at.cmp(&b.item.created_at).then(a_order.total_cmp(b_order))
    });
    Ok((memories.into_iter().map(|(memory, _)| memory).collect(), placement))
}

/// The memories with these ids as stored now (with their vectors), the ids no longer stored, and where
/// the vectors are.
pub async fn load_some(
    connection: &Connection,
    ids: Vec<String>,
) -> Result<(Vec<StoredMemory>, Vec<String>, Placement)> {
    let (memories, vectors) = stores(connection).await?;
    let requests: Vec<_> = ids.iter().map(|id| settled(memories.get(&JsValue::from_str(id)), CONTEXT)).collect();
    let (mut found, mut gone) = (Vec::new(), Vec::new());
    for (id, request) in ids.into_iter().zip(requests) {
        match request.await? {
            record if record.is_undefined() => gone.push(id),
            record => found.extend(skip_corrupt(MEMORIES, memory_from_js(record))),
        }
    }
    let mut keys: Vec<u32> = found.iter().filter_map(|record| record.chunk).collect();
    keys.sort_unstable();
    keys.dedup();
    let requests: Vec<_> = keys.iter().map(|key| settled(vectors.get(&JsValue::from(*key)), CONTEXT)).collect();
    let mut chunks = Vec::with_capacity(requests.len());
    for request in requests {
        chunks.push(request.await?);
    }
    let (memories, placement) = join(found, chunks.into_iter().filter(|chunk| !chunk.is_undefined()));
    Ok((memories.into_iter().map(|(memory, _)| memory).collect(), gone, placement))
}

/// Attaches to each record the vector its chunk holds for it; records whose vector is not there (or not
/// finite) are skipped with a warning. Chunks are decoded one at a time, so only one is copied at once.
fn join(
    mut records: Vec<MemoryRecord>,
    chunks: impl Iterator<Item = JsValue>,
) -> (Vec<(StoredMemory, f64)>, Placement) {
    let mut slots: HashMap<String, (usize, u32)> = HashMap::with_capacity(records.len());
    for (at, record) in records.iter().enumerate() {
        if let Some(chunk) = record.chunk {
            slots.insert(record.memory.item.id.clone(), (at, chunk));
        }
    }
    for chunk in chunks {
        let Ok(chunk) = Chunk::from_js(&chunk).map_err(|why| warn_corrupt(VECTORS, &why)) else { continue };
        for (row, id) in chunk.ids.iter().enumerate() {
            if let Some(&(at, key)) = slots.get(id) {
                if key == chunk.key {
                    records[at].memory.embedding = Some(chunk.row(row).to_vec());
                }
            }
        }
    }
    let mut placement = Placement::with_capacity(slots.len());
    let mut skipped = vec![false; records.len()];
    for (id, (at, chunk)) in slots {
        match records[at].memory.embedding.as_deref() {
            Some(vector) if vector.iter().all(|x| x.is_finite()) => {
                placement.insert(id, Placed { chunk, print: fingerprint(vector) });
            }
            found => {
                let why = if found.is_some() { "holds a non-finite value" } else { "has no row for it" };
                warn_corrupt(MEMORIES, &format!("record \"{id}\": its vector chunk {chunk} {why}"));
                skipped[at] = true;
            }
        }
    }
    let kept = records.into_iter().zip(skipped).filter(|(_, skipped)| !skipped);
    (kept.map(|(record, _)| (record.memory, record.order)).collect(), placement)
}
