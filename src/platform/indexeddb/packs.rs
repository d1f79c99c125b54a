//! Memories packed by the hundred (schema version 8; 9 made its index non-unique). IndexedDB's cost is
//! per record: an import of 10,000 memories spent most of its time in 10,000 `put`s and their commit. So a
//! bulk write (a commit of at least [`PACK_AT`] upserts: an import, a re-embedding) stores its memories in
//! the `packs` store instead, about [`PACK_SIZE`] to a record `{pack, changed, ids, texts}`: `pack` an
//! auto-incremented key, `changed` the change number of its last write (indexed, for the open image's
//! journal, see `image`), `ids` its memories' ids (a `multiEntry` index, to find a memory's pack) and
//! `texts` each memory's record as a JSON text (the `memories` record shape, see `records`).
//!
//! Every other commit writes single records into `memories`, as before. Each memory is stored in one place:
//! a commit that upserts or deletes a packed memory first takes it out of its pack (rewritten without it,
//! deleted once empty), so a memory touched after an import leaves its pack for good and small writes stay
//! small; a bulk write removes any single record of the memories it packs. The change counter keeps how
//! many memories are packed (`journal::Changes::packed`), for the open image's count check.

use std::collections::{HashMap, HashSet};

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbObjectStore;

use super::outcome::{from_thrown, settled};
use super::paced::PacedWriter;
use super::records::{memories_from_texts, texts_to_js, MemoryRecord};
use crate::core::error::Result;
use crate::core::model::types::StoredMemory;
use crate::platform::js_strings;

/// The fewest upserts of one commit that are written in packs.
pub const PACK_AT: usize = 256;
/// Memories per pack (as many as a `vectors` chunk of 384-d rows holds).
pub const PACK_SIZE: usize = 341;
/// The `packs` index on its memories' ids.
pub const MEMBERS: &str = "ids";
/// The `packs` key path.
pub const KEY: &str = "pack";

const CONTEXT: &str = "the write was rolled back";
/// Pack lookups issued at once.
const LOOKUPS: usize = 500;

/// Writes `memories` (a bulk write's upserts, the last of each id kept) as new packs at change `changed`; the
/// `order`-th upsert's vector went to chunk `chunks[order]`. Returns how many memories were packed.
pub async fn write(
    store: &IdbObjectStore,
    memories: &[StoredMemory],
    chunks: &[Option<u32>],
    changed: u64,
    writer: &mut PacedWriter<'_>,
) -> Result<u64> {
    let mut last: HashMap<&str, usize> = HashMap::with_capacity(memories.len());
    for (order, memory) in memories.iter().enumerate() {
        last.insert(&memory.item.id, order);
    }
    let kept: Vec<(&StoredMemory, usize)> =
        memories.iter().zip(0..).filter(|(memory, order)| last.get(memory.item.id.as_str()) == Some(order)).collect();
    for part in kept.chunks(PACK_SIZE) {
        let texts = texts_to_js(part, chunks, changed).map_err(|error| writer.fail(error))?;
        let ids = js_strings(part.iter().map(|(memory, _)| memory.item.id.as_str()));
        let record = Object::new();
        let _ = Reflect::set(&record, &"changed".into(), &JsValue::from(changed as f64));
        let _ = Reflect::set(&record, &MEMBERS.into(), &ids);
        let _ = Reflect::set(&record, &"texts".into(), &texts);
        writer.issue(store, &record, true, part.len()).await?;
    }
    Ok(kept.len() as u64)
}

/// Takes the memories `ids` out of the packs holding them, in the commit's transaction: each such pack is
/// rewritten without them at change `changed`, or deleted once empty. Returns how many were taken out.
pub async fn take_out<'a>(
    store: &IdbObjectStore,
    ids: impl Iterator<Item = &'a String>,
    changed: u64,
    writer: &mut PacedWriter<'_>,
) -> Result<u64> {
    let ids: Vec<&String> = ids.collect();
    let (taken, _) = holding(store, &ids, CONTEXT).await.map_err(|error| writer.fail(error))?;
    let reads: Vec<_> = taken.keys().map(|key| settled(store.get(&JsValue::from(*key as f64)), CONTEXT)).collect();
    let mut count = 0;
    for ((key, ids), read) in taken.iter().zip(reads) {
        let pack = read.await.map_err(|error| writer.fail(error))?;
        let (members, texts) = (field(&pack, MEMBERS), field(&pack, "texts"));
        let (kept_ids, kept_texts) = (Array::new(), Array::new());
        for (id, text) in members.iter().zip(texts.iter()) {
            if id.as_string().is_some_and(|id| ids.contains(id.as_str())) {
                count += 1;
            } else {
                kept_ids.push(&id);
                kept_texts.push(&text);
            }
        }
        if kept_ids.length() == 0 {
            writer.delete(store, &JsValue::from(*key as f64)).await?;
            continue;
        }
        let _ = Reflect::set(&pack, &"changed".into(), &JsValue::from(changed as f64));
        let _ = Reflect::set(&pack, &MEMBERS.into(), &kept_ids);
        let _ = Reflect::set(&pack, &"texts".into(), &kept_texts);
        writer.issue(store, &pack, false, 0).await?;
    }
    Ok(count)
}

/// The packs of `store` holding some of `ids`, each with those ids, and the ids no pack holds. Looked up
/// through `ids` a batch at a time: each batch is issued in one task, so a large write never blocks the page.
pub async fn holding<'a>(
    store: &IdbObjectStore,
    ids: &[&'a String],
    context: &'static str,
) -> Result<(HashMap<u64, HashSet<&'a str>>, Vec<&'a String>)> {
    let index = store.index(MEMBERS).map_err(|thrown| from_thrown(thrown, context))?;
    let (mut held, mut loose) = (HashMap::<u64, HashSet<&str>>::new(), Vec::new());
    for batch in ids.chunks(LOOKUPS) {
        let lookups: Vec<_> = batch.iter().map(|id| settled(index.get_key(&JsValue::from_str(id)), context)).collect();
        for (id, lookup) in batch.iter().zip(lookups) {
            match lookup.await?.as_f64() {
                Some(pack) => _ = held.entry(pack as u64).or_default().insert(id.as_str()),
                None => loose.push(*id),
            }
        }
    }
    Ok((held, loose))
}

/// The memories of `pack` (a `packs` record), each `Ok` or `Err(why)`.
pub fn memories_of(pack: &JsValue) -> Vec<std::result::Result<MemoryRecord, String>> {
    let (ids, texts) = (field(pack, MEMBERS), field(pack, "texts"));
    if ids.length() != texts.length() || texts.length() == 0 {
        return vec![Err("a pack whose ids and texts do not match".into())];
    }
    memories_from_texts(&texts)
}

/// The array `name` of `pack` (empty when absent or not an array).
fn field(pack: &JsValue, name: &str) -> Array {
    Reflect::get(pack, &name.into()).ok().and_then(|value| value.dyn_into::<Array>().ok()).unwrap_or_default()
}
