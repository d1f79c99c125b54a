//! The embedding model recorded with an IndexedDB store's vectors, in headless Chromium through the JS
//! `Memory`: reopening the database with another model rejects `EMBEDDING_MODEL_CHANGED` under strict, and
//! `reembed()` makes the store the new model's. The test deletes its database first and last.
#![cfg(target_arch = "wasm32")]

mod browser_support;

use browser_support::*;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `config(db)` with the embedder's `model`, strict or not.
fn with_model(db: &str, model: &str, strict: bool) -> Value {
    let mut config = config(db);
    config["embedder"]["config"]["model"] = json!(model);
    config["strict"] = json!(strict);
    config
}

#[wasm_bindgen_test]
async fn another_model_is_refused_under_strict_until_reembed() {
    let db = "embedding-model";
    delete_database(db).await;
    let first = open_with(with_model(db, "embed-a", true)).await.expect("a new store opens");
    remember(&first, "likes tea", "alice").await;

    assert!(open_with(with_model(db, "embed-a", true)).await.is_ok(), "the same model opens");
    let (code, message) = open_with(with_model(db, "embed-b", true)).await.err().expect("another model is refused");
    assert_eq!(code, "EMBEDDING_MODEL_CHANGED");
    assert!(message.contains("openai/embed-a") && message.contains("openai/embed-b"), "{message}");

    let other = open_with(with_model(db, "embed-b", false)).await.expect("opens with a warning");
    assert_eq!(ok(other.reembed(JsValue::UNDEFINED)).await["memories"], json!(1));
    assert!(open_with(with_model(db, "embed-b", true)).await.is_ok(), "the store is embed-b's now");
    assert_eq!(
        open_with(with_model(db, "embed-a", true)).await.err().map(|(code, _)| code).as_deref(),
        Some("EMBEDDING_MODEL_CHANGED")
    );
    drop((first, other));
    delete_database(db).await;
}
