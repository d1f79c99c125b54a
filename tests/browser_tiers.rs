//! The background writer's queue in IndexedDB through the JS `Memory` API, in headless Chromium: turns flushed
//! in a tab that closes before the debounce ends are written when the next tab opens the same database. No
//! LLM: the turns are stored as they are. Each test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use browser_support::*;
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_closed_tab_s_queue_resumes_on_the_next_open() {
    let db = "tiers-queue";
    delete_database(db).await;
    let mut slow = config(db);
    slow["background"] = json!({"debounceMs": 3_600_000});
    let closing = open_with(slow).await.expect("opens");
    ok(closing.flush(js(&json!([{"role": "user", "content": "I moved to Lisbon"}])), js(&json!({"userId": "alice"}))))
        .await;
    ok(closing.flush(js(&"and I adopted a cat"), js(&json!({"userId": "alice"})))).await;
    assert!(all_of(&closing, "alice").await.is_empty(), "nothing written while the debounce runs");
    drop(closing);

    let reopened = open(db).await;
    ok(reopened.idle()).await;
    let texts: Vec<String> =
        all_of(&reopened, "alice").await.iter().map(|m| m["memory"].as_str().unwrap_or("").to_owned()).collect();
    assert_eq!(texts, ["I moved to Lisbon", "and I adopted a cat"], "the queued turns were written after the reload");
    let days = ok(reopened.journals(js(&json!({"userId": "alice"})))).await;
    assert_eq!(days[0]["turns"], json!(2), "and journaled once, when they were flushed");
    let again = open(db).await;
    ok(again.idle()).await;
    assert_eq!(all_of(&again, "alice").await.len(), 2, "a written batch is not resumed again");
    delete_database(db).await;
}
