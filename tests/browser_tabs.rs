//! Several `Memory` instances on one IndexedDB database, as in several tabs, in headless Chromium:
//! concurrent writers lose nothing, every instance's index follows the others' writes (BroadcastChannel +
//! re-read; an import's in a few requests, from the journal), a `versionchange` from another connection closes ours instead of blocking it, an
//! older connection that never closes fails the open that must upgrade instead of hanging it, and inferring
//! adds of one user in both decide one after another (Web Locks; a page whose lock requests are refused
//! still adds). Each test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use browser_support::*;
use futures_util::future::{select, Either};
use js_sys::{Array, Function, Promise};
use memwasm::Memory;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn count(memory: &Memory, user: &str) -> usize {
    all_of(memory, user).await.len()
}

async fn texts(memory: &Memory) -> Vec<String> {
    all_of(memory, "alice").await.iter().map(|m| m["memory"].as_str().unwrap_or("").to_owned()).collect()
}

#[wasm_bindgen_test]
async fn two_tabs_adding_a_hundred_each_at_once_lose_nothing() {
    let db = "tabs-concurrent";
    delete_database(db).await;
    let (left, right) = (open(db).await, open(db).await);
    let adds = Array::new();
    for i in 0..100 {
        let options = js(&json!({"userId": "alice"}));
        adds.push(&left.add(js(&format!("left tab fact number {i}")), options.clone()));
        adds.push(&right.add(js(&format!("right tab fact number {i}")), options));
    }
    let results = JsFuture::from(Promise::all(&adds)).await.expect("every add succeeds");
    let results = json_of(results);
    assert_eq!(results.as_array().unwrap().len(), 200);

    assert!(eventually(5.0, || async { count(&left, "alice").await == 200 }).await, "the left index sees all 200");
    assert!(eventually(5.0, || async { count(&right, "alice").await == 200 }).await, "the right index sees all 200");
    let third = open(db).await;
    assert_eq!(count(&third, "alice").await, 200, "the database holds all 200");
    let export = ok(third.export_memories(js(&json!({})))).await.as_str().unwrap().to_owned();
    let history: Vec<Value> = export
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|l: &Value| l["kind"] == "history")
        .collect();
    assert_eq!(history.len(), 200);
    assert!(history.iter().all(|record| record["event"] == "ADD"));
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn other_tabs_follow_updates_deletes_and_resets() {
    let db = "tabs-follow";
    delete_database(db).await;
    let (writer, reader) = (open(db).await, open(db).await);
    let tea = remember(&writer, "likes tea", "alice").await;
    let jazz = remember(&writer, "likes jazz", "alice").await;
    assert!(eventually(5.0, || async { texts(&reader).await == ["likes tea", "likes jazz"] }).await);
    let found = scores(&reader, "tea", "alice").await;
    assert_eq!(found[0].0, tea, "the reader's vector index has the new memories too");

    ok(writer.update(js(&tea), js(&"likes green tea"))).await;
    assert!(eventually(5.0, || async { ok(reader.get(js(&tea))).await["memory"] == "likes green tea" }).await);
    ok(writer.delete_memory(js(&jazz), JsValue::UNDEFINED)).await;
    assert!(eventually(5.0, || async { ok(reader.get(js(&jazz))).await.is_null() }).await);

    remember(&reader, "plays chess", "bob").await;
    assert!(eventually(5.0, || async { count(&writer, "bob").await == 1 }).await, "and the other way round");
    ok(writer.delete_all(js(&json!({"userId": "bob"})))).await;
    assert!(eventually(5.0, || async { count(&reader, "bob").await == 0 }).await);
    ok(writer.reset()).await;
    assert!(eventually(5.0, || async { count(&reader, "alice").await == 0 }).await);
    assert_eq!(ok(reader.history(js(&tea))).await, json!([]));
    delete_database(db).await;
}

/// Starts counting `IDBObjectStore.prototype.get` calls in this page.
async fn count_gets() {
    run_js(
        "if (!globalThis.realGet) { globalThis.realGet = IDBObjectStore.prototype.get; }
         globalThis.gets = 0;
         IDBObjectStore.prototype.get = function (...a) { globalThis.gets++; return globalThis.realGet.apply(this, a); };",
    )
    .await;
}

