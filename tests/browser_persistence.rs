//! IndexedDB storage through the JS `Memory` API in headless Chromium: what one instance writes, a later
//! instance on the same database reads back exactly (memories, scores, history, deletions), export/import,
//! config errors, persistence opt-in and a database from a newer version. Each test deletes its database
//! first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use browser_support::*;
use memwasm::Memory;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn memories_and_search_scores_survive_reopening() {
    let db = "persist-scores";
    delete_database(db).await;
    let first = open(db).await;
    for text in ["likes green tea", "works at Acme as a data scientist", "has a dog named Rex", "drinks tea at noon"] {
        remember(&first, text, "alice").await;
    }
    remember(&first, "plays chess on Sundays", "bob").await;
    let items = all_of(&first, "alice").await;
    let found = scores(&first, "green tea", "alice").await;
    assert_eq!(items.len(), 4);
    assert!(found[0].1 > found[1].1, "distinct scores: {found:?}");
    drop(first);

    let second = open(db).await;
    assert_eq!(all_of(&second, "alice").await, items, "same items, oldest first, same metadata and timestamps");
    assert_eq!(scores(&second, "green tea", "alice").await, found, "same results, same scores");
    assert_eq!(all_of(&second, "bob").await.len(), 1);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn history_survives_reopening() {
    let db = "persist-history";
    delete_database(db).await;
    let first = open(db).await;
    let id = remember(&first, "lives in Paris", "alice").await;
    ok(first.update(js(&id), js(&"lives in Berlin"))).await;
    ok(first.delete_memory(js(&id), JsValue::UNDEFINED)).await;
    let trail = ok(first.history(js(&id))).await;
    drop(first);

    let second = open(db).await;
    let reread = ok(second.history(js(&id))).await;
    assert_eq!(reread, trail);
    let events: Vec<&str> = reread.as_array().unwrap().iter().map(|r| r["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["ADD", "UPDATE", "DELETE"]);
    assert_eq!(reread[1]["oldValue"], "lives in Paris");
    assert_eq!(reread[1]["newValue"], "lives in Berlin");
    assert_eq!(ok(second.get(js(&id))).await, Value::Null, "the deletion persisted");
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn delete_delete_all_and_reset_persist() {
    let db = "persist-deletes";
    delete_database(db).await;
    let memory = open(db).await;
    let doomed = remember(&memory, "likes tea", "alice").await;
    remember(&memory, "likes coffee", "alice").await;
    let bobs = remember(&memory, "plays chess", "bob").await;
    remember(&memory, "plays go", "bob").await;
    ok(memory.delete_memory(js(&doomed), JsValue::UNDEFINED)).await;
    drop(memory);

    let memory = open(db).await;
    let alice: Vec<Value> = all_of(&memory, "alice").await.iter().map(|m| m["memory"].clone()).collect();
    assert_eq!(alice, [json!("likes coffee")]);
    ok(memory.delete_all(js(&json!({"userId": "bob"})))).await;
    drop(memory);

    let memory = open(db).await;
    assert!(all_of(&memory, "bob").await.is_empty());
    assert_eq!(all_of(&memory, "alice").await.len(), 1);
    let events = ok(memory.history(js(&bobs))).await;
    assert_eq!(events[1]["event"], "DELETE", "deleteAll recorded a DELETE: {events}");
    ok(memory.reset()).await;
    drop(memory);

    let memory = open(db).await;
    assert!(all_of(&memory, "alice").await.is_empty());
    assert_eq!(ok(memory.history(js(&bobs))).await, json!([]), "reset removed the history too");
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn export_reset_import_round_trip_is_exact() {
    let db = "persist-transfer";
    delete_database(db).await;
    let memory = open(db).await;
    let options = json!({"userId": "alice", "metadata": {"topic": "food", "rank": 3, "score": 0.25, "tags": ["x"]}});
    let tea = ok(memory.add(js(&"likes green tea"), js(&options))).await["results"][0]["id"].clone();
    let job = remember(&memory, "works at Acme", "alice").await;
    let gone = remember(&memory, "owns a bike", "alice").await;
    remember(&memory, "plays chess", "bob").await;
    ok(memory.update(js(&job), js(&"works at BigTech"))).await;
    ok(memory.delete_memory(js(&gone), JsValue::UNDEFINED)).await;

    let everything = ok(memory.export_memories(js(&json!({})))).await.as_str().unwrap().to_owned();
    let alice_only = ok(memory.export_memories(js(&json!({"userId": "alice"})))).await;
    let why = "header, 3 memories, 6 history records, the 4 adds' sources";
    assert_eq!(everything.lines().count(), 1 + 3 + 6 + 4, "{why}:\n{everything}");
    assert_eq!(alice_only.as_str().unwrap().lines().count(), 1 + 2 + 5 + 3, "the deleted memory's sources too");
    assert!(everything.lines().nth(1).unwrap().contains(r#""embedding":""#), "embeddings are exported");
    let before = (all_of(&memory, "alice").await, scores(&memory, "green tea", "alice").await);
    let trail = ok(memory.history(js(&gone))).await;
    let sourced = ok(memory.sources(js(&tea))).await;
    assert_eq!(sourced[0]["excerpt"], "likes green tea");

    ok(memory.reset()).await;
    assert!(all_of(&memory, "alice").await.is_empty());
    let imported = ok(memory.import_memories(js(&everything), JsValue::UNDEFINED)).await;
    assert_eq!(imported, json!({"memories": 3, "history": 6}));
    assert_eq!((all_of(&memory, "alice").await, scores(&memory, "green tea", "alice").await), before);
    drop(memory);

    let memory = open(db).await;
    assert_eq!((all_of(&memory, "alice").await, scores(&memory, "green tea", "alice").await), before, "after reload");
    assert_eq!(ok(memory.history(js(&gone))).await, trail, "the history of a deleted memory came back");
    assert_eq!(ok(memory.sources(js(&tea))).await, sourced, "the sources came back");
    assert_eq!(
        ok(memory.get(js(&tea))).await["metadata"],
        json!({"topic": "food", "rank": 3, "score": 0.25, "tags": ["x"], "role": "user"})
    );
    assert_eq!(ok(memory.export_memories(js(&json!({})))).await, json!(everything), "export → import → export");
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_bad_import_line_is_a_typed_error_and_writes_nothing() {
    let db = "persist-bad-import";
    delete_database(db).await;
    let memory = open(db).await;
    remember(&memory, "likes tea", "alice").await;
    remember(&memory, "likes jazz", "alice").await;
    let export = ok(memory.export_memories(js(&json!({})))).await.as_str().unwrap().to_owned();
    ok(memory.reset()).await;

    let mut lines: Vec<&str> = export.lines().collect();
    lines[2] = r#"{"kind":"memory","id":"x"}"#;
    let (code, message) = fails(memory.import_memories(js(&lines.join("\n")), JsValue::UNDEFINED)).await;
    assert_eq!(code, "INVALID_INPUT");
    assert!(message.contains("import line 3"), "{message}");
    let (code, _) = fails(memory.import_memories(js(&42), JsValue::UNDEFINED)).await;
    assert_eq!(code, "INVALID_INPUT");
    drop(memory);

    let memory = open(db).await;
    assert!(all_of(&memory, "alice").await.is_empty(), "not even the good first line was imported");
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn config_errors_name_the_field() {
    let mut config = config("persist-config");
    config["storage"]["config"] = json!({"dbname": "typo"});
    let (code, message) = open_with(config.clone()).await.err().unwrap();
    assert_eq!(code, "INVALID_CONFIG");
    assert!(message.contains("storage.config") && message.contains("dbname"), "{message}");
    config["storage"]["config"] = json!({});
    let (_, message) = open_with(config.clone()).await.err().unwrap();
    assert!(message.contains("storage.config.dbName: required"), "{message}");
    config["storage"]["provider"] = json!("indexdb");
    let (_, message) = open_with(config).await.err().unwrap();
    assert!(message.contains("indexeddb"), "the supported providers are listed: {message}");

    let error =
        Memory::new(js(&browser_support::config("persist-config"))).err().expect("a constructor cannot open it");
    assert_eq!(coded(error).0, "INVALID_CONFIG");
}

#[wasm_bindgen_test]
async fn missing_indexeddb_is_storage_unavailable() {
    delete_database("persist-unavailable").await;
    shadow_indexeddb("undefined").await;
    let refused = open_with(config("persist-unavailable")).await.err();
    restore_indexeddb().await;
    let (code, message) = refused.expect("no IndexedDB, no memory");
    assert_eq!(code, "STORAGE_UNAVAILABLE");
    assert!(message.contains("IndexedDB is not available"), "{message}");
    open("persist-unavailable").await;
    delete_database("persist-unavailable").await;
}

#[wasm_bindgen_test]
async fn persist_true_asks_the_browser_once() {
    let db = "persist-opt-in";
    delete_database(db).await;
    run_js(
        "globalThis.persistCalls = 0; const real = navigator.storage.persist.bind(navigator.storage);
         navigator.storage.persist = () => { globalThis.persistCalls++; return real(); };",
    )
    .await;
    open(db).await;
    let without = run_js("return globalThis.persistCalls;").await.as_f64();
    let mut config = config(db);
    config["storage"]["config"]["persist"] = json!(true);
    let memory = open_with(config).await.expect("opens");
    remember(&memory, "likes tea", "alice").await;
    let with = run_js("const n = globalThis.persistCalls; delete navigator.storage.persist; return n;").await.as_f64();
    assert_eq!((without, with), (Some(0.0), Some(1.0)));
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_database_from_a_newer_version_is_refused_clearly() {
    let db = "persist-newer";
    delete_database(db).await;
    let factory = idb::Factory::new().unwrap();
    let newer = factory.open(db, Some(memwasm::platform::indexeddb::SCHEMA_VERSION + 1)).unwrap().await.unwrap();
    newer.close();
    let (code, message) = open_with(config(db)).await.err().expect("refused");
    assert_eq!(code, "STORAGE");
    assert!(message.contains("newer memwasm"), "{message}");
    delete_database(db).await;
}
