//! Packs of IndexedDB storage (schema versions 8 and 9), in headless Chromium: a bulk write (an import)
//! stores its memories a few hundred to a record; every read (opening from records or from the open image
//! and its journal, another instance's notice) finds them, whatever their ids hold; a packed memory that
//! is updated or deleted leaves its pack, and a bulk write of memories already stored (single or packed)
//! replaces them, each memory kept in one place; `clear()` empties the packs. Each test deletes its
//! database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use std::cell::RefCell;
use std::rc::Rc;

use browser_support::*;
use memwasm::core::config::IndexedDbSettings;
use memwasm::core::model::types::StoredMemory;
use memwasm::core::storage::{Changeset, RemoteChange, Storage};
use memwasm::platform::indexeddb::IndexedDbStorage;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage(db: &str) -> IndexedDbStorage {
    IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false })
}

/// Memory `n`, created at second `n / 3`, with an 8-d vector.
fn memory(n: usize) -> StoredMemory {
    let created_at = format!("2025-01-01T{:02}:{:02}:{:02}.000Z", n / 3 / 3600, n / 3 / 60 % 60, n / 3 % 60);
    alices_memory(n, created_at, Some((0..8).map(|j| ((n * 31 + j * 7) % 17) as f32 - 8.0).collect()))
}

fn memories(range: std::ops::Range<usize>) -> Vec<StoredMemory> {
    range.map(memory).collect()
}

/// Memories `range` with new texts (`memory 3 again`).
fn rewritten(range: std::ops::Range<usize>) -> Vec<StoredMemory> {
    let mut memories = memories(range);
    memories.iter_mut().for_each(|memory| memory.item.memory.push_str(" again"));
    memories
}

async fn commit(storage: &IndexedDbStorage, upserts: Vec<StoredMemory>, deletes: &[&str]) {
    let deletes = deletes.iter().map(|id| id.to_string()).collect();
    storage.commit(&Changeset { upserts, deletes, ..Changeset::default() }).await.expect("committed");
}

