//! The open image in IndexedDB (schema version 7; see `core::image`): one record of the `image` store,
//! `{seq, bytes, orders, chunks, prints}`, holding every memory and vector as of change `seq` with, beside
//! them, each memory's `order`, vector chunk and vector fingerprint (what the sort and the next commit's
//! chunk hints need; an open notes them as they are, see `placement`). The
//! journal after it is the memory records and packs (see `packs`) whose `changed` is above `seq` and the
//! ids `gone` after it (see `journal`). Opening reads the image and the journal in one readonly transaction
//! instead of every record. With no image, one that does not decode (a warning says why) or a count of
//! records that disagrees (the packed ones counted by the change counter), it
//! reads every record (`packed`). After such an open, one whose journal is large (`journal_is_small`), or a
//! write too large for a journal (`after_commit`), half a second later, off the open or write, a fresh image
//! is built from a snapshot of its own and written in a readwrite transaction of its own: a tab closed or
//! killed before or during it leaves the previous image, which the journal still brings up to date.
//!
//! Reading every record gives the memories by `createdAt`, then `order`, then id: the journal is applied in
//! place (`with_journal`) and the result sorted that way when it is not already (an update can move one).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Array, ArrayBuffer, BigUint64Array, Float64Array, Object, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{IdbDatabase, IdbObjectStore, IdbTransactionMode};

use super::chunk::fingerprint;
use super::connection::{Reading, READ_CONTEXT};
use super::journal::{gone_ids, gone_keys, next_change, Changes};
use super::load::{changed_records, chunks_of};
use super::outcome::{committed, from_thrown, settled};
use super::packed::{pack, read_all, FullRead, Place};
use super::placement::Placed;
use super::schema::{GONE, IMAGE};
use super::{warn, Shared};
use crate::core::error::Result;
use crate::core::image::{decode, encode, grown, journal_is_small, with_journal, Decoded, WRITE_AFTER_MS};
use crate::core::model::types::StoredMemory;
use crate::core::packed::Packed;
use crate::platform::js_bytes::JsBytes;

/// The image's key in the `image` store.
const KEY: &str = "memories";
const WRITE_CONTEXT: &str = "the open image was not written";

/// Every stored memory, oldest first: from the image and its journal when they can be used, else from
/// every record (a fresh image is then written shortly).
pub async fn load(shared: Rc<Shared>) -> Result<Packed> {
    shared.placement.borrow_mut().clear();
    if let Some((packed, last)) = from_image(&shared).await? {
        shared.seen.borrow_mut().reset(last);
        shared.stored.set(packed.memories.len());
        return Ok(packed);
    }
    let stores = shared.connection.read_stores().await?;
    let full = read_all(stores, Some(shared.clone())).await?;
    shared.seen.borrow_mut().reset(full.seq);
    shared.stored.set(full.packed.memories.len());
    rebuild_soon(full.database.clone());
    Ok(full.packed)
}

/// After a committed write of `upserts` and `deletes` on `database`: when they are more than the journal
/// of an image of the memories stored before it may hold (an import, a re-embedding, a large delete), a
/// fresh image is written soon, so the next open does not read them from the journal, nor every record.
pub fn after_commit(shared: &Shared, database: IdbDatabase, upserts: usize, deletes: usize) {
    let stored = shared.stored.get();
    if !journal_is_small(upserts + deletes, stored) {
        rebuild_soon(database);
    }
    shared.stored.set(grown(stored, upserts, deletes));
}

/// The image with its journal applied, and the last change it covers with it; `None` (after a warning
/// when the image does not decode) to read every record instead.
async fn from_image(shared: &Rc<Shared>) -> Result<Option<(Packed, u64)>> {
    let stores = shared.connection.read_stores().await?;
    let counter = Changes::read(&stores.image, READ_CONTEXT);
    let stored = settled(stores.image.get(&JsValue::from_str(KEY)), READ_CONTEXT).await?;
    if stored.is_undefined() {
        return Ok(None);
    }
    // The journal is asked for at once, the image decoded while it comes back.
    let seq = Reflect::get(&stored, &"seq".into()).ok().and_then(|seq| seq.as_f64()).unwrap_or(0.0) as u64;
    let count = settled(stores.memories.count(), READ_CONTEXT);
    let records = changed_records(&stores, seq)?;
    let gone = settled(stores.gone.get_all_keys_with_key(gone_keys(seq, true)?.as_ref()), READ_CONTEXT);
    let (image, mut places) = match from_js(&stored, seq) {
        Ok(image) => image,
        Err(why) => {
            warn(&format!("memwasm: the IndexedDB store's open image is not used ({why}); reading every record"));
            return Ok(None);
        }
    };
    let records = records.await?;
    let gone = gone_ids(&gone.await?.unchecked_into());
    let small = journal_is_small(records.len() + gone.len(), image.memories.len());
    let chunks = chunks_of(&stores.vectors, &records).await?;
    let counter = counter.await?;
    let count = count.await?.as_f64().unwrap_or(-1.0) + counter.packed as f64;
    let (journal, journal_places) = pack(records, chunks, Some(shared.clone()));
    let journal = journal.into_memories();
    let moved = !journal.is_empty() || !gone.is_empty();
    let by_id = moved.then(|| by_id(&image, std::mem::take(&mut places), &journal, journal_places));
    let packed = with_journal(image, &gone, journal);
    let places = match by_id {
        Some(by_id) => {
            packed.memories.iter().map(|memory| by_id.get(&memory.item.id).copied().unwrap_or(NOWHERE)).collect()
        }
        None => places,
    };
    if packed.memories.len() as f64 != count {
        return Ok(None);
    }
    if !small {
        rebuild_soon(stores.database.clone());
    }
    Ok(Some((in_stored_order(packed, places, shared.clone()), counter.last)))
}

