//! Helpers shared by the browser tests: configs whose embedder is the scripted OpenAI-compatible server
//! (started by scripts/suites/40-browser.sh, its URL baked in at compile time), calling the JS `Memory`
//! API from Rust, and fresh IndexedDB databases.
#![allow(dead_code)]

use js_sys::{Function, Promise, Reflect};
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::{MemoryItem, StoredMemory};
use memwasm::Memory;
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The scripted server's base URL, e.g. `http://127.0.0.1:41234`. Not `env!`: the tests must still compile
/// (for clippy and `cargo check`) where the suite has not set it.
#[allow(clippy::option_env_unwrap)]
pub fn server() -> &'static str {
    option_env!("MEMWASM_SCRIPTED_URL").expect(
        "build with MEMWASM_SCRIPTED_URL set: scripts/suites/40-browser.sh starts the scripted server and sets it",
    )
}

/// A config storing in IndexedDB database `db`, without an LLM (each message is stored as it is), embedding
/// through the scripted server.
pub fn config(db: &str) -> Value {
    json!({
        "llm": {"provider": "none"},
        "embedder": {"provider": "openai", "config": {"baseUrl": format!("{}/v1", server()), "apiKey": "test"}},
        "storage": {"provider": "indexeddb", "config": {"dbName": db}},
        "retry": {"maxRetries": 0},
    })
}

/// `value` as a plain JS value (objects, not Maps).
pub fn js<T: Serialize>(value: &T) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).expect("serialisable")
}

/// A JS value as JSON.
pub fn json_of(value: JsValue) -> Value {
    if value.is_undefined() {
        return Value::Null;
    }
    serde_wasm_bindgen::from_value(value).expect("plain JSON data")
}

/// `await Memory.open(config)`.
pub async fn open_with(config: Value) -> Result<Memory, (String, String)> {
    let memory = JsFuture::from(Memory::open(js(&config))).await.map_err(coded)?;
    Ok(Memory::try_from_js_value(memory).expect("a Memory"))
}

/// `await Memory.open(config(db))`, which must succeed.
pub async fn open(db: &str) -> Memory {
    open_with(config(db)).await.unwrap_or_else(|(code, message)| panic!("open failed: {code}: {message}"))
}

/// Awaits a call that must succeed; its result as JSON.
pub async fn ok(promise: Promise) -> Value {
    match JsFuture::from(promise).await {
        Ok(value) => json_of(value),
        Err(error) => {
            let (code, message) = coded(error);
            panic!("call failed: {code}: {message}")
        }
    }
}

/// Awaits a call that must fail; its `(code, message)`.
pub async fn fails(promise: Promise) -> (String, String) {
    match JsFuture::from(promise).await {
        Ok(value) => panic!("call succeeded with {:.300}", json_of(value).to_string()),
        Err(error) => coded(error),
    }
}

/// `(error.code, error.message)` of a rejected call.
pub fn coded(error: JsValue) -> (String, String) {
    let field = |name: &str| Reflect::get(&error, &name.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    (field("code"), field("message"))
}

/// Stores `text` as one memory of user `user` (no LLM: the message is the memory); returns its id.
pub async fn remember(memory: &Memory, text: &str, user: &str) -> String {
    let result = ok(memory.add(js(&text), js(&json!({"userId": user})))).await;
    result["results"][0]["id"].as_str().expect("one memory added").to_owned()
}

/// `getAll` of a user (up to 1000), as JSON items.
pub async fn all_of(memory: &Memory, user: &str) -> Vec<Value> {
    let found = ok(memory.get_all(js(&json!({"userId": user, "limit": 1000})))).await;
    found["results"].as_array().cloned().unwrap_or_default()
}

/// `search` within a user's memories: `(id, score)` pairs, best first.
pub async fn scores(memory: &Memory, query: &str, user: &str) -> Vec<(String, f64)> {
    let found = ok(memory.search(js(&query), js(&json!({"userId": user})))).await;
    let results = found["results"].as_array().cloned().unwrap_or_default();
    results
        .iter()
        .map(|r| (r["id"].as_str().unwrap_or("").to_owned(), r["score"].as_f64().unwrap_or(f64::NAN)))
        .collect()
}

/// Deletes database `name` (closing this page's connections to it through their `versionchange` handlers).
pub async fn delete_database(name: &str) {
    let factory = idb::Factory::new().expect("IndexedDB");
    factory.delete(name).expect("deleteDatabase").await.expect("database deleted");
}

/// `length` characters that do not compress (IndexedDB compresses values; quota tests need real bytes).
pub fn noise(length: usize) -> String {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..length)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(state >> 58) as usize])
        })
        .collect()
}

