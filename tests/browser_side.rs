//! Side records in IndexedDB (schema version 4, the `side` store), in headless Chromium: they persist across
//! a reopen, one kind at a time, a write that aborts keeps none of them, and `reset` clears them. Each test
//! deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use std::cell::Cell;
use std::rc::Rc;

use browser_support::*;
use memwasm::core::config::{IndexedDbSettings, Prompts};
use memwasm::core::identity::content_hash;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use memwasm::core::side_records::SideWrite;
use memwasm::core::storage::{Changeset, Storage};
use memwasm::core::testing::{Letters, NoLlm, Sabotaged};
use memwasm::platform::indexeddb::IndexedDbStorage;
use memwasm::MemoryEngine;
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage(db: &str) -> IndexedDbStorage {
    IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false })
}

async fn engine(db: &str) -> MemoryEngine<NoLlm, Letters, IndexedDbStorage> {
    MemoryEngine::open(NoLlm, Letters::new(26), storage(db), Prompts::default()).await.expect("opens")
}

#[wasm_bindgen_test]
async fn side_records_persist_by_kind_and_reset_clears_them() {
    let db = "side-persist";
    delete_database(db).await;
    let first = engine(db).await;
    let writes = vec![
        SideWrite::put("buffer", "group-b", json!({"messages": ["hi"]})),
        SideWrite::put("buffer", "group-a", json!({"messages": []})),
        SideWrite::put("buffers", "not-a-buffer", json!(1)),
        SideWrite::put("cache", "h1", json!([0.25, 0.5])),
    ];
    first.write_side(writes).await.unwrap();
    first.write_side(vec![SideWrite::delete("buffer", "group-a")]).await.unwrap();
    drop(first);

    let reopened = engine(db).await;
    let buffers = reopened.side_records("buffer").await.unwrap();
    assert_eq!(buffers.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), ["group-b"], "one kind, no neighbours");
    assert_eq!(buffers[0].value, json!({"messages": ["hi"]}));
    assert_eq!(reopened.side_record("cache", "h1").await.unwrap(), Some(json!([0.25, 0.5])));
    reopened.reset().await.unwrap();
    assert!(storage(db).load_side("cache").await.unwrap().is_empty());
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn an_aborted_write_keeps_no_side_record() {
    let db = "side-abort";
    delete_database(db).await;
    let armed = Rc::new(Cell::new(true));
    let sabotaged = Sabotaged { inner: storage(db), armed: armed.clone() };
    let item = MemoryItem {
        id: "m1".into(),
        memory: "likes tea".into(),
        hash: content_hash("likes tea"),
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at: "2025-01-01T00:00:00.000Z".into(),
        updated_at: "2025-01-01T00:00:00.000Z".into(),
        scope: Scope { user_id: Some("alice".into()), ..Scope::default() },
        lifecycle: Default::default(),
    };
    let record = HistoryRecord {
        id: "h1".into(),
        memory_id: "m1".into(),
        event: EventKind::Add,
        old_value: None,
        new_value: Some("likes tea".into()),
        timestamp: item.created_at.clone(),
        is_deleted: false,
        scope: item.scope.clone(),
    };
    let changes = Changeset {
        upserts: vec![StoredMemory { item, embedding: None }],
        history: vec![record],
        side: vec![SideWrite::put("buffer", "g", json!(["pending"]))],
        ..Changeset::default()
    };
    assert_eq!(sabotaged.commit(&changes).await.unwrap_err().code(), "STORAGE");
    assert!(storage(db).load_side("buffer").await.unwrap().is_empty(), "the side write went with the rest");
    assert!(storage(db).load_memories().await.unwrap().is_empty());
    armed.set(false);
    sabotaged.commit(&changes).await.unwrap();
    assert_eq!(storage(db).load_side("buffer").await.unwrap()[0].value, json!(["pending"]));
    delete_database(db).await;
}
