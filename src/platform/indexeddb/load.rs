//! Reading memories with their vectors for another tab's notice: the records it names and the chunks they
//! point to, in one readonly transaction (opening reads everything at once, see `packed`, which also joins
//! records to their vectors here).

use std::rc::Rc;

use wasm_bindgen::JsValue;

use super::chunk::JsChunk;
use super::connection::READ_CONTEXT;
use super::outcome::settled;
use super::packed::pack;
use super::records::memory_from_js;
use super::schema::{MEMORIES, VECTORS};
use super::{skip_corrupt, warn_corrupt, Shared};
use crate::core::error::Result;
use crate::core::model::types::StoredMemory;

/// The memories with these ids as stored now (with their vectors) and the ids no longer stored; `shared`'s
/// placement is updated for every one of the ids.
pub async fn load_some(shared: &Rc<Shared>, ids: Vec<String>) -> Result<(Vec<StoredMemory>, Vec<String>)> {
    let (memories, vectors) = shared.connection.read_stores().await?;
    let requests: Vec<_> = ids.iter().map(|id| settled(memories.get(&JsValue::from_str(id)), READ_CONTEXT)).collect();
    let (mut found, mut gone) = (Vec::new(), Vec::new());
    for (id, request) in ids.iter().zip(requests) {
        match request.await? {
            record if record.is_undefined() => gone.push(id.clone()),
            record => found.extend(skip_corrupt(MEMORIES, memory_from_js(record))),
        }
    }
    let mut keys: Vec<u32> = found.iter().filter_map(|record| record.chunk).collect();
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
    let mut placement = shared.placement.borrow_mut();
    for id in &ids {
        placement.remove(id);
    }
    drop(placement);
    Ok((pack(found, chunks, shared.clone()).into_memories(), gone))
}