/// The `get` calls counted since `count_gets`, which stops counting.
async fn counted_gets() -> f64 {
    let gets = run_js("IDBObjectStore.prototype.get = globalThis.realGet; return globalThis.gets;").await;
    gets.as_f64().expect("a count")
}

#[wasm_bindgen_test]
async fn an_import_reaches_the_other_tabs_in_a_few_reads_not_one_per_memory() {
    let db = "tabs-bulk";
    delete_database(db).await;
    let source =
        open_with(json!({"llm": {"provider": "none"}, "embedder": config(db)["embedder"].clone()})).await.unwrap();
    let notes: Vec<Value> =
        (0..300).map(|n| json!({"role": "user", "content": format!("note {n} about topic {n}")})).collect();
    ok(source.add(js(&notes), js(&json!({"userId": "alice", "infer": false})))).await;
    let backup = ok(source.export_memories(js(&json!({})))).await;
    let (writer, reader) = (open(db).await, open(db).await);
    let tea = remember(&writer, "likes tea", "alice").await;
    assert!(eventually(5.0, || async { count(&reader, "alice").await == 1 }).await);

    count_gets().await;
    ok(writer.import_memories(js(&backup), JsValue::UNDEFINED)).await;
    // A write right after the import, before the reader may have read it: an update and a delete of imported memories.
    let imported = all_of(&writer, "alice").await;
    let ids: Vec<String> =
        imported.iter().map(|m| m["id"].as_str().unwrap().to_owned()).filter(|id| *id != tea).collect();
    ok(writer.update(js(&ids[0]), js(&"note 0, rewritten"))).await;
    ok(writer.delete_memory(js(&ids[1]), JsValue::UNDEFINED)).await;
    assert!(eventually(10.0, || async { count(&reader, "alice").await == 300 }).await, "the reader follows the import");
    let gets = counted_gets().await;
    assert!(gets < 100.0, "the reader read the import's 300 memories in a few requests, not {gets}");
    assert!(eventually(5.0, || async { ok(reader.get(js(&ids[0]))).await["memory"] == "note 0, rewritten" }).await);
    assert!(ok(reader.get(js(&ids[1]))).await.is_null());
    let sorted = |mut all: Vec<Value>| {
        all.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
        all
    };
    assert_eq!(sorted(all_of(&reader, "alice").await), sorted(all_of(&writer, "alice").await));
    let found = scores(&reader, "note 7 about topic 7", "alice").await;
    assert_eq!(
        found,
        scores(&writer, "note 7 about topic 7", "alice").await,
        "the reader's index holds the vectors too"
    );
    assert!(!found.is_empty());
    delete_database(db).await;
}

/// Deletes or upgrades `db` from "another tab", resolving to "done", or "blocked" if a connection held on.
async fn from_another_tab(db: &str, action: &str) -> String {
    let function = Function::new_with_args(
        "name, action",
        "return new Promise((done, failed) => {
            const request = action === 'delete' ? indexedDB.deleteDatabase(name) : indexedDB.open(name, 1000);
            request.onblocked = () => done('blocked');
            request.onerror = () => failed(request.error);
            request.onsuccess = () => { if (action !== 'delete') request.result.close(); done('done'); };
        });",
    );
    let promise = Promise::from(function.call2(&JsValue::NULL, &db.into(), &action.into()).unwrap());
    JsFuture::from(promise).await.unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
async fn versionchange_closes_the_connection_and_the_next_call_reopens() {
    let db = "tabs-versionchange";
    delete_database(db).await;
    let memory = open(db).await;
    remember(&memory, "likes tea", "alice").await;
    assert_eq!(from_another_tab(db, "delete").await, "done", "our open connection did not block the deletion");
    let id = remember(&memory, "likes jazz", "alice").await;
    let fresh = open(db).await;
    let stored: Vec<Value> = all_of(&fresh, "alice").await.iter().map(|m| m["id"].clone()).collect();
    assert_eq!(stored, [json!(id)], "the write after the deletion reopened the database and landed in it");

    assert_eq!(from_another_tab(db, "upgrade").await, "done", "nor did it block an upgrade");
    let (code, message) = fails(memory.add(js(&"likes chess"), js(&json!({"userId": "alice"})))).await;
    assert_eq!(code, "STORAGE");
    assert!(message.contains("newer memwasm"), "{message}");
    delete_database(db).await;
}

