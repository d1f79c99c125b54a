//! The open image of IndexedDB storage (schema version 7), in headless Chromium: opening from the image and
//! its journal gives exactly what reading every record gives, in the same order, after updates (one that
//! moves a memory among its write's siblings), deletes, re-adds and another instance's writes; the chunk
//! hints it leaves (noted, and put in their map on the first lookup, after which later changes apply) let
//! later writes keep one row per vector, and its vectors' fingerprints let a new text rewrite no chunk; a torn, altered or foreign image, or a record
//! written behind the journal's back, is read past (with a warning for the image) and rebuilt, and a large
//! journal is applied, then folded into a fresh image, as a large write is without waiting for an open; `clear()` removes the image and no image of before it is written; a version 6 database upgrades
//! in place and its first open reads every record. Each test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use std::collections::HashSet;

use browser_support::*;
use memwasm::core::config::IndexedDbSettings;
use memwasm::core::model::types::StoredMemory;
use memwasm::core::storage::{Changeset, Storage};
use memwasm::platform::indexeddb::placement::{Placed, Placement};
use memwasm::platform::indexeddb::IndexedDbStorage;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage(db: &str) -> IndexedDbStorage {
    IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false })
}

/// Memory `n`, created at second `n / 3` (three memories per timestamp, so `order` breaks ties), with an
/// 8-d vector `k` unless `k` is `None`.
fn memory(n: usize, k: Option<usize>) -> StoredMemory {
    let created_at = format!("2025-01-01T00:{:02}:{:02}.000Z", n / 3 / 60, n / 3 % 60);
    alices_memory(n, created_at, k.map(|k| (0..8).map(|j| ((k * 31 + j * 7) % 17) as f32 - 8.0).collect()))
}

async fn commit(storage: &IndexedDbStorage, upserts: Vec<StoredMemory>, deletes: &[&str]) {
    let deletes = deletes.iter().map(|id| id.to_string()).collect();
    storage.commit(&Changeset { upserts, deletes, ..Changeset::default() }).await.expect("committed");
}