/// The image in a record of the `image` store, and each memory's place; or why it cannot be used.
fn from_js(stored: &JsValue, seq: u64) -> std::result::Result<(Decoded, Vec<Place>), String> {
    let field = |name: &str| Reflect::get(stored, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let bytes = match field("bytes") {
        buffer if buffer.is_instance_of::<ArrayBuffer>() => Uint8Array::new(&buffer),
        bytes => bytes.dyn_into::<Uint8Array>().map_err(|_| "its bytes are not a Uint8Array".to_string())?,
    };
    let image = decode(JsBytes(bytes))?;
    if image.seq != seq {
        return Err(format!("it says change {seq} but its bytes hold change {}", image.seq));
    }
    let numbers = |name: &str| field(name).dyn_into::<Float64Array>().map(|array| array.to_vec()).ok();
    let prints = field("prints").dyn_into::<BigUint64Array>().map(|array| array.to_vec()).ok();
    let (Some(orders), Some(chunks), Some(prints)) = (numbers("orders"), numbers("chunks"), prints) else {
        return Err("its orders, chunks or prints are missing".into());
    };
    let count = image.memories.len();
    if orders.len() != count || chunks.len() != count || prints.len() != count {
        return Err("its orders, chunks or prints do not match its records".into());
    }
    let chunk = |key: f64| (key.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&key)).then_some(key as u32);
    let places = orders.into_iter().zip(chunks).zip(prints);
    let places = places.map(|((order, key), print)| Place { order, chunk: chunk(key), print: Some(print) }).collect();
    Ok((image, places))
}

/// A place for a memory that has none (never used: each memory is in the image or the journal).
const NOWHERE: Place = Place { order: 0.0, chunk: None, print: None };

/// Each memory's place by id, the journal's overriding the image's.
fn by_id(
    image: &Decoded,
    places: Vec<Place>,
    journal: &[StoredMemory],
    journal_places: Vec<Place>,
) -> HashMap<String, Place> {
    let image_ids = image.memories.iter().map(|memory| memory.item.id.clone());
    let journal_ids = journal.iter().map(|memory| memory.item.id.clone());
    image_ids.zip(places).chain(journal_ids.zip(journal_places)).collect()
}

/// `packed` as reading every record orders it, its rows noting where each vector is stored.
fn in_stored_order(packed: Packed, places: Vec<Place>, shared: Rc<Shared>) -> Packed {
    let pairs = packed.memories.iter().zip(&places);
    let sorted = pairs.clone().zip(pairs.skip(1)).all(|(a, b)| stored_order(a, b) != Ordering::Greater);
    if sorted {
        // The image's places are noted as they are; the journal's rows note theirs as they are handed out.
        let placed = packed.memories.iter().zip(&places).filter_map(|(memory, place)| {
            Some((memory.item.id.clone(), Placed { chunk: place.chunk?, print: place.print? }))
        });
        shared.placement.borrow_mut().note(placed);
        return packed;
    }
    let mut kept: Vec<(StoredMemory, Place)> = packed.into_memories().into_iter().zip(places).collect();
    crate::core::sort::sort_by(&mut kept, |a, b| stored_order((&a.0, &a.1), (&b.0, &b.1)));
    let mut placement = shared.placement.borrow_mut();
    for (memory, place) in &kept {
        if let (Some(vector), Some(chunk)) = (&memory.embedding, place.chunk) {
            placement.insert(memory.item.id.clone(), Placed { chunk, print: fingerprint(vector) });
        }
    }
    Packed::unpacked(kept.into_iter().map(|(memory, _)| memory).collect())
}

