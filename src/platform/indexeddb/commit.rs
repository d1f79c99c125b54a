//! A commit: one readwrite transaction over every store, its requests issued in turns (see `paced`). The
//! vector chunks it touches are rewritten (see `vectors`), packed memories it touches are taken out of their
//! packs, a bulk write's memories go to new packs (see `packs`) and every other upsert to a single record;
//! deletes leave a tombstone for the open image's journal (see `journal`). Once committed, a write too large
//! for that journal calls for a fresh image (see `image`) and the other tabs are told (see `tab_sync`).

use std::collections::HashSet;

use idb::{ObjectStore, TransactionMode};
use wasm_bindgen::JsValue;
use web_sys::{IdbObjectStore, IdbTransaction};

use super::graph::GraphWrites;
use super::history::{batch_to_js, BATCH};
use super::image;
use super::journal::{next_change, tombstone};
use super::outcome::{abandon, committed, settled};
use super::paced::PacedWriter;
use super::packs;
use super::records::memories_to_js;
use super::schema::{GONE, GRAPH, HISTORY, IMAGE, MEMORIES, PACKS, SIDE, VECTORS};
use super::side::SideWrites;
use super::tab_sync::{Notice, TabSync};
use super::vectors::VectorWrites;
use super::Shared;
use crate::core::error::{MemoryError, Result};
use crate::core::pace::{aborted_error, Pace};
use crate::core::storage::Changeset;

/// Records a commit encodes at once (one `JSON.parse` each batch, see `records`): short turns, bounded memory.
const ENCODE_BATCH: usize = 500;
/// What a failed commit left behind, for its error.
const WRITE_CONTEXT: &str = "the write was rolled back";

/// Writes `changes` all or nothing, at `pace`, and tells the other tabs through `sync`.
pub async fn commit(shared: &Shared, sync: &TabSync, changes: &Changeset, pace: &dyn Pace) -> Result<()> {
    let graph = GraphWrites::encode(&changes.graph)?;
    let side = SideWrites::encode(&changes.side)?;
    if pace.aborted() {
        return Err(aborted_error());
    }
    let names = [MEMORIES, HISTORY, GRAPH, SIDE, VECTORS, IMAGE, GONE, PACKS];
    let transaction = shared.connection.transaction(&names, TransactionMode::ReadWrite).await?;
    let stores: Vec<_> = names.iter().map(|name| transaction.object_store(name)).collect();
    let raw = IdbTransaction::from(transaction);
    let stores: Vec<ObjectStore> = match stores.into_iter().collect() {
        Ok(stores) => stores,
        Err(error) => return Err(abandon(&raw, &error)),
    };
    let [memory_store, history_store, graph_store, side_store, vector_store, image_store, gone_store, packs_store] =
        &stores[..]
    else {
        return Err(MemoryError::Storage("IndexedDB: a store is missing (nothing was written)".into()));
    };
    let raw_store = |store: &ObjectStore| IdbObjectStore::from(store.clone());
    let (vector_store, image_store) = (raw_store(vector_store), raw_store(image_store));
    let records = changes.upserts.len() + changes.history.len();
    let mut writer = PacedWriter::new(&raw, raw_store(memory_store), pace, records);
    let counter = next_change(&image_store, false, WRITE_CONTEXT);
    let bulk = changes.upserts.len() >= packs::PACK_AT;
    let singles = bulk.then(|| settled(raw_store(memory_store).get_all_keys(), WRITE_CONTEXT));
    let vectors = VectorWrites::plan(&vector_store, &shared.placement, changes).await;
    let vectors = vectors.map_err(|error| writer.fail(error))?;
    let mut counter = counter.await.map_err(|error| writer.fail(error))?;
    let (change, packed) = (counter.last, counter.packed);
    vectors.write(&vector_store, &mut writer).await?;
    let (memory_store, gone_store, packs_store) =
        (raw_store(memory_store), raw_store(gone_store), raw_store(packs_store));
    if packed > 0 {
        let touched = changes.upserts.iter().map(|m| &m.item.id).chain(&changes.deletes);
        let taken = packs::take_out(&packs_store, touched, change, &mut writer).await?;
        counter.packed = counter.packed.saturating_sub(taken);
    }
    for id in &changes.deletes {
        let id_value = JsValue::from_str(id);
        writer.delete(&memory_store, &id_value).await?;
        writer.put_keyed(&gone_store, &id_value, &tombstone(change, id)).await?;
    }
    let chunks: Vec<Option<u32>> = vectors.placed.iter().map(|placed| placed.map(|placed| placed.chunk)).collect();
    if let Some(singles) = singles {
        // A bulk write: its memories go to new packs, and out of `memories` (each in one place).
        let singles = js_sys::Array::from(&singles.await.map_err(|error| writer.fail(error))?);
        let singles: HashSet<String> = singles.iter().filter_map(|id| id.as_string()).collect();
        for id in changes.upserts.iter().map(|memory| &memory.item.id).filter(|id| singles.contains(*id)) {
            writer.delete(&memory_store, &JsValue::from_str(id)).await?;
        }
        counter.packed += packs::write(&packs_store, &changes.upserts, &chunks, change, &mut writer).await?;
    } else {
        for (first, upserts) in (0..).step_by(ENCODE_BATCH).zip(changes.upserts.chunks(ENCODE_BATCH)) {
            let records = memories_to_js(upserts, &chunks, first, change).map_err(|error| writer.fail(error))?;
            for record in &records {
                writer.issue(&memory_store, record, false, 1).await?;
            }
        }
    }
    if counter.packed != packed {
        counter.write(&image_store, WRITE_CONTEXT).map_err(|error| writer.fail(error))?;
    }
    let history_store = raw_store(history_store);
    for entries in changes.history.chunks(BATCH) {
        let batch = batch_to_js(entries).map_err(|error| writer.fail(error))?;
        writer.issue(&history_store, &batch, true, entries.len()).await?;
    }
    if let Err(error) = graph.write(graph_store).and_then(|()| side.write(side_store)) {
        return Err(abandon(&raw, &error));
    }
    committed(&raw).await?;
    image::after_commit(shared, raw.db(), changes.upserts.len(), changes.deletes.len());
    vectors.settle(&mut shared.placement.borrow_mut(), changes);
    shared.seen.borrow_mut().note(change);
    let ids = changes.upserts.iter().map(|m| m.item.id.clone()).chain(changes.deletes.iter().cloned()).collect();
    sync.announce(&Notice { cleared: false, ids, change });
    Ok(())
}