/// `[image seq or null, counter]` of the database, read without the library.
async fn image_state(db: &str) -> Value {
    let open = open_current_js(db);
    json_of(
        run_js(&format!(
            "{open}
             const get = (key) => new Promise((ok, no) => {{ const r = db.transaction('image').objectStore('image').get(key); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
             const [image, changes] = [await get('memories'), await get('changes')];
             db.close();
             return [image ? image.seq : null, changes ?? null];"
        ))
        .await,
    )
}

/// The image's seq once one is stored that covers change `seq` (at most 5 s).
async fn image_written(db: &str, seq: u64) -> u64 {
    let written = eventually(5.0, || async { image_state(db).await[0].as_u64().is_some_and(|state| state >= seq) });
    assert!(written.await, "an image covering change {seq} was written: {}", image_state(db).await);
    image_state(db).await[0].as_u64().unwrap_or(0)
}

/// A fresh database `db` of `n` memories with vectors, opened once: the seq of the image that open wrote.
async fn imaged(db: &str, n: usize) -> u64 {
    delete_database(db).await;
    commit(&storage(db), (0..n).map(|n| memory(n, Some(n))).collect(), &[]).await;
    storage(db).load_memories().await.unwrap();
    image_written(db, last_change(db).await).await
}

/// The last change number.
async fn last_change(db: &str) -> u64 {
    image_state(db).await[1]["last"].as_u64().expect("a change counter")
}

/// Runs `body` on the stored image record `record` (JS) and stores what it leaves in `record`.
async fn alter_image(db: &str, body: &str) {
    let open = open_current_js(db);
    run_js(&format!(
        "{open}
         const store = () => db.transaction('image', 'readwrite').objectStore('image');
         const record = await new Promise((ok, no) => {{ const r = store().get('memories'); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         {body}
         await new Promise((ok, no) => {{ const r = store().put(record, 'memories'); r.onsuccess = ok; r.onerror = () => no(r.error); }});
         db.close();"
    ))
    .await;
}

/// What reading every record gives: a fresh instance's load once the image is removed.
async fn every_record(db: &str) -> Vec<StoredMemory> {
    alter_image(db, "record.seq = -1; record.bytes = new Uint8Array(0);").await;
    let memories = without_warnings(storage(db).load_memories()).await.0.expect("loads");
    memories
}

/// Runs `load`, collecting the console warnings it prints.
async fn without_warnings<T>(load: impl std::future::Future<Output = T>) -> (T, String) {
    run_js("globalThis.warnings = []; globalThis.realWarn = console.warn; console.warn = (...a) => warnings.push(a.join(' '));").await;
    let value = load.await;
    let warnings = run_js("console.warn = globalThis.realWarn; return warnings.join('\\n');").await;
    (value, warnings.as_string().unwrap_or_default())
}

/// Every vector row's id in the `vectors` store.
async fn vector_rows(db: &str) -> Vec<String> {
    let open = open_current_js(db);
    let raw = run_js(&format!(
        "{open}
         const all = await new Promise((ok, no) => {{ const r = db.transaction('vectors').objectStore('vectors').getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         db.close();
         return all.flatMap((c) => JSON.parse(c.ids));"
    ))
    .await;
    serde_json::from_value(json_of(raw)).expect("ids")
}

#[wasm_bindgen_test]
async fn image_and_journal_give_the_records_after_updates_deletes_re_adds_and_another_tabs_writes() {
    let db = "image-journal";
    delete_database(db).await;
    let first = storage(db);
    commit(&first, (0..60).map(|n| memory(n, (n % 10 != 4).then_some(n))).collect(), &[]).await;
    assert_eq!(first.load_memories().await.unwrap().len(), 60);
    image_written(db, last_change(db).await).await;

    // This tab and another write on: a vector changed, a text changed, an update that moves memory 2 before
    // memory 1 (same createdAt, its `order` now 0), deletes, a re-add, new memories.
    let other = storage(db);
    let mut moved = memory(5, Some(500));
    moved.item.memory = "a new text, a new vector".into();
    let mut retold = memory(9, Some(9));
    retold.item.memory = "a new text".into();
    commit(&first, vec![moved, retold], &["m020", "m021"]).await;
    commit(&other, vec![memory(2, Some(2)), memory(60, Some(60)), memory(61, None)], &["m030"]).await;
    commit(&first, vec![memory(20, Some(2000)), memory(62, Some(62))], &["m040", "m061"]).await;
    let image_seq = image_state(db).await[0].as_u64().unwrap();
    assert!(last_change(db).await > image_seq, "the writes came after the image");

    let (from_image, warnings) = without_warnings(storage(db).load_memories()).await;
    let from_image = from_image.unwrap();
    assert_eq!(warnings, "", "the image is used without a warning");
    let ids: Vec<&str> = from_image.iter().take(4).map(|m| m.item.id.as_str()).collect();
    // Memory 2 (its `order` now 0) goes before memory 1 at second 0, memory 5 before memory 3 at second 1.
    assert_eq!(ids, ["m000", "m002", "m001", "m005"], "the updates moved memories as reading every record does");
    sleep(800).await;
    assert_eq!(image_state(db).await[0].as_u64(), Some(image_seq), "no full read: no fresh image was written");
    assert_eq!(from_image, every_record(db).await, "the same memories, vectors and order as every record gives");
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn an_instance_opened_from_the_image_keeps_one_vector_row_per_memory() {
    let db = "image-hints";
    imaged(db, 30).await;

    let writer = storage(db);
    writer.load_memories().await.unwrap();
    commit(&writer, vec![memory(3, Some(300)), memory(4, None)], &["m005", "m006"]).await;
    let rows = vector_rows(db).await;
    let distinct: HashSet<&String> = rows.iter().collect();
    assert_eq!(rows.len(), distinct.len(), "no id twice: {rows:?}");
    for gone in ["m004", "m005", "m006"] {
        assert!(!distinct.contains(&gone.to_string()), "{gone} has no vector row left: {rows:?}");
    }
    assert_eq!(rows.len(), 27);
    let loaded = storage(db).load_memories().await.unwrap();
    assert_eq!(loaded.iter().find(|m| m.item.id == "m003").unwrap().embedding, memory(3, Some(300)).embedding);
    delete_database(db).await;
}

/// Starts counting `put`s into the `vectors` store (the chunk writes of commits) from zero.
async fn count_vector_puts() {
    run_js(
        "if (!globalThis.vectorPuts) {
           const put = IDBObjectStore.prototype.put;
           globalThis.vectorPuts = { count: 0 };
           IDBObjectStore.prototype.put = function (...args) {
             if (this.name === 'vectors') globalThis.vectorPuts.count += 1;
             return put.apply(this, args);
           };
         }
         globalThis.vectorPuts.count = 0;",
    )
    .await;
}

async fn vector_puts() -> f64 {
    run_js("return globalThis.vectorPuts.count;").await.as_f64().unwrap_or(-1.0)
}

#[wasm_bindgen_test]
async fn an_open_from_the_image_knows_each_vectors_fingerprint_so_a_new_text_rewrites_no_chunk() {
    let db = "image-prints";
    imaged(db, 30).await;

    let writer = storage(db);
    let (_, warnings) = without_warnings(writer.load_memories()).await;
    assert_eq!(warnings, "", "opened from the image");
    count_vector_puts().await;
    let mut retold = memory(7, Some(7));
    retold.item.memory = "a new text, the same vector".into();
    commit(&writer, vec![retold.clone()], &[]).await;
    assert_eq!(vector_puts().await, 0.0, "the vector is unchanged: its chunk is neither read nor written");
    commit(&writer, vec![memory(8, Some(800))], &[]).await;
    assert_eq!(vector_puts().await, 1.0, "a new vector rewrites its chunk, once");

    let loaded = storage(db).load_memories().await.unwrap();
    let find = |id: &str| loaded.iter().find(|m| m.item.id == id).unwrap().clone();
    assert_eq!(find("m007").item.memory, retold.item.memory);
    assert_eq!(find("m007").embedding, memory(7, Some(7)).embedding);
    assert_eq!(find("m008").embedding, memory(8, Some(800)).embedding);
    assert_eq!(vector_rows(db).await.len(), 30, "one row per vector");
    delete_database(db).await;
}

#[wasm_bindgen_test]
fn the_places_an_open_notes_go_into_the_map_before_later_changes_and_the_queue_stays_bounded() {
    let at = |chunk: u32| Placed { chunk, print: u64::from(chunk) * 7 };
    let mut placement = Placement::default();
    placement.note((0..3).map(|n| (format!("m{n}"), at(n))));
    placement.insert("m1".into(), at(9));
    placement.remove("m2");
    assert_eq!(placement.queued(), 5, "nothing is hashed before the first lookup");
    assert_eq!(placement.get("m0"), Some(at(0)));
    assert_eq!(placement.get("m1"), Some(at(9)), "a later change wins over the open's place");
    assert_eq!(placement.get("m2"), None, "and so does a later removal");
    assert_eq!(placement.queued(), 0);

    // A page that never commits while another tab writes: changes queue up to twice the open's places
    // (at least 1,024 each way), then go into the map.
    let mut placement = Placement::default();
    placement.note([("a".to_string(), at(1))]);
    for n in 0..5_000 {
        placement.insert(format!("x{n}"), at(2));
        assert!(placement.queued() <= 2 * 1024, "{} changes queued", placement.queued());
    }
    assert_eq!(placement.get("a"), Some(at(1)));
    assert_eq!(placement.get("x4999"), Some(at(2)));
}

#[wasm_bindgen_test]
async fn a_torn_altered_or_foreign_image_is_read_past_with_a_warning_and_rebuilt() {
    let db = "image-broken";
    let cases = [
        ("record.bytes = record.bytes.slice(0, record.bytes.length - 5);", "cut short"),
        ("record.bytes[record.bytes.length - 40] ^= 1;", "torn or altered"),
        ("record.bytes[0] = 0x21;", "not a memwasm image"),
        ("record.bytes[4] = 0x7f;", "in format 127"),
        ("record.bytes[12] = 0x39;", "written by memwasm 9"),
        ("record.orders = new Float64Array(3);", "do not match its records"),
    ];
    for (alteration, reason) in cases {
        let seq = imaged(db, 12).await;
        let expected = storage(db).load_memories().await.unwrap();
        commit(&storage(db), vec![memory(3, Some(33))], &["m004"]).await;
        alter_image(db, alteration).await;

        let (loaded, warnings) = without_warnings(storage(db).load_memories()).await;
        let loaded = loaded.unwrap();
        assert!(warnings.contains("open image is not used") && warnings.contains(reason), "{alteration}: {warnings}");
        assert_eq!(loaded.len(), expected.len() - 1, "{alteration}: every record read");
        assert!(loaded.iter().any(|m| m.item.id == "m003" && m.embedding == memory(3, Some(33)).embedding));
        assert!(image_written(db, seq + 1).await > seq, "{alteration}: a fresh image is written");
        let (again, warnings) = without_warnings(storage(db).load_memories()).await;
        assert_eq!(warnings, "", "{alteration}: the fresh image is used");
        assert_eq!(again.unwrap(), loaded);
    }
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_large_journal_is_applied_and_rewritten_and_a_record_written_behind_its_back_reads_every_record() {
    let db = "image-journal-large";
    let seq = imaged(db, 10).await;
    commit(&storage(db), (10..300).map(|n| memory(n, Some(n))).collect(), &[]).await;
    assert_eq!(storage(db).load_memories().await.unwrap().len(), 300);
    let seq = image_written(db, seq + 1).await;

    // A record put by something else: no change number, in no journal; the count disagrees.
    let open = open_current_js(db);
    run_js(&format!(
        "{open}
         await new Promise((ok, no) => {{ const t = db.transaction('memories', 'readwrite');
           t.objectStore('memories').put({{id: 'zz-outside', memory: 'written by hand', hash: 'x', createdAt: '2030-01-01T00:00:00.000Z',
             updatedAt: '2030-01-01T00:00:00.000Z', userId: 'alice', order: 0}});
           t.oncomplete = ok; t.onerror = () => no(t.error); }});
         db.close();"
    ))
    .await;
    let loaded = storage(db).load_memories().await.unwrap();
    assert_eq!(loaded.len(), 301);
    assert_eq!(loaded.last().unwrap().item.id, "zz-outside");
    assert_eq!(loaded, every_record(db).await);
    let _ = seq;
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_write_larger_than_a_journal_may_grow_writes_a_fresh_image_without_waiting_for_an_open() {
    let db = "image-after-bulk";
    let seq = imaged(db, 10).await;
    let writer = storage(db);
    assert_eq!(writer.load_memories().await.unwrap().len(), 10);
    commit(&writer, (10..20).map(|n| memory(n, Some(n))).collect(), &[]).await;
    sleep(800).await;
    assert_eq!(image_state(db).await[0].as_u64(), Some(seq), "a small write leaves the image as it is");

    // An import-sized write (more than 256 memories): the image is rewritten soon after it, not at the next open.
    commit(&writer, (20..300).map(|n| memory(n, Some(n))).collect(), &[]).await;
    let imported = image_written(db, last_change(db).await).await;
    assert!(imported > seq, "a fresh image covers the write");
    let doomed: Vec<String> = (10..290).map(|n| format!("m{n:03}")).collect();
    let doomed: Vec<&str> = doomed.iter().map(String::as_str).collect();
    commit(&writer, Vec::new(), &doomed).await;
    let deleted = image_written(db, last_change(db).await).await;
    assert!(deleted > imported, "so is a large delete");

    let (loaded, warnings) = without_warnings(storage(db).load_memories()).await;
    let loaded = loaded.unwrap();
    assert_eq!(warnings, "");
    assert_eq!(loaded.len(), 20);
    assert_eq!(loaded, every_record(db).await);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_write_within_the_journal_of_a_store_grown_by_an_import_leaves_the_image_as_it_is() {
    let db = "image-after-bulk-grown";
    delete_database(db).await;
    let writer = storage(db);
    assert!(writer.load_memories().await.unwrap().is_empty());
    commit(&writer, (0..6000).map(|n| memory(n, Some(n))).collect(), &[]).await;
    let imported = image_written(db, last_change(db).await).await;
    // 300 changes are within the journal of an image of 6,000 memories (375): no fresh image for them.
    commit(&writer, (6000..6300).map(|n| memory(n, Some(n))).collect(), &[]).await;
    sleep(1500).await;
    assert_eq!(image_state(db).await[0].as_u64(), Some(imported), "the write counts against 6,000 memories, not 0");
    let (loaded, warnings) = without_warnings(storage(db).load_memories()).await;
    assert_eq!(warnings, "");
    assert_eq!(loaded.unwrap().len(), 6300);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn clear_removes_the_image_and_no_image_of_before_it_is_written() {
    let db = "image-clear";
    delete_database(db).await;
    commit(&storage(db), (0..10).map(|n| memory(n, Some(n))).collect(), &[]).await;
    let memory_store = storage(db);
    memory_store.load_memories().await.unwrap(); // a full read: an image is written in half a second
    memory_store.clear().await.unwrap();
    commit(&memory_store, vec![memory(50, Some(50))], &[]).await;
    sleep(800).await;
    let state = image_state(db).await;
    let cleared = state[1]["cleared"].as_u64().expect("the clear is noted");
    assert!(state[0].is_null() || state[0].as_u64() >= Some(cleared), "no image of before the clear: {state}");
    let loaded = storage(db).load_memories().await.unwrap();
    assert_eq!(loaded.iter().map(|m| m.item.id.as_str()).collect::<Vec<_>>(), ["m050"]);
    image_written(db, last_change(db).await).await;
    memory_store.clear().await.unwrap();
    assert_eq!(image_state(db).await[0], Value::Null, "clear() removes the stored image");
    assert!(storage(db).load_memories().await.unwrap().is_empty());
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_version_6_database_upgrades_and_its_first_open_reads_every_record() {
    let db = "image-v6";
    delete_database(db).await;
    run_js(&format!(
        "const db = await new Promise((ok, no) => {{
           const r = indexedDB.open('{db}', 6);
           r.onupgradeneeded = () => {{
             r.result.createObjectStore('memories', {{keyPath: 'id'}}).createIndex('key', 'key');
             const h = r.result.createObjectStore('history', {{keyPath: 'seq', autoIncrement: true}});
             h.createIndex('memoryIds', 'memoryIds', {{multiEntry: true}}); h.createIndex('ids', 'ids', {{multiEntry: true, unique: true}});
             r.result.createObjectStore('graph'); r.result.createObjectStore('side');
             r.result.createObjectStore('vectors', {{keyPath: 'chunk'}});
           }};
           r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         await new Promise((ok, no) => {{
           const t = db.transaction(['memories', 'vectors'], 'readwrite');
           const ids = [];
           for (let k = 0; k < 5; k++) {{
             t.objectStore('memories').put({{id: 'v6-' + k, memory: 'memory ' + k, hash: 'h' + k, createdAt: '2025-01-01T00:00:00.000Z',
               updatedAt: '2025-01-01T00:00:00.000Z', userId: 'alice', order: k, chunk: 0}});
             ids.push('v6-' + k);
           }}
           t.objectStore('vectors').put({{chunk: 0, dim: 2, ids: JSON.stringify(ids), vectors: Float32Array.from([1, 0, 0, 1, 1, 1, 2, 0, 0, 2])}});
           t.oncomplete = ok; t.onerror = () => no(t.error); }});
         db.close();"
    ))
    .await;
    let first = storage(db).load_memories().await.unwrap();
    let ids: Vec<&str> = first.iter().map(|m| m.item.id.as_str()).collect();
    assert_eq!(ids, ["v6-0", "v6-1", "v6-2", "v6-3", "v6-4"]);
    assert_eq!(first[3].embedding, Some(vec![2.0, 0.0]));
    let state = image_state(db).await;
    assert_eq!(state[0], Value::Null, "no image before the first open wrote one: {state}");
    image_written(db, 0).await;
    let writer = storage(db);
    let (again, warnings) = without_warnings(writer.load_memories()).await;
    assert_eq!((again.unwrap(), warnings), (first, String::new()), "the next open reads the image");
    commit(&writer, vec![], &["v6-1"]).await;
    let layout = json_of(
        run_js(&format!(
            "{} const found = [db.version, [...db.objectStoreNames]]; db.close(); return found;",
            open_current_js(db)
        ))
        .await,
    );
    assert_eq!(layout, json!([9, ["gone", "graph", "history", "image", "memories", "packs", "side", "vectors"]]));
    assert_eq!(storage(db).load_memories().await.unwrap().len(), 4);
    delete_database(db).await;
}
