//! Graph memory in IndexedDB, in headless Chromium: entities and relations written by one instance are read
//! back by the next (and graph-enhanced search still works), deleting the source memory removes its relations
//! for good, an aborted transaction leaves no graph record, and a database of schema version 1 (before the
//! graph store) opens and gains one. The LLM is the scripted server, answering the graph call with OpenAI
//! `tool_calls`. Each test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsValue;

use browser_support::*;
use memwasm::core::config::{IndexedDbSettings, Prompts};
use memwasm::core::error::MemoryError;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::testing::{Letters, Sabotaged, ScriptedLlm};
use memwasm::platform::indexeddb::{IndexedDbStorage, GRAPH_STORE, MEMORIES_STORE, SCHEMA_VERSION};
use memwasm::{Memory, MemoryEngine};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const EXTRACT: &str = "You are an expert at extracting structured, atomic facts";
const DECIDE: &str = "You are a memory management system";
const GRAPH: &str = "You extract a knowledge graph";

/// A config with graph memory whose LLM and embedder are the scripted server.
fn graph_config(db: &str) -> Value {
    let mut config = config(db);
    config["llm"] = json!({"provider": "openai", "config": {"baseUrl": format!("{}/v1", server()), "apiKey": "test"}});
    config["graph"] = json!({"enabled": true});
    config
}

async fn open_graph(db: &str) -> Memory {
    open_with(graph_config(db)).await.unwrap_or_else(|(code, message)| panic!("open failed: {code}: {message}"))
}

/// An OpenAI chat completion calling the two graph tools (entities, relations).
fn tool_calls(entities: Value, relations: Value) -> String {
    let call = |id: &str, name: &str, args: Value| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}});
    let message = json!({"role": "assistant", "content": null, "tool_calls": [
        call("c1", "extract_entities", json!({"entities": entities})),
        call("c2", "extract_relations", json!({"relations": relations})),
    ]});
    json!({"id": "g", "object": "chat.completion", "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]})
        .to_string()
}

/// Scripts one add of `input` (unique per test) extracting `facts`, all ADDed, with Alice —works_at→ Google.
async fn script_add(input: &str, facts: &[&str]) {
    let adds: Vec<Value> = facts.iter().map(|f| json!({"text": f, "event": "ADD"})).collect();
    let entities = json!([{"name": "alice", "type": "person", "description": "engineer"}, {"name": "Google", "type": "organization"}]);
    let relations = json!([{"source": "Alice", "relation": "works_at", "target": "Google"}]);
    let rules = json!([
        {"kind": "chat", "match": [EXTRACT, input], "reply": {"facts": facts}, "times": 1},
        {"kind": "chat", "match": [DECIDE, facts[0]], "reply": {"memory": adds}, "times": 1},
        {"kind": "chat", "match": [GRAPH, input], "body": tool_calls(entities, relations), "times": 1},
    ]);
    let body = serde_json::to_string(&rules.to_string()).unwrap();
    run_js(&format!(
        "const r = await fetch('{}/__script', {{method: 'POST', headers: {{'content-type': 'application/json'}}, body: {body}}});
         if (!r.ok) throw new Error('script: ' + r.status);",
        server()
    ))
    .await;
}

async fn entities(memory: &Memory, user: &str) -> Value {
    ok(memory.get_entities(js(&json!({"userId": user})))).await["results"].clone()
}

async fn relations(memory: &Memory, name: &str, user: &str) -> Value {
    ok(memory.get_relations(js(&name), js(&json!({"userId": user})))).await["results"].clone()
}

fn names(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_owned()).collect()
}