/// The order of reading every record: `createdAt`, then `order`, then id (as IndexedDB orders keys).
fn stored_order(a: (&StoredMemory, &Place), b: (&StoredMemory, &Place)) -> Ordering {
    let (a_item, b_item) = (&a.0.item, &b.0.item);
    a_item
        .created_at
        .cmp(&b_item.created_at)
        .then(a.1.order.total_cmp(&b.1.order))
        .then_with(|| a_item.id.encode_utf16().cmp(b_item.id.encode_utf16()))
}

/// Writes a fresh image to `database` in half a second: off the open, from a snapshot of its own.
fn rebuild_soon(database: IdbDatabase) {
    let fire = Closure::once_into_js(move || {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(error) = rebuild(&database).await {
                warn(&format!("memwasm: the IndexedDB store's open image was not written ({error})"));
            }
        })
    });
    crate::platform::timer::set_timeout(fire.unchecked_ref(), WRITE_AFTER_MS);
}

/// Reads every record of `database` (nothing once it was closed), encodes their image and writes it.
async fn rebuild(database: &IdbDatabase) -> Result<()> {
    let Some(stores) = Reading::on(database) else { return Ok(()) };
    let FullRead { packed, places, seq, .. } = read_all(stores?, None).await?;
    let memories = packed.into_memories();
    match to_js(&memories, &places, seq) {
        Some(record) => write(database, &record, seq).await,
        None => Ok(()),
    }
}

/// The `image` record of `memories` (every record as of change `seq`); `None` when they have no image.
fn to_js(memories: &[StoredMemory], places: &[Place], seq: u64) -> Option<JsValue> {
    let bytes = encode(memories, seq)?;
    let orders: Vec<f64> = places.iter().map(|place| place.order).collect();
    let chunks: Vec<f64> = memories
        .iter()
        .zip(places)
        .map(|(memory, place)| place.chunk.filter(|_| memory.embedding.is_some()).map_or(-1.0, f64::from))
        .collect();
    let prints: Vec<u64> = memories.iter().map(|memory| memory.embedding.as_deref().map_or(0, fingerprint)).collect();
    let record = Object::new();
    let fields: [(&str, JsValue); 5] = [
        ("seq", JsValue::from(seq as f64)),
        ("bytes", Uint8Array::from(bytes.as_slice()).into()),
        ("orders", Float64Array::from(orders.as_slice()).into()),
        ("chunks", Float64Array::from(chunks.as_slice()).into()),
        ("prints", BigUint64Array::from(prints.as_slice()).into()),
    ];
    for (name, value) in fields {
        let _ = Reflect::set(&record, &name.into(), &value);
    }
    Some(record.into())
}

/// Removes the image and notes a `clear()` in the counter, in `store` (the `image` store of the clear's
/// transaction): an image of before it, still waiting to be written, is then dropped. Returns the clear's
/// change number.
pub async fn forget(store: &IdbObjectStore) -> Result<u64> {
    const CONTEXT: &str = "nothing was deleted";
    store.delete(&JsValue::from_str(KEY)).map_err(|thrown| from_thrown(thrown, CONTEXT))?;
    next_change(store, true, CONTEXT).await.map(|changes| changes.last)
}

/// Writes `record`, the image as of change `seq`, and drops the tombstones it covers, in one transaction;
/// unless the stored image is newer, or a `clear()` came after `seq`. Nothing is written once the database
/// was closed (deleted or upgraded by another tab since).
async fn write(database: &IdbDatabase, record: &JsValue, seq: u64) -> Result<()> {
    let names = Array::of2(&IMAGE.into(), &GONE.into());
    let Ok(transaction) = database.transaction_with_str_sequence_and_mode(&names, IdbTransactionMode::Readwrite) else {
        return Ok(());
    };
    let store = |name| transaction.object_store(name).map_err(|thrown| from_thrown(thrown, WRITE_CONTEXT));
    let (image, gone) = (store(IMAGE)?, store(GONE)?);
    let mut changes = Changes::read(&image, WRITE_CONTEXT).await?;
    if seq < changes.imaged || seq < changes.cleared || seq > changes.last {
        let _ = transaction.abort();
        return Ok(());
    }
    changes.imaged = seq;
    let covered = gone_keys(seq, false)?;
    let written = image
        .put_with_key(record, &JsValue::from_str(KEY))
        .and_then(|_| gone.delete(&covered))
        .map_err(|thrown| from_thrown(thrown, WRITE_CONTEXT))
        .and_then(|_| changes.write(&image, WRITE_CONTEXT));
    if let Err(error) = written {
        let _ = transaction.abort();
        return Err(error);
    }
    committed(&transaction).await
}