/// `{singles, packs: [ids per pack], packed}` of the database, read without the library.
async fn layout(db: &str) -> Value {
    let open = open_current_js(db);
    json_of(
        run_js(&format!(
            "{open}
             const all = (name, what) => new Promise((ok, no) => {{ const r = db.transaction(name).objectStore(name)[what](); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
             const counter = await new Promise((ok) => {{ const r = db.transaction('image').objectStore('image').get('changes'); r.onsuccess = () => ok(r.result); }});
             const [singles, packs] = [await all('memories', 'getAllKeys'), await all('packs', 'getAll')];
             db.close();
             return {{ singles, packs: packs.map((p) => p.ids), packed: counter?.packed ?? 0 }};"
        ))
        .await,
    )
}

/// `(id, text, has a vector)` of every memory a fresh storage reads, in its order.
async fn read(db: &str) -> Vec<(String, String, bool)> {
    let loaded = storage(db).load_memories().await.expect("read");
    loaded.into_iter().map(|m| (m.item.id, m.item.memory, m.embedding.is_some())).collect()
}

fn expected(memories: &[StoredMemory]) -> Vec<(String, String, bool)> {
    memories.iter().map(|m| (m.item.id.clone(), m.item.memory.clone(), m.embedding.is_some())).collect()
}

/// Removes the open image, so the next open reads every record.
async fn drop_image(db: &str) {
    let open = open_current_js(db);
    run_js(&format!(
        "{open}
         await new Promise((ok) => {{ const t = db.transaction('image', 'readwrite'); t.objectStore('image').delete('memories'); t.oncomplete = ok; }});
         db.close();"
    ))
    .await;
}

#[wasm_bindgen_test]
async fn a_bulk_write_of_1200_memories_is_stored_in_four_packs_and_read_back() {
    let db = "packs-bulk";
    delete_database(db).await;
    let written = memories(0..1200);
    commit(&storage(db), written.clone(), &[]).await;
    let stored = layout(db).await;
    assert_eq!(stored["singles"], json!([]), "no single record");
    let sizes: Vec<usize> = stored["packs"].as_array().unwrap().iter().map(|p| p.as_array().unwrap().len()).collect();
    assert_eq!(sizes, [341, 341, 341, 177]);
    assert_eq!(stored["packed"], json!(1200));
    assert_eq!(read(db).await, expected(&written), "every record read (and an image written after)");
    sleep(900).await;
    assert_eq!(read(db).await, expected(&written), "from the image");
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn an_id_holding_a_newline_is_packed_found_and_moved_out_like_any_other() {
    let db = "packs-newline";
    delete_database(db).await;
    let mut written = memories(0..300);
    written[10].item.id = "m\n010".into(); // the ids cross into JS joined by newlines, unless one holds one
    written[11].item.memory = "two\nlines".into();
    commit(&storage(db), written.clone(), &[]).await;
    let stored = layout(db).await;
    assert_eq!(stored["packs"][0][10], json!("m\n010"));
    assert_eq!(read(db).await, expected(&written));

    written[10].item.memory = "memory 10, changed".into();
    commit(&storage(db), vec![written[10].clone()], &[]).await;
    assert_eq!(layout(db).await["singles"], json!(["m\n010"]), "found through the packs' index and moved out");
    let mut stored = read(db).await;
    stored.sort();
    let mut wanted = expected(&written);
    wanted.sort();
    assert_eq!(stored, wanted);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_packed_memory_updated_or_deleted_leaves_its_pack_and_every_read_agrees() {
    let db = "packs-touched";
    delete_database(db).await;
    let mut written = memories(0..700);
    commit(&storage(db), written.clone(), &[]).await;
    read(db).await;
    sleep(900).await; // the image of the 700 is written

    let mut changed = memory(5);
    changed.item.memory = "memory 5, changed".into();
    commit(&storage(db), vec![changed.clone()], &["m007"]).await;
    written[5] = changed;
    written.remove(7);

    let stored = layout(db).await;
    assert_eq!(stored["singles"], json!(["m005"]), "the updated memory is a single record now");
    let packed: Vec<&str> = stored["packs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p.as_array().unwrap())
        .map(|id| id.as_str().unwrap())
        .collect();
    assert_eq!(packed.len(), 698);
    assert!(!packed.contains(&"m005") && !packed.contains(&"m007"), "neither is packed any more");
    assert_eq!(stored["packed"], json!(698));
    let from_image = read(db).await; // the image and its journal (a single record and a rewritten pack)
    drop_image(db).await;
    let mut from_records = read(db).await;
    assert_eq!(from_image, from_records, "the image and its journal give what every record gives");
    from_records.sort(); // the update is the first of its write: it sorts before m003, created in its second
    assert_eq!(from_records, expected(&written));
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_bulk_write_of_memories_already_stored_replaces_them_wherever_they_are() {
    let db = "packs-again";
    delete_database(db).await;
    commit(&storage(db), vec![memory(3)], &[]).await;
    commit(&storage(db), memories(0..300), &[]).await;
    let again = rewritten(0..300);
    let mut twice = again.clone();
    twice.push(again[9].clone()); // an id twice in one write: the last is kept, as a put would
    commit(&storage(db), twice, &[]).await;
    let stored = layout(db).await;
    assert_eq!(stored["singles"], json!([]), "the single record of m003 went with the first bulk write");
    assert_eq!(stored["packs"].as_array().unwrap().len(), 1, "the first pack was emptied and deleted");
    assert_eq!(stored["packed"], json!(300));
    let mut stored = read(db).await;
    stored.sort(); // m009's last write is the 301st: it sorts after m011, created in the same second
    assert_eq!(stored, expected(&again));
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn another_instance_follows_a_bulk_write_and_the_moves_out_of_its_packs() {
    let db = "packs-tabs";
    delete_database(db).await;
    let follower = storage(db);
    follower.load_memories().await.unwrap();
    let heard: Rc<RefCell<Vec<RemoteChange>>> = Rc::default();
    let sink = heard.clone();
    follower.watch(Box::new(move |change| sink.borrow_mut().push(change)));

    let writer = storage(db);
    commit(&writer, memories(0..400), &[]).await;
    assert!(eventually(5.0, || async { !heard.borrow().is_empty() }).await, "the bulk write was heard");
    let upserts: Vec<_> = heard.borrow().iter().flat_map(|c| c.upserts.iter().map(|m| m.item.id.clone())).collect();
    assert_eq!(upserts.len(), 400, "every packed memory was read for the notice");
    assert!(heard.borrow().iter().all(|c| c.upserts.iter().all(|m| m.embedding.is_some())), "with its vector");

    heard.borrow_mut().clear();
    let mut changed = memory(10);
    changed.item.memory = "memory 10, changed".into();
    commit(&writer, vec![changed], &["m011"]).await;
    assert!(eventually(5.0, || async { !heard.borrow().is_empty() }).await, "the update was heard");
    let change = heard.borrow_mut().remove(0);
    assert_eq!(change.upserts.iter().map(|m| m.item.memory.as_str()).collect::<Vec<_>>(), ["memory 10, changed"]);
    assert_eq!(change.deletes, ["m011"]);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn clear_empties_the_packs_and_their_count() {
    let db = "packs-clear";
    delete_database(db).await;
    let store = storage(db);
    commit(&store, memories(0..300), &[]).await;
    store.clear().await.unwrap();
    assert_eq!(layout(db).await, json!({"singles": [], "packs": [], "packed": 0}));
    commit(&store, memories(0..2), &[]).await;
    assert_eq!(read(db).await, expected(&memories(0..2)));
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn two_instances_bulk_writing_the_same_memories_at_once_both_succeed_and_keep_each_once() {
    let db = "packs-race";
    delete_database(db).await;
    let (first, second) = (storage(db), storage(db));
    let again = rewritten(0..300);
    let (a, b) = (commit(&first, memories(0..300), &[]), commit(&second, again[1..].to_vec(), &["m000"]));
    futures_util::future::join(a, b).await;
    let stored = layout(db).await;
    let mut packed: Vec<&str> = stored["packs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p.as_array().unwrap())
        .map(|id| id.as_str().unwrap())
        .collect();
    packed.sort_unstable();
    packed.dedup();
    assert_eq!(stored["packed"].as_u64(), Some(packed.len() as u64), "each packed memory once, counted");
    let read = read(db).await;
    let second_last = read.iter().all(|(_, text, _)| text.ends_with(" again"));
    let first_last = read.iter().all(|(_, text, _)| !text.ends_with(" again"));
    assert!((second_last && read.len() == 299) || (first_last && read.len() == 300), "one write after the other");
    delete_database(db).await;
}