/// Another program (or a memwasm from before connections closed on `versionchange`) holds the database open
/// at an older version and never lets go: the open that must upgrade it fails after a few seconds with
/// `STORAGE_UNAVAILABLE` instead of waiting for good. Once that connection goes, the next open upgrades it,
/// and the request given up on closes what it opened, so nothing blocks a deletion.
#[wasm_bindgen_test]
async fn an_older_connection_that_never_lets_go_fails_the_open_instead_of_hanging() {
    let db = "tabs-blocked";
    delete_database(db).await;
    run_js(&format!("{} globalThis.holder = db;", open_old_schema_js(db, 4))).await;
    let started = js_sys::Date::now();
    let opening = Box::pin(JsFuture::from(Memory::open(js(&config(db)))));
    let outcome = match select(opening, Box::pin(sleep(20_000))).await {
        Either::Left((outcome, _)) => outcome,
        Either::Right(_) => panic!("Memory.open still waited 20 s after a connection that does not let go blocked it"),
    };
    let waited = js_sys::Date::now() - started;
    let (code, message) = coded(outcome.expect_err("the open fails"));
    assert_eq!(code, "STORAGE_UNAVAILABLE");
    assert!(message.contains(&format!("\"{db}\" is held open by another tab")), "{message}");
    assert!((2_500.0..15_000.0).contains(&waited), "gave up after {waited} ms, not after its wait of 3 s");

    run_js("globalThis.holder.close();").await;
    let memory = open(db).await;
    let id = remember(&memory, "likes tea", "alice").await;
    assert_eq!(all_of(&memory, "alice").await[0]["id"], json!(id), "the next open upgraded it and writes");
    assert_eq!(from_another_tab(db, "delete").await, "done", "nothing left open blocks a deletion");
}

const CITIES: [&str; 8] = ["Paris", "Berlin", "Rome", "Madrid", "Vienna", "Prague", "Lisbon", "Oslo"];

/// Scripts the moving user (as tests/support/moving-user.mjs does): "I moved to <city>" is the fact "User
/// lives in <city>", which the decision makes an UPDATE of memory "0" when the prompt shows where the user
/// lives, an ADD otherwise.
async fn script_moves() {
    let mut rules = Vec::new();
    for city in CITIES {
        let fact = format!("User lives in {city}");
        let new = format!("New facts:\n[\"{fact}\"]");
        let shown = "Existing memories:\n[{\"id\":\"0\",\"text\":\"User lives in";
        rules.push(
            json!({"kind": "chat", "match": [EXTRACT, format!("I moved to {city}")], "reply": {"facts": [fact]}}),
        );
        let update = json!({"memory": [{"id": "0", "text": fact, "event": "UPDATE"}]});
        rules.push(json!({"kind": "chat", "match": [DECIDE, shown, new], "reply": update}));
        rules.push(
            json!({"kind": "chat", "match": [DECIDE, new], "reply": {"memory": [{"text": fact, "event": "ADD"}]}}),
        );
    }
    let body = serde_json::to_string(&json!(rules).to_string()).unwrap();
    run_js(&format!("await fetch('{}/__script', {{method: 'POST', body: {body}}});", server())).await;
}

/// `config(db)` with the scripted server as its LLM too.
fn with_llm(db: &str) -> Value {
    let mut config = config(db);
    config["llm"] = json!({"provider": "openai", "config": {"baseUrl": format!("{}/v1", server()), "apiKey": "test"}});
    config
}

const EXTRACT: &str = "You are an expert at extracting structured, atomic facts";
const DECIDE: &str = "You are a memory management system";

