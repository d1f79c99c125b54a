//! All-or-nothing writes and bad data, in headless Chromium against real IndexedDB: a transaction that
//! aborts (a real quota error; a record the storage refuses half-way) leaves neither the database nor the
//! in-memory index with part of the write; corrupt records are skipped with a warning, never a panic.
//! Each test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use std::cell::Cell;
use std::rc::Rc;

use browser_support::*;
use js_sys::{Reflect, Uint8Array};
use memwasm::core::config::{IndexedDbSettings, Prompts};
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::storage::Storage;
use memwasm::core::testing::{Letters, NoLlm, Sabotaged};
use memwasm::platform::indexeddb::{error_from_dom_exception, open_database, IndexedDbStorage, MEMORIES_STORE};
use memwasm::MemoryEngine;
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage(db: &str) -> IndexedDbStorage {
    IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false })
}

type Engine = MemoryEngine<NoLlm, Letters, Sabotaged<IndexedDbStorage>>;

/// An engine over IndexedDB storage that, once armed, has a put of each commit refused half-way (see
/// `Sabotaged`), and the switch that arms it.
async fn engine(db: &str) -> (Engine, Rc<Cell<bool>>) {
    let armed = Rc::new(Cell::new(false));
    let sabotaged = Sabotaged { inner: storage(db), armed: armed.clone() };
    (MemoryEngine::open(NoLlm, Letters::new(26), sabotaged, Prompts::default()).await.expect("opens"), armed)
}

fn alices() -> Read {
    Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, DEFAULT_LIMIT)
}

async fn texts(engine: &Engine) -> Vec<String> {
    engine.get_all(&alices()).await.unwrap().results.into_iter().map(|item| item.memory).collect()
}

async fn stored_texts(db: &str) -> Vec<String> {
    storage(db).load_memories().await.unwrap().into_iter().map(|m| m.item.memory).collect()
}

#[wasm_bindgen_test]
async fn a_put_refused_half_way_aborts_the_whole_write() {
    let db = "atomic-refused-put";
    delete_database(db).await;
    let (engine, armed) = engine(db).await;
    let alice = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    engine.add(&json!("likes tea"), &alice).await.unwrap();
    let tea = engine.get_all(&alices()).await.unwrap().results[0].id.clone();

    armed.set(true);
    let three = json!([{"role": "user", "content": "owns a cat"}, {"role": "user", "content": "owns a dog"}, {"role": "user", "content": "likes jazz"}]);
    let error = engine.add(&three, &alice).await.unwrap_err();
    assert_eq!(error.code(), "STORAGE");
    assert!(error.to_string().contains("cannot encode a record"), "{error}");
    let error = engine.update(&tea, "likes green tea").await.unwrap_err();
    assert_eq!(error.code(), "STORAGE");
    engine.delete(&tea, false).await.unwrap_err();
    engine.delete_all(&alices()).await.unwrap_err();

    assert_eq!(texts(&engine).await, ["likes tea"], "the index kept nothing of the failed writes");
    assert_eq!(stored_texts(db).await, ["likes tea"], "the database kept nothing of them either");
    let history = storage(db).all_history().await.unwrap().unwrap();
    assert_eq!(history.len(), 1, "only the first ADD: {history:?}");

    armed.set(false);
    engine.add(&three, &alice).await.unwrap();
    assert_eq!(stored_texts(db).await.len(), 4, "the same write goes through once nothing refuses it");
    delete_database(db).await;
}

/// A Storage Bucket's `indexedDB`, with a quota small enough for writes to fail with a real QuotaExceededError.
const TINY_BUCKET: &str = "navigator.storageBuckets.delete('memwasm-tiny')
    .then(() => navigator.storageBuckets.open('memwasm-tiny', { quota: 200000 }))
    .then((bucket) => bucket.indexedDB)";

