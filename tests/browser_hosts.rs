//! A slow model host, in headless Chromium through the page's `fetch` (docs/timeouts-and-retries.md): the
//! liveness probe is a `no-cors` GET of the host's origin, another origin than the page's. Chromium fails such
//! a request whose answer it blocks (opaque-response blocking: the scripted server answers a JSON 404) with a
//! network error that gives no reason; that still counts as an answer, so a slow embedder is waited for, not
//! taken for a dead one. In-memory storage, no LLM (each text is stored as it is).
#![cfg(target_arch = "wasm32")]

mod browser_support;

use browser_support::*;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A config embedding through `base_url` with these extra embedder options; retries far apart, so a retried
/// call would take ten seconds more.
fn config_at(base_url: &str, extra: Value) -> Value {
    let mut embedder = json!({"baseUrl": base_url, "apiKey": "test"});
    embedder.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    json!({
        "llm": {"provider": "none"},
        "embedder": {"provider": "openai", "config": embedder},
        "retry": {"maxRetries": 3, "baseDelayMs": 10_000},
    })
}

/// The probes the scripted server got so far (GET requests of its root).
async fn probes() -> f64 {
    let url = format!("{}/__requests?path=/", server());
    let body =
        format!("const r = await fetch('{url}'); return (await r.json()).filter((e) => e.method === 'GET').length;");
    run_js(&body).await.as_f64().expect("a count")
}

/// `add(text, {userId: "u"})`'s warnings as `(code, cause)` pairs.
async fn add_warnings(memory: &memwasm::Memory, text: &str) -> Vec<(String, String)> {
    let added = ok(memory.add(js(&text), js(&json!({"userId": "u"})))).await;
    let warnings = added["warnings"].as_array().cloned().unwrap_or_default();
    let field = |w: &Value, name: &str| w[name].as_str().unwrap_or("").to_owned();
    warnings.iter().map(|w| (field(w, "code"), field(w, "cause"))).collect()
}

#[wasm_bindgen_test]
async fn a_slow_embedder_on_another_origin_answers_the_probe_and_is_waited_for() {
    let rule = json!({"kind": "embedding", "match": "slow oolong", "delayMs": 1500, "times": 1});
    run_js(&format!("await fetch('{}/__script', {{method: 'POST', body: JSON.stringify({rule})}});", server())).await;
    let before = probes().await;
    let memory =
        open_with(config_at(&format!("{}/v1", server()), json!({"connectTimeoutMs": 200}))).await.expect("opens");
    assert_eq!(add_warnings(&memory, "User likes slow oolong").await, [], "embedded after the wait");
    assert!(probes().await > before, "a probe reached the embedder's origin");
}