#[wasm_bindgen_test]
async fn eight_adds_moving_the_user_from_two_tabs_at_once_end_with_one_fact_and_seven_updates() {
    let db = "tabs-contradictions";
    delete_database(db).await;
    script_moves().await;
    let open = || async { open_with(with_llm(db)).await.unwrap_or_else(|(code, why)| panic!("{code}: {why}")) };
    let (left, right) = (open().await, open().await);
    let adds = Array::new();
    for (nth, city) in CITIES.iter().enumerate() {
        let tab = if nth % 2 == 0 { &left } else { &right };
        adds.push(&tab.add(js(&format!("I moved to {city}")), js(&json!({"userId": "alice"}))));
    }
    let results = json_of(JsFuture::from(Promise::all(&adds)).await.expect("every add succeeds"));
    let events: Vec<&str> = results
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["results"].as_array().unwrap())
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    let third = open().await;
    let stored = all_of(&third, "alice").await;
    let texts: Vec<&str> = stored.iter().map(|m| m["memory"].as_str().unwrap()).collect();
    assert_eq!(texts.len(), 1, "one current fact, found {texts:?}");
    let count = |kind: &str| events.iter().filter(|e| **e == kind).count();
    assert_eq!((count("ADD"), count("UPDATE")), (1, 7), "{events:?}");
    let history = ok(third.history(js(&stored[0]["id"]))).await;
    let kinds: Vec<&str> = history.as_array().unwrap().iter().map(|h| h["event"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["ADD", "UPDATE", "UPDATE", "UPDATE", "UPDATE", "UPDATE", "UPDATE", "UPDATE"]);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_tab_whose_lock_comes_before_the_last_writers_notice_waits_for_that_notice() {
    let db = "tabs-slow-notices";
    delete_database(db).await;
    script_moves().await;
    // Notices reach the other tab 150 ms late (a busy browser): the next tab's Web Lock is granted first.
    run_js(
        "const post = BroadcastChannel.prototype.postMessage; window.__post = post; \
         BroadcastChannel.prototype.postMessage = function (m) { setTimeout(() => post.call(this, m), 150); };",
    )
    .await;
    let open = || async { open_with(with_llm(db)).await.unwrap_or_else(|(code, why)| panic!("{code}: {why}")) };
    let (left, right) = (open().await, open().await);
    let adds = Array::new();
    for (nth, city) in CITIES[..4].iter().enumerate() {
        let tab = if nth % 2 == 0 { &left } else { &right };
        adds.push(&tab.add(js(&format!("I moved to {city}")), js(&json!({"userId": "alice"}))));
    }
    let added = JsFuture::from(Promise::all(&adds)).await;
    run_js("BroadcastChannel.prototype.postMessage = window.__post;").await;
    added.expect("every add succeeds");
    let stored = all_of(&open().await, "alice").await;
    let texts: Vec<&str> = stored.iter().map(|m| m["memory"].as_str().unwrap()).collect();
    assert_eq!(texts, ["User lives in Madrid"], "one current fact");
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_notice_that_never_comes_delays_the_next_turn_but_does_not_stop_it() {
    let db = "tabs-lost-notices";
    delete_database(db).await;
    script_moves().await;
    // As a tab closed between its commit and its notice: no notice reaches the other tab.
    run_js(
        "window.__post = BroadcastChannel.prototype.postMessage; BroadcastChannel.prototype.postMessage = () => {};",
    )
    .await;
    let open = || async { open_with(with_llm(db)).await.unwrap_or_else(|(code, why)| panic!("{code}: {why}")) };
    let (left, right) = (open().await, open().await);
    let first = JsFuture::from(left.add(js(&"I moved to Paris"), js(&json!({"userId": "alice"})))).await;
    let second = JsFuture::from(right.add(js(&"I moved to Berlin"), js(&json!({"userId": "alice"})))).await;
    let third = JsFuture::from(right.add(js(&"I moved to Rome"), js(&json!({"userId": "alice"})))).await;
    run_js("BroadcastChannel.prototype.postMessage = window.__post;").await;
    for added in [first, second, third] {
        added.expect("every add succeeds");
    }
    assert!(!all_of(&open().await, "alice").await.is_empty());
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn a_page_whose_web_locks_refuse_still_adds() {
    let db = "tabs-locks-refused";
    delete_database(db).await;
    script_moves().await;
    // As in a sandboxed frame, whose lock requests reject with a SecurityError without ever granting.
    run_js("navigator.locks.request = () => Promise.reject(new DOMException('refused', 'SecurityError'));").await;
    let memory = open_with(with_llm(db)).await.unwrap_or_else(|(code, why)| panic!("{code}: {why}"));
    let added = ok(memory.add(js(&"I moved to Paris"), js(&json!({"userId": "alice"})))).await;
    run_js("delete navigator.locks.request;").await;
    assert_eq!(added["results"][0]["event"], "ADD", "{added}");
    assert_eq!(all_of(&memory, "alice").await.len(), 1);
    delete_database(db).await;
}