/// JS that opens database `db` at schema `version` (1–4), creating the stores and indexes that version of
/// memwasm created, as `const db`: upgrade tests then write old records into it by hand.
pub fn open_old_schema_js(db: &str, version: u32) -> String {
    format!(
        "const db = await new Promise((ok, no) => {{
           const r = indexedDB.open('{db}', {version});
           r.onupgradeneeded = () => {{
             r.result.createObjectStore('memories', {{keyPath: 'id'}});
             const h = r.result.createObjectStore('history', {{keyPath: 'seq', autoIncrement: true}});
             h.createIndex('id', 'id', {{unique: true}}); h.createIndex('memoryId', 'memoryId'); h.createIndex('timestamp', 'timestamp');
             if ({version} >= 2) r.result.createObjectStore('graph');
             if ({version} >= 3) r.transaction.objectStore('memories').createIndex('key', 'key');
             if ({version} >= 4) r.result.createObjectStore('side');
           }};
           r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});"
    )
}

/// JS that opens database `db` at the version it has (no upgrade), as `const db`, to read it without the
/// library.
pub fn open_current_js(db: &str) -> String {
    format!(
        "const db = await new Promise((ok, no) => {{
           const r = indexedDB.open('{db}'); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); }});"
    )
}

/// Runs `body` (JS that reads database `db`, opened at its version as `const db`, closes it and returns
/// plain data) and returns what it returns as JSON.
pub async fn read_raw(db: &str, body: &str) -> Value {
    json_of(run_js(&format!("{} {body}", open_current_js(db))).await)
}

/// Runs a snippet of JS (the body of an async function) and returns what it returns.
pub async fn run_js(body: &str) -> JsValue {
    let function = Function::new_no_args(&format!("return (async () => {{ {body} }})();"));
    JsFuture::from(Promise::from(function.call0(&JsValue::NULL).expect("runs"))).await.expect("resolves")
}

/// Replaces the global `indexedDB` with the value of the JS expression `replacement` (awaited), keeping the
/// real one for `restore_indexeddb` (on a Window it is an own property of the global object).
pub async fn shadow_indexeddb(replacement: &str) {
    run_js(&format!(
        "const value = await ({replacement});
         globalThis.realIndexedDb = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB') ?? null;
         Object.defineProperty(globalThis, 'indexedDB', {{ value, configurable: true, writable: true }});"
    ))
    .await;
}

/// Puts the real `indexedDB` back.
pub async fn restore_indexeddb() {
    run_js(
        "delete globalThis.indexedDB;
         if (globalThis.realIndexedDb) Object.defineProperty(globalThis, 'indexedDB', globalThis.realIndexedDb);",
    )
    .await;
}

/// Memory `m{n:03}` of user alice (text `memory {n}`, hash `h{n}`), created at `created_at`, for the tests
/// that write through `Storage` directly.
pub fn alices_memory(n: usize, created_at: String, embedding: Option<Vec<f32>>) -> StoredMemory {
    let item = MemoryItem {
        id: format!("m{n:03}"),
        memory: format!("memory {n}"),
        hash: format!("h{n}"),
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at,
        updated_at: "2025-01-01T00:00:00.000Z".into(),
        scope: Scope { user_id: Some("alice".into()), ..Scope::default() },
        lifecycle: Default::default(),
    };
    StoredMemory { item, embedding }
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        let set_timeout: Function = Reflect::get(&js_sys::global(), &"setTimeout".into()).unwrap().unchecked_into();
        set_timeout.call2(&JsValue::NULL, &resolve, &ms.into()).unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// Polls `check` every 20 ms for up to `seconds`; true once it holds.
pub async fn eventually<F: std::future::Future<Output = bool>>(seconds: f64, mut check: impl FnMut() -> F) -> bool {
    let rounds = (seconds * 50.0) as usize;
    for _ in 0..rounds {
        if check().await {
            return true;
        }
        sleep(20).await;
    }
    check().await
}
