//! Memory lifecycle in IndexedDB, in headless Chromium: databases of schema versions 1 and 2 (written here
//! as those versions laid them out) upgrade in place to the current version with their memories, history and graph
//! intact and the lifecycle defaults; every lifecycle field survives a reopen; and an add over
//! `maxMemoriesPerScope` whose transaction aborts trims nothing and adds nothing. Each test deletes its
//! database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use std::cell::Cell;
use std::rc::Rc;

use browser_support::*;
use memwasm::core::config::{IndexedDbSettings, Prompts};
use memwasm::core::graph::{Entity, GraphRecord, Relation};
use memwasm::core::lifecycle::decay::DecayPlan;
use memwasm::core::lifecycle::write::WriteLifecycle;
use memwasm::core::lifecycle::LifecycleSettings;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::{HistoryRecord, MemoryItem, StoredMemory};
use memwasm::core::model::{Lifecycle, MemoryType};
use memwasm::core::model_traits::Embedder;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::storage::Storage;
use memwasm::core::testing::{Letters, NoLlm, Sabotaged};
use memwasm::core::time::Clock;
use memwasm::platform::indexeddb::{IndexedDbStorage, KEY_INDEX, SCHEMA_VERSION};
use memwasm::MemoryEngine;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const T0: &str = "2024-06-01T12:00:00.000Z";

fn storage(db: &str) -> IndexedDbStorage {
    IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false })
}

async fn engine(db: &str) -> MemoryEngine<NoLlm, Letters, IndexedDbStorage> {
    MemoryEngine::open(NoLlm, Letters::new(26), storage(db), Prompts::default()).await.expect("opens")
}

fn alice() -> Scope {
    Scope { user_id: Some("alice".into()), ..Scope::default() }
}

/// Every memory of alice, soft-deleted ones included, oldest first.
fn everything() -> Read {
    Read { include_deleted: true, ..Read::of(alice(), DEFAULT_LIMIT) }
}

/// The memory, history record and graph records the old databases hold, as those versions wrote them.
fn old_memory() -> Value {
    json!({"id": "m1", "memory": "likes coffee", "hash": "h", "metadata": {"tag": "t"}, "createdAt": T0,
        "updatedAt": T0, "userId": "alice"})
}

fn old_history() -> Value {
    json!({"id": "h1", "memoryId": "m1", "event": "ADD", "oldValue": null, "newValue": "likes coffee",
        "timestamp": T0, "isDeleted": false, "userId": "alice"})
}

fn old_graph() -> Vec<GraphRecord> {
    let entity = |name: &str, kind: &str| {
        GraphRecord::Entity(Entity {
            name: name.into(),
            entity_type: kind.into(),
            description: None,
            memory_ids: vec!["m1".into()],
            created_at: T0.into(),
            updated_at: T0.into(),
            scope: alice(),
        })
    };
    let works_at = GraphRecord::Relation(Relation {
        source: "Alice".into(),
        relation: "works_at".into(),
        target: "Google".into(),
        memory_ids: vec!["m1".into()],
        created_at: T0.into(),
        updated_at: T0.into(),
        scope: alice(),
    });
    vec![entity("Alice", "person"), entity("Google", "organization"), works_at]
}

/// Creates `db` at schema `version` (1 or 2) with that version's stores and indexes, holding the old
/// memory with `vector`, its history record and, at version 2, the graph records.
async fn old_database(db: &str, version: u32, vector: &[f32]) {
    let graph: Vec<(String, GraphRecord)> =
        if version >= 2 { old_graph().into_iter().map(|r| (r.key(), r)).collect() } else { Vec::new() };
    let (memory, history, graph) = (old_memory(), old_history(), serde_json::to_string(&graph).unwrap());
    let vector = serde_json::to_string(vector).unwrap();
    let open = open_old_schema_js(db, version);
    run_js(&format!(
        "{open}
         const stores = [...db.objectStoreNames];
         await new Promise((ok, no) => {{
           const t = db.transaction(stores, 'readwrite');
           t.objectStore('memories').put({{...{memory}, embedding: new Uint8Array(new Float32Array({vector}).buffer), order: 0}});
           t.objectStore('history').add({history});
           for (const [key, record] of {graph}) t.objectStore('graph').put(record, key);
           t.oncomplete = ok; t.onerror = () => no(t.error); }});
         db.close();"
    ))
    .await;
}