#[wasm_bindgen_test]
async fn a_full_quota_is_storage_quota_and_keeps_nothing() {
    shadow_indexeddb(TINY_BUCKET).await;
    let db = "atomic-quota";
    let memory = open(db).await;
    let tea = remember(&memory, "likes tea", "alice").await;
    let huge = json!({"userId": "alice", "metadata": {"blob": noise(400_000)}});
    let three = json!([{"role": "user", "content": "owns a cat"}, {"role": "user", "content": "owns a dog"}]);
    let refused = fails(memory.add(js(&three), js(&huge))).await;
    let refused_update = fails(memory.update(js(&tea), js(&noise(400_000)))).await;
    let after = (all_of(&memory, "alice").await, ok(memory.history(js(&tea))).await);
    drop(memory);
    let reopened = open(db).await;
    let reread = (all_of(&reopened, "alice").await, ok(reopened.history(js(&tea))).await);
    drop(reopened);
    restore_indexeddb().await;
    run_js("await navigator.storageBuckets.delete('memwasm-tiny');").await;

    assert_eq!(refused.0, "STORAGE_QUOTA", "{}", refused.1);
    assert!(refused.1.contains("QuotaExceededError"), "{}", refused.1);
    assert_eq!(refused_update.0, "STORAGE_QUOTA");
    let texts: Vec<&str> = after.0.iter().map(|m| m["memory"].as_str().unwrap()).collect();
    assert_eq!(texts, ["likes tea"], "the index has neither the added memories nor the new text");
    assert_eq!(after.1.as_array().unwrap().len(), 1, "only the ADD");
    assert_eq!(reread, after, "the database kept nothing of the refused writes");
}

#[wasm_bindgen_test]
fn browser_errors_map_to_stable_codes() {
    let dom = |name: &str| web_sys::DomException::new_with_message_and_name("test", name).unwrap();
    assert_eq!(error_from_dom_exception(&dom("QuotaExceededError"), "x").code(), "STORAGE_QUOTA");
    assert_eq!(error_from_dom_exception(&dom("InvalidStateError"), "x").code(), "STORAGE_UNAVAILABLE");
    assert_eq!(error_from_dom_exception(&dom("ConstraintError"), "x").code(), "STORAGE");
}

#[wasm_bindgen_test]
async fn corrupt_records_are_skipped_with_a_warning_and_left_in_place() {
    let db = "atomic-corrupt";
    delete_database(db).await;
    let memory = open(db).await;
    let good = remember(&memory, "likes tea", "alice").await;
    drop(memory);

    let database = open_database(db).await.unwrap();
    let transaction = database.transaction(&[MEMORIES_STORE, "history"], idb::TransactionMode::ReadWrite).unwrap();
    let memories = transaction.object_store(MEMORIES_STORE).unwrap();
    let history = transaction.object_store("history").unwrap();
    memories.put(&js(&json!({"id": "not-text", "memory": 5, "userId": "alice"})), None).unwrap();
    let ragged = js(
        &json!({"id": "ragged", "memory": "x", "hash": "h", "metadata": {}, "createdAt": "2024-01-01T00:00:00.000Z",
        "updatedAt": "2024-01-01T00:00:00.000Z", "userId": "alice"}),
    );
    Reflect::set(&ragged, &"embedding".into(), &Uint8Array::new_with_length(3)).unwrap();
    memories.put(&ragged, None).unwrap();
    // A value JSON has no text for (a BigInt): the batch's JSON.stringify throws, and so does the record's.
    let big = js(&json!({"id": "big", "hash": "h", "userId": "alice"}));
    Reflect::set(&big, &"memory".into(), &js_sys::BigInt::from(5).into()).unwrap();
    memories.put(&big, None).unwrap();
    // A batch of history entries (schema 6) holding one entry that does not decode.
    let entries = json!([{"id": "h-bad", "memoryId": good, "event": "EXPLODE"}]).to_string();
    history.add(&js(&json!({"memoryIds": [good], "ids": ["h-bad"], "records": entries})), None).unwrap();
    transaction.await.unwrap();
    database.close();

    run_js("globalThis.warnings = []; globalThis.realWarn = console.warn; console.warn = (...a) => warnings.push(a.join(' '));").await;
    let memory = open_with(config(db)).await;
    let reads = match &memory {
        Ok(memory) => Some((all_of(memory, "alice").await, ok(memory.history(js(&good))).await)),
        Err(_) => None,
    };
    let warnings =
        run_js("console.warn = globalThis.realWarn; return warnings.join('\\n');").await.as_string().unwrap();

    let (items, trail) = reads.expect("the memory opens despite corrupt records");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["id"], json!(good));
    assert_eq!(trail.as_array().unwrap().len(), 1, "the corrupt history record is skipped");
    for id in ["\"not-text\"", "\"ragged\"", "\"big\"", "\"h-bad\""] {
        assert!(warnings.contains(id), "a warning names {id}: {warnings}");
    }
    assert_eq!(
        open_database(db)
            .await
            .unwrap()
            .transaction(&[MEMORIES_STORE], idb::TransactionMode::ReadOnly)
            .unwrap()
            .object_store(MEMORIES_STORE)
            .unwrap()
            .count(None)
            .unwrap()
            .await
            .unwrap(),
        4,
        "corrupt records stay stored (nothing is deleted behind the user's back)"
    );
    delete_database(db).await;
}
