//! Reading memories with their vectors for another tab's notice: the records it names (single, else from the
//! pack holding them, see `packs`) and the chunks they point to, in one readonly transaction (opening reads
//! everything at once, see `packed`, which also joins records to their vectors here; or the open image and
//! its journal, whose chunks are read here, see `image`).

use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::IdbObjectStore;

use super::chunk::JsChunk;
use super::connection::READ_CONTEXT;
use super::outcome::settled;
use super::packed::pack;
use super::packs::{holding, memories_of};
use super::records::{memory_from_js, MemoryRecord};
use super::schema::{MEMORIES, VECTORS};
use super::{skip_corrupt, warn_corrupt, Shared};
use crate::core::error::Result;
use crate::core::model::types::StoredMemory;

/// The memories with these ids as stored now (with their vectors) and the ids no longer stored; `shared`'s
/// placement is updated for every one of the ids.
pub async fn load_some(shared: &Rc<Shared>, ids: Vec<String>) -> Result<(Vec<StoredMemory>, Vec<String>)> {
    let stores = shared.connection.read_stores().await?;
    let requests: Vec<_> =
        ids.iter().map(|id| settled(stores.memories.get(&JsValue::from_str(id)), READ_CONTEXT)).collect();
    let (mut found, mut unsingled) = (Vec::new(), Vec::new());
    for (id, request) in ids.iter().zip(requests) {
        match request.await? {
            record if record.is_undefined() => unsingled.push(id),
            record => found.extend(skip_corrupt(MEMORIES, memory_from_js(record))),
        }
    }
    // An id with no single record may be packed (see `packs`): each pack holding some is read once.
    let (packed, gone) = packed_members(&stores.packs, unsingled).await?;
    found.extend(packed);
    let chunks = chunks_of(&stores.vectors, &found).await?;
    let mut placement = shared.placement.borrow_mut();
    for id in &ids {
        placement.remove(id);
    }
    drop(placement);
    Ok((pack(found, chunks, Some(shared.clone())).0.into_memories(), gone))
}

/// The memories `ids` that `packs` holds, and the ids it does not hold.
async fn packed_members(packs: &IdbObjectStore, ids: Vec<&String>) -> Result<(Vec<MemoryRecord>, Vec<String>)> {
    let (wanted, loose) = holding(packs, &ids, READ_CONTEXT).await?;
    let gone = loose.into_iter().cloned().collect();
    let reads: Vec<_> =
        wanted.keys().map(|key| settled(packs.get(&JsValue::from(*key as f64)), READ_CONTEXT)).collect();
    let mut found = Vec::new();
    for (ids, read) in wanted.values().zip(reads) {
        let records = memories_of(&read.await?).into_iter().filter_map(|record| skip_corrupt(MEMORIES, record));
        found.extend(records.filter(|record| ids.contains(record.memory.item.id.as_str())));
    }
    Ok((found, gone))
}

/// The chunks holding the vectors of `records`, read from `vectors` (those that do not decode are skipped
/// with a warning).
pub async fn chunks_of(vectors: &IdbObjectStore, records: &[MemoryRecord]) -> Result<Vec<JsChunk>> {
    let mut keys: Vec<u32> = records.iter().filter_map(|record| record.chunk).collect();
    keys.sort_unstable();
    keys.dedup();
    let requests: Vec<_> = keys.iter().map(|key| settled(vectors.get(&JsValue::from(*key)), READ_CONTEXT)).collect();
    let mut chunks = Vec::with_capacity(requests.len());
    for request in requests {
        let chunk = request.await?;
        if !chunk.is_undefined() {
            chunks.extend(JsChunk::from_js(&chunk).map_err(|why| warn_corrupt(VECTORS, &why)).ok());
        }
    }
    Ok(chunks)
}