/// `[version, store names, index names of memories]` of `db`, read without upgrading it.
async fn layout(db: &str) -> Value {
    let open = open_current_js(db);
    json_of(
        run_js(&format!(
            "{open}
             const indexes = [...db.transaction('memories').objectStore('memories').indexNames];
             const found = [db.version, [...db.objectStoreNames], indexes]; db.close(); return found;"
        ))
        .await,
    )
}

/// Opens a database left at `version` with the current code and checks everything came through.
async fn upgrades_from(version: u32) {
    let db = &format!("lifecycle-upgrade-{version}");
    delete_database(db).await;
    let vector = Letters::new(26).embed_one("likes coffee").await.unwrap();
    old_database(db, version, &vector).await;
    let engine = engine(db).await;
    engine.graph().enable_graph().await.unwrap();
    assert_eq!(
        layout(db).await,
        json!([
            SCHEMA_VERSION,
            ["gone", "graph", "history", "image", "memories", "packs", "side", "vectors"],
            ["changed", KEY_INDEX]
        ])
    );

    let item: MemoryItem = serde_json::from_value(old_memory()).unwrap();
    assert_eq!(item.lifecycle, Lifecycle::default(), "no lifecycle fields: the defaults");
    let expected = StoredMemory { item: item.clone(), embedding: Some(vector) };
    assert_eq!(storage(db).load_memories().await.unwrap(), [expected], "the record, vector and all");
    assert_eq!(engine.get_all(&everything()).await.unwrap().results, [item]);
    let hits = engine.search("likes coffee", &Read::of(alice(), DEFAULT_LIMIT)).await.unwrap().results;
    assert_eq!(hits.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["m1"], "searchable");
    let history: HistoryRecord = serde_json::from_value(old_history()).unwrap();
    assert_eq!(engine.history("m1").await.unwrap(), [history]);
    let graph = if version >= 2 { old_graph() } else { Vec::new() };
    assert_eq!(storage(db).load_graph().await.unwrap(), Some(graph.clone()), "the graph store as it was");
    assert_eq!(engine.graph().get_relations("alice", alice()).await.unwrap().len(), graph.len().saturating_sub(2));

    engine.lifecycle().pin("m1", true).await.unwrap();
    drop(engine);
    assert!(
        self::engine(db).await.get("m1").await.unwrap().unwrap().lifecycle.pinned,
        "the upgraded record takes new fields"
    );
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_version_1_database_upgrades_in_place_with_lifecycle_defaults() {
    upgrades_from(1).await;
}

#[wasm_bindgen_test]
async fn a_version_2_database_upgrades_in_place_keeping_memories_history_and_graph() {
    upgrades_from(2).await;
}

#[wasm_bindgen_test]
async fn a_version_3_database_gains_the_side_store_and_keeps_everything() {
    upgrades_from(3).await;
}

#[wasm_bindgen_test]
async fn every_lifecycle_field_persists_across_a_reopen() {
    let db = "lifecycle-reopen";
    delete_database(db).await;
    let mut first = engine(db).await;
    let now = Rc::new(Cell::new(1_735_689_600_000i64)); // 2025-01-01
    first.set_clock(Clock::from_fn({
        let now = now.clone();
        move || now.get()
    }));
    let write = WriteLifecycle {
        memory_type: Some(MemoryType::Profile),
        expires_at: Some("2099-01-01T00:00:00.000Z".into()),
        pinned: true,
        importance: Some(0.385_957_716_695_298_44),
    };
    first.lifecycle().store("drink", "likes green tea", &alice(), None, Default::default(), &write).await.unwrap();
    let episodic = AddOptions {
        scope: ScopeFields::user("alice"),
        memory_type: Some(MemoryType::Episodic),
        ..AddOptions::default()
    };
    first.add(&json!("walked the dog today"), &episodic).await.unwrap();
    let chess = first.add(&json!("plays chess"), &episodic).await.unwrap().results[0].id.clone();
    first.delete(&chess, true).await.unwrap();
    first.search("walked dog", &Read::of(alice(), DEFAULT_LIMIT)).await.unwrap();
    now.set(now.get() + 86_400_000);
    let every_type = DecayPlan {
        half_life_days: 30.0,
        forget_below: 0.0,
        memory_types: MemoryType::ALL.to_vec(),
        keyed_only: false,
    };
    first.lifecycle().decay(&alice(), every_type).await.unwrap();

    // The clock stands still, so every memory has the same createdAt and listing order among them is only
    // the order of their last write: compare as sets (sorted by id).
    let by_id = |mut items: Vec<MemoryItem>| {
        items.sort_by(|a, b| a.id.cmp(&b.id));
        items
    };
    let before = by_id(first.get_all(&everything()).await.unwrap().results);
    let lives: Vec<&Lifecycle> = before.iter().map(|m| &m.lifecycle).collect();
    assert!(lives.iter().any(|l| l.pinned && l.key.is_some() && l.expires_at.is_some()), "{lives:?}");
    assert!(lives.iter().any(|l| l.deleted_at.is_some()) && lives.iter().any(|l| l.decayed_at.is_some()));
    assert!(lives.iter().any(|l| l.last_accessed_at.is_some()), "{lives:?}");
    assert!(lives.iter().all(|l| l.memory_type != MemoryType::Semantic), "{lives:?}");
    let stored = by_id(storage(db).load_memories().await.unwrap().into_iter().map(|m| m.item).collect());
    assert_eq!(stored, before, "IndexedDB holds exactly what the engine holds");
    drop(first);

    let reopened = engine(db).await;
    assert_eq!(by_id(reopened.get_all(&everything()).await.unwrap().results), before, "every field, exactly");
    assert_eq!(reopened.lifecycle().get_by_key("drink", &alice()).await.unwrap().memory, "likes green tea");
    assert_eq!(reopened.get_all(&Read::of(alice(), DEFAULT_LIMIT)).await.unwrap().total_count, 2, "still deleted");
    let open = open_current_js(db);
    let by_key = run_js(&format!(
        "{open}
         const found = await new Promise((ok) => {{ const r = db.transaction('memories').objectStore('memories').index('{KEY_INDEX}').getAll('drink'); r.onsuccess = () => ok(r.result); }});
         db.close(); return found.map((record) => record.memory);"
    ))
    .await;
    assert_eq!(json_of(by_key), json!(["likes green tea"]), "the key index finds it");
    drop(reopened);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn an_aborted_add_over_the_limit_trims_nothing_and_adds_nothing() {
    let db = "lifecycle-limit-abort";
    delete_database(db).await;
    let armed = Rc::new(Cell::new(false));
    let sabotaged = Sabotaged { inner: storage(db), armed: armed.clone() };
    let mut engine: MemoryEngine<_, _, _> =
        MemoryEngine::open(NoLlm, Letters::new(26), sabotaged, Prompts::default()).await.unwrap();
    engine.set_lifecycle(LifecycleSettings { max_memories_per_scope: Some(3), ..LifecycleSettings::default() });
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    let messages =
        |texts: &[&str]| json!(texts.iter().map(|t| json!({"role": "user", "content": t})).collect::<Vec<_>>());
    engine.add(&messages(&["likes tea", "plays chess", "reads novels"]), &options).await.unwrap();
    let kept = storage(db).load_memories().await.unwrap();
    let items: Vec<MemoryItem> = kept.iter().map(|m| m.item.clone()).collect();
    assert_eq!(items.len(), 3);

    armed.set(true);
    let two = messages(&["owns a cat", "owns a dog"]);
    let error = engine.add(&two, &options).await.unwrap_err();
    assert_eq!(error.code(), "STORAGE", "{error}");
    assert_eq!(storage(db).load_memories().await.unwrap(), kept, "storage: nothing trimmed, nothing added");
    assert_eq!(engine.get_all(&everything()).await.unwrap().results, items, "index: the same three");
    for item in &items {
        let hits = engine.search(&item.memory, &Read::of(alice(), 1)).await.unwrap().results;
        assert_eq!(hits[0].id, item.id, "still searchable");
    }
    assert_eq!(storage(db).all_history().await.unwrap().unwrap().len(), 3, "only the three ADDs");

    armed.set(false);
    engine.add(&two, &options).await.unwrap();
    let after = engine.get_all(&everything()).await.unwrap().results;
    assert_eq!(after.len(), 3, "the same add goes through once nothing refuses it, trimming two");
    assert_eq!(storage(db).load_memories().await.unwrap().len(), 3);
    let history = storage(db).all_history().await.unwrap().unwrap();
    assert_eq!(history.iter().filter(|r| r.is_deleted).count(), 2, "two DELETEs for the trimmed");
    drop(engine);
    delete_database(db).await;
}
