//! Message-by-message memory in IndexedDB through the JS `Memory` API, in headless Chromium: a page
//! reload mid-buffer (the `Memory` dropped, a new one opened on the same database) keeps the pending
//! messages, and what comes after the reload extracts them. No LLM: the hard boundary rules apply and an
//! episode is stored as its transcript. Each test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use browser_support::*;
use memwasm::Memory;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A message of group `rocket`.
fn message(id: &str, time: &str, sender: &str, content: &str) -> Value {
    json!({"messageId": id, "createTime": time, "sender": sender, "content": content, "groupId": "rocket"})
}

/// `addMessage(message)` → its result as JSON.
async fn send(memory: &Memory, message: &Value) -> Value {
    ok(memory.add_message(js(message))).await
}

/// The message ids of a result's `pendingMessages`.
fn pending(result: &Value) -> Vec<String> {
    let messages = result["pendingMessages"].as_array().cloned().unwrap_or_default();
    messages.iter().map(|m| m["messageId"].as_str().unwrap_or_default().to_owned()).collect()
}

/// The group's episodic memories, oldest first.
async fn episodes(memory: &Memory) -> Vec<Value> {
    let found = ok(memory.get_all(js(&json!({"runId": "rocket", "memoryTypes": ["episodic"]})))).await;
    found["results"].as_array().cloned().unwrap_or_default()
}

const M1: (&str, &str, &str, &str) = ("m1", "2025-03-03T09:00:00Z", "alice", "The launch review moved to Thursday.");
const M2: (&str, &str, &str, &str) = ("m2", "2025-03-03T09:05:00Z", "bob", "I will prepare the slides.");

fn m((id, time, sender, content): (&str, &str, &str, &str)) -> Value {
    message(id, time, sender, content)
}

#[wasm_bindgen_test]
async fn a_reload_mid_buffer_keeps_the_pending_messages_and_a_flush_extracts_them() {
    let db = "conversations-reload";
    delete_database(db).await;
    let page = open(db).await;
    assert_eq!(pending(&send(&page, &m(M1)).await), ["m1"]);
    let second = send(&page, &m(M2)).await;
    assert_eq!((second["status"].as_str(), pending(&second)), (Some("accumulated"), vec!["m1".into(), "m2".into()]));
    drop(page);

    let reloaded = open(db).await;
    let again = send(&reloaded, &m(M2)).await;
    assert_eq!(again["duplicate"], json!(true), "m2 was already received before the reload");
    assert_eq!(pending(&again), ["m1", "m2"], "both messages survived the reload");
    assert_eq!(again["pendingMessages"][0]["content"], M1.3);
    assert!(episodes(&reloaded).await.is_empty(), "nothing extracted yet");

    let flushed = ok(reloaded.flush_group(js(&"rocket"))).await;
    assert_eq!(flushed["status"], "extracted");
    assert_eq!(flushed["episodes"][0]["cause"], "flush");
    assert_eq!(flushed["episodes"][0]["messageIds"], json!(["m1", "m2"]));
    assert_eq!(pending(&flushed), Vec::<String>::new());
    let stored = episodes(&reloaded).await;
    assert_eq!(stored.len(), 1);
    let transcript = stored[0]["memory"].as_str().unwrap_or_default();
    assert!(transcript.contains(M1.3) && transcript.contains(M2.3), "the transcript of both: {transcript}");
    drop(reloaded);

    let after_flush = open(db).await;
    let resent = send(&after_flush, &m(M1)).await;
    assert_eq!((resent["duplicate"].clone(), pending(&resent)), (json!(true), vec![]), "extracted ids are remembered");
    assert_eq!(episodes(&after_flush).await.len(), 1);
    delete_database(db).await;
}

#[wasm_bindgen_test]
async fn after_a_reload_a_gap_closes_the_buffer_kept_from_before_it() {
    let db = "conversations-reload-gap";
    delete_database(db).await;
    let page = open(db).await;
    send(&page, &m(M1)).await;
    send(&page, &m(M2)).await;
    drop(page);

    let reloaded = open(db).await;
    let late = message("m3", "2025-03-03T10:00:00Z", "alice", "Anyone for lunch?");
    let result = send(&reloaded, &late).await;
    assert_eq!(result["status"], "extracted");
    assert_eq!(result["episodes"][0]["cause"], "gap");
    assert_eq!(result["episodes"][0]["messageIds"], json!(["m1", "m2"]));
    assert_eq!(pending(&result), ["m3"]);
    drop(reloaded);

    let reopened = open(db).await;
    let stored = episodes(&reopened).await;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["metadata"]["startTime"], "2025-03-03T09:00:00.000Z");
    assert_eq!(pending(&send(&reopened, &late).await), ["m3"], "m3 still waits after another reload");
    delete_database(db).await;
}
