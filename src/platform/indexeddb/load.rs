//! Reading memories with their vectors for another tab's notice: the records it names (single, else from the
//! pack holding them, see `packs`; for a notice of many, every record its write or a later one changed, see
//! `journal`) and the chunks they point to, in one readonly transaction (opening reads everything at once,
//! see `packed`, which also joins records to their vectors here; or the open image and its journal, whose
//! chunks are read here, see `image`).

use std::collections::HashSet;
use std::future::Future;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbObjectStore;

use super::chunk::JsChunk;
use super::connection::{Reading, READ_CONTEXT};
use super::journal::{changed_after, BY_CHANGE};
use super::outcome::{from_thrown, settled};
use super::packed::pack;
use super::packs::{holding, memories_of};
use super::records::{memories_from_js, memory_from_js, MemoryRecord};
use super::schema::{MEMORIES, VECTORS};
use super::{skip_corrupt, warn_corrupt, Shared};
use crate::core::error::Result;
use crate::core::model::types::StoredMemory;

/// A notice naming at least this many memories is read from the journal (two index reads, see
/// `changed_since`) instead of one read per memory.
const FROM_JOURNAL_AT: usize = 64;

/// The memories with these ids, which write number `change` wrote or deleted, as stored now (with their
/// vectors), and the ids no longer stored; `shared`'s placement is updated for every one of the ids.
pub async fn load_some(shared: &Rc<Shared>, ids: Vec<String>, change: u64) -> Result<(Vec<StoredMemory>, Vec<String>)> {
    let stores = shared.connection.read_stores().await?;
    let (found, gone) = if change > 0 && ids.len() >= FROM_JOURNAL_AT {
        changed_since(&stores, change, &ids).await?
    } else {
        one_by_one(&stores, &ids).await?
    };
    let chunks = chunks_of(&stores.vectors, &found).await?;
    let mut placement = shared.placement.borrow_mut();
    for id in &ids {
        placement.remove(id);
    }
    drop(placement);
    Ok((pack(found, chunks, Some(shared.clone())).0.into_memories(), gone))
}

/// The records of `ids`, each read by its id (single, else from the pack holding it), and the ids not found.
async fn one_by_one(stores: &Reading, ids: &[String]) -> Result<(Vec<MemoryRecord>, Vec<String>)> {
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
    Ok((found, gone))
}

/// The records of `ids`, which write number `change` wrote or deleted, and the ids not found: each one still
/// stored was last written by that write or a later one, so the records and packs changed since it, read
/// through their change index in two requests, hold all of them (a memory taken out of its pack since is in
/// no pack any more).
async fn changed_since(stores: &Reading, change: u64, ids: &[String]) -> Result<(Vec<MemoryRecord>, Vec<String>)> {
    let records = changed_records(stores, change.saturating_sub(1))?.await?;
    let mut named: HashSet<String> = ids.iter().cloned().collect();
    let found: Vec<MemoryRecord> = records.into_iter().filter(|record| named.remove(&record.memory.item.id)).collect();
    let gone = ids.iter().filter(|id| named.contains(*id)).cloned().collect();
    Ok((found, gone))
}

/// The memory records changed after `seq` (single, or in a pack changed since, see `packs`) that decode. Both
/// requests are issued at once, before the returned future is awaited.
pub fn changed_records(stores: &Reading, seq: u64) -> Result<impl Future<Output = Result<Vec<MemoryRecord>>>> {
    let since = changed_after(seq)?;
    let index = |store: &IdbObjectStore| store.index(BY_CHANGE).map_err(|thrown| from_thrown(thrown, READ_CONTEXT));
    let singles = settled(index(&stores.memories)?.get_all_with_key(since.as_ref()), READ_CONTEXT);
    let packs = settled(index(&stores.packs)?.get_all_with_key(since.as_ref()), READ_CONTEXT);
    Ok(async move {
        let singles: Array = singles.await?.unchecked_into();
        let packs: Array = packs.await?.unchecked_into();
        let records = memories_from_js(&singles).into_iter().chain(packs.iter().flat_map(|pack| memories_of(&pack)));
        Ok(records.filter_map(|record| skip_corrupt(MEMORIES, record)).collect())
    })
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