/// The raw records of a store, as JSON.
async fn raw_records(db: &str, store: &str) -> Vec<Value> {
    let open = open_current_js(db);
    let value = run_js(&format!(
        "{open}
         const all = await new Promise((ok, no) => {{ const r = db.transaction('{store}').objectStore('{store}').getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         db.close();
         return all.map((record) => ({{...record, embedding: undefined}}));"
    ))
    .await;
    json_of(value).as_array().cloned().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_graph_survives_reopening_and_search_still_walks_it() {
    let db = "graph-persist";
    delete_database(db).await;
    let first = open_graph(db).await;
    script_add("Alice works at Google (persist)", &["Name is Alice", "Is an engineer"]).await;
    let added = ok(first.add(js(&"Alice works at Google (persist)"), js(&json!({"userId": "u"})))).await;
    assert_eq!(added["results"].as_array().unwrap().len(), 2, "{added}");
    let (known, linked) = (entities(&first, "u").await, relations(&first, "alice", "u").await);
    assert_eq!(names(&known), ["Alice", "Google"]);
    assert_eq!(linked.as_array().unwrap().len(), 1, "{linked}");
    drop(first);

    let second = open_graph(db).await;
    assert_eq!(entities(&second, "u").await, known, "same entities, types, descriptions, memory ids, timestamps");
    assert_eq!(relations(&second, "Alice", "u").await, linked, "same relation");
    assert_eq!(entities(&second, "other").await, json!([]), "still scoped");
    let query = "What about Google?";
    let plain = ok(second.search(js(&query), js(&json!({"userId": "u", "graph": false, "threshold": 0.5})))).await;
    assert_eq!(plain["results"], json!([]), "the vector search alone finds nothing");
    let found = ok(second.search(js(&query), js(&json!({"userId": "u", "threshold": 0.5})))).await;
    let mut texts: Vec<&str> =
        found["results"].as_array().unwrap().iter().map(|m| m["memory"].as_str().unwrap()).collect();
    texts.sort();
    assert_eq!(texts, ["Is an engineer", "Name is Alice"], "{found}");
    assert_eq!(found["relations"], json!([{"source": "Alice", "relation": "works_at", "target": "Google"}]));
    drop(second);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn deleting_the_source_memory_removes_its_relations_for_good() {
    let db = "graph-cascade";
    delete_database(db).await;
    let first = open_graph(db).await;
    script_add("Alice works at Google (cascade)", &["Name is Alice"]).await;
    let added = ok(first.add(js(&"Alice works at Google (cascade)"), js(&json!({"userId": "u"})))).await;
    let id = added["results"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(relations(&first, "Alice", "u").await.as_array().unwrap().len(), 1);
    ok(first.delete_memory(js(&id), JsValue::UNDEFINED)).await;
    assert_eq!(relations(&first, "Alice", "u").await, json!([]));
    drop(first);

    let second = open_graph(db).await;
    assert_eq!(relations(&second, "Alice", "u").await, json!([]), "the relation stays deleted after a reopen");
    let kinds: Vec<Value> = raw_records(db, GRAPH_STORE).await.into_iter().map(|r| r["kind"].clone()).collect();
    assert!(!kinds.contains(&json!("relation")), "no relation row left: {kinds:?}");
    drop(second);
    delete_database(db).await;
}

/// Replies by the shape asked for: one fact, its ADD, and Alice —works_at→ Google.
fn scripted() -> ScriptedLlm {
    ScriptedLlm::responding(|request| {
        match request.reply.map(|shape| shape.name) {
            Some("extract_graph") => {
                json!({"entities": [{"name": "Alice", "type": "person"}, {"name": "Google", "type": "organization"}],
                "relations": [{"source": "Alice", "relation": "works_at", "target": "Google"}]})
            }
            Some("record_facts") => json!({"facts": ["Name is Alice"]}),
            _ => json!({"memory": [{"text": "Name is Alice", "event": "ADD"}]}),
        }
        .to_string()
    })
}

#[wasm_bindgen_test]
async fn an_aborted_transaction_leaves_no_graph_rows() {
    let db = "graph-abort";
    delete_database(db).await;
    let armed = Rc::new(Cell::new(true));
    let storage = IndexedDbStorage::new(&IndexedDbSettings { db_name: db.into(), persist: false });
    let sabotaged = Sabotaged { inner: storage, armed: armed.clone() };
    let engine: MemoryEngine<_, _, _> =
        MemoryEngine::open(scripted(), Letters::new(26), sabotaged, Prompts::default()).await.unwrap();
    engine.graph().enable_graph().await.unwrap();
    let alice = AddOptions { scope: ScopeFields::user("u"), ..AddOptions::default() };
    let error = engine.add(&json!("Alice works at Google"), &alice).await.unwrap_err();
    assert!(matches!(error, MemoryError::Storage(_)), "{error}");
    assert_eq!(raw_records(db, GRAPH_STORE).await, Vec::<Value>::new(), "no graph row of the aborted write");
    assert_eq!(raw_records(db, MEMORIES_STORE).await, Vec::<Value>::new());

    armed.set(false);
    engine.add(&json!("Alice works at Google"), &alice).await.unwrap();
    let kinds: Vec<Value> = raw_records(db, GRAPH_STORE).await.into_iter().map(|r| r["kind"].clone()).collect();
    assert_eq!(kinds.len(), 3, "two entities and a relation once nothing refuses the write: {kinds:?}");
    drop(engine);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_version_1_database_is_upgraded_and_keeps_its_memories() {
    let db = "graph-upgrade";
    delete_database(db).await;
    // A database left at version 1 with a memory in it: opening it upgrades in place and keeps the memory.
    run_js(&format!(
        "const db = await new Promise((ok, no) => {{
           const r = indexedDB.open('{db}', 1);
           r.onupgradeneeded = () => {{
             r.result.createObjectStore('memories', {{keyPath: 'id'}});
             const h = r.result.createObjectStore('history', {{keyPath: 'seq', autoIncrement: true}});
             h.createIndex('id', 'id', {{unique: true}}); h.createIndex('memoryId', 'memoryId'); h.createIndex('timestamp', 'timestamp');
           }};
           r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});
         await new Promise((ok, no) => {{
           const t = db.transaction('memories', 'readwrite');
           t.objectStore('memories').put({{id: 'm1', memory: 'likes coffee', hash: 'h', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', metadata: {{}}, userId: 'u', embedding: null, order: 0}});
           t.oncomplete = ok; t.onerror = () => no(t.error); }});
         db.close();"
    ))
    .await;
    let upgraded = open_graph(db).await;
    let texts: Vec<String> =
        all_of(&upgraded, "u").await.iter().map(|m| m["memory"].as_str().unwrap().to_owned()).collect();
    assert_eq!(texts, ["likes coffee"], "the version 1 memory is still there");
    assert_eq!(entities(&upgraded, "u").await, json!([]), "an empty graph");
    let open = open_current_js(db);
    run_js(&format!(
        "{open}
         const stores = [...db.objectStoreNames]; const version = db.version; db.close();
         if (version !== {SCHEMA_VERSION} || !stores.includes('graph')) throw new Error('not upgraded: ' + version + ' ' + stores);"
    ))
    .await;
    script_add("Alice works at Google (upgrade)", &["Name is Alice"]).await;
    ok(upgraded.add(js(&"Alice works at Google (upgrade)"), js(&json!({"userId": "u"})))).await;
    drop(upgraded);
    let reopened = open_graph(db).await;
    assert_eq!(names(&entities(&reopened, "u").await), ["Alice", "Google"]);
    drop(reopened);
    delete_database(db).await;
}
