//! mem0 OSS's `Memory` behaviours, natively: scoping through `filters`, `update` with a patch, mem0's
//! `expirationDate` (hidden, not deleted), `disableHistory`, and an unreachable LLM rejecting `add()`.
#![cfg(not(target_arch = "wasm32"))]

use futures_executor::block_on;
use memwasm::core::engine::update::UpdatePatch;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{ReadCall, ReadOptions};
use memwasm::core::testing::{KeepingStorage, Letters, ScriptedLlm};
use memwasm::MemoryEngine;
use serde_json::{json, Value};

type Engine = MemoryEngine<ScriptedLlm, Letters, KeepingStorage>;

fn engine() -> (Engine, ScriptedLlm) {
    let doubles = memwasm::core::testing::Doubles {
        llm: ScriptedLlm::new(),
        embedder: Letters::new(26).folding_case(),
        storage: KeepingStorage::new(),
    };
    (doubles.engine(), doubles.llm)
}

fn options<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

/// Stores `text` as it is (no LLM) with `extra` add options; returns its id.
fn verbatim(engine: &Engine, text: &str, extra: Value) -> String {
    let mut add = json!({"infer": false, "filters": {"user_id": "u"}});
    add.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    let result = block_on(engine.add(&json!(text), &options::<AddOptions>(add))).unwrap();
    result.results[0].id.clone()
}

fn texts(engine: &Engine, read: Value) -> Vec<String> {
    let read = options::<ReadOptions>(read).check(ReadCall::GetAll).unwrap();
    block_on(engine.get_all(&read)).unwrap().results.into_iter().map(|m| m.memory).collect()
}

#[test]
fn entity_ids_in_filters_scope_every_call() {
    let (engine, _) = engine();
    verbatim(&engine, "User likes tea", json!({"metadata": {"category": "drinks", "user_id": "intruder"}}));
    let item =
        &block_on(engine.get_all(&options::<ReadOptions>(json!({"userId": "u"})).check(ReadCall::GetAll).unwrap()))
            .unwrap()
            .results[0];
    assert_eq!(item.scope.user_id.as_deref(), Some("u"));
    assert!(!item.metadata.contains_key("user_id"), "scope keys never land in metadata");
    assert_eq!(texts(&engine, json!({"filters": {"user_id": "u", "category": "drinks"}})), ["User likes tea"]);
    assert!(texts(&engine, json!({"filters": {"user_id": "u", "category": "food"}})).is_empty());
    let missing = options::<ReadOptions>(json!({"filters": {"category": "drinks"}})).check(ReadCall::GetAll);
    assert_eq!(missing.unwrap_err().code(), "SCOPE_REQUIRED");
    let spaced = options::<ReadOptions>(json!({"filters": {"user_id": "a b"}})).check(ReadCall::Search);
    assert_eq!(spaced.unwrap_err().code(), "INVALID_INPUT");
}

#[test]
fn update_patches_text_metadata_and_expiration_date_with_one_record_each() {
    let (engine, _) = engine();
    let id = verbatim(&engine, "Before", json!({"metadata": {"a": 1}}));
    block_on(engine.update_with(&id, &options::<UpdatePatch>(json!({"metadata": {"b": 2}})))).unwrap();
    let item = block_on(engine.get(&id)).unwrap().unwrap();
    assert_eq!(
        (item.memory.as_str(), item.metadata.get("a"), item.metadata.get("b")),
        ("Before", Some(&json!(1)), Some(&json!(2)))
    );
    block_on(engine.update_with(&id, &options::<UpdatePatch>(json!({"text": "", "data": "ignored"})))).unwrap();
    assert_eq!(block_on(engine.get(&id)).unwrap().unwrap().memory, "", "text wins over data, even empty");
    block_on(engine.update_with(&id, &options::<UpdatePatch>(json!({"expirationDate": "2099-12-31"})))).unwrap();
    let item = block_on(engine.get(&id)).unwrap().unwrap();
    assert_eq!(item.metadata.get("expiration_date"), Some(&json!("2099-12-31")));
    for nothing in [json!({}), json!({"data": null}), json!({"metadata": null})] {
        let error = block_on(engine.update_with(&id, &options::<UpdatePatch>(nothing))).unwrap_err();
        assert!(error.to_string().contains("At least one of text, metadata, or expirationDate"), "{error}");
    }
    let bad = block_on(engine.update_with(&id, &options::<UpdatePatch>(json!({"expirationDate": "12/31/2099"}))));
    assert!(bad.unwrap_err().to_string().contains("YYYY-MM-DD"));
    let history = block_on(engine.history(&id)).unwrap();
    assert_eq!(history.len(), 4, "ADD and three UPDATEs; refused patches leave nothing");
}

#[test]
fn a_past_expiration_date_hides_a_memory_until_cleared() {
    let (engine, _) = engine();
    verbatim(&engine, "Live", json!({}));
    let dead = verbatim(&engine, "Dead", json!({"expirationDate": "2020-01-01"}));
    assert_eq!(texts(&engine, json!({"userId": "u"})), ["Live"]);
    assert_eq!(texts(&engine, json!({"userId": "u", "showExpired": true})), ["Live", "Dead"]);
    assert!(block_on(engine.get(&dead)).unwrap().is_some(), "kept, and get() still finds it");
    block_on(engine.update_with(&dead, &options::<UpdatePatch>(json!({"expirationDate": null})))).unwrap();
    assert_eq!(texts(&engine, json!({"userId": "u"})), ["Live", "Dead"]);
    let bad = block_on(engine.add(
        &json!("x"),
        &options::<AddOptions>(json!({"userId": "u", "infer": false, "expirationDate": "2100-02-29"})),
    ));
    assert_eq!(bad.unwrap_err().code(), "INVALID_INPUT");
}

#[test]
fn an_unreachable_llm_leaves_add_empty_with_a_coded_warning_as_seed_000_says() {
    let (engine, llm) = engine();
    llm.fail_when(|_| true);
    let result = block_on(engine.add(&json!("I like tea"), &options::<AddOptions>(json!({"userId": "u"})))).unwrap();
    assert!(result.results.is_empty());
    assert_eq!(result.warnings[0].code.as_str(), "EXTRACTION_FAILED");
    assert_eq!(result.warnings[0].cause, Some("LLM_HTTP"));
}

#[test]
fn without_history_changes_leave_no_records() {
    let (mut engine, _) = engine();
    engine.set_keep_history(false);
    let id = verbatim(&engine, "Quiet", json!({}));
    block_on(engine.update(&id, "Quieter")).unwrap();
    assert!(block_on(engine.history(&id)).unwrap().is_empty());
    assert_eq!(block_on(engine.get(&id)).unwrap().unwrap().memory, "Quieter");
}

#[test]
fn nothing_to_remember_is_refused_with_mem0_messages() {
    let (engine, _) = engine();
    let add = |messages: Value| {
        block_on(engine.add(&messages, &options::<AddOptions>(json!({"userId": "u"})))).unwrap_err().to_string()
    };
    assert!(add(json!("")).contains("messages string cannot be empty"));
    assert!(add(json!([])).contains("messages array cannot be empty"));
    assert!(add(json!([{"role": "user", "content": "  "}])).contains("only blank content"));
}
