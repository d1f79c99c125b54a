//! The input limits (`core::limits`), natively: each refused with `INVALID_INPUT` naming the limit, and
//! nothing stored.
#![cfg(not(target_arch = "wasm32"))]

use futures_executor::block_on;
use memwasm::core::engine::transfer::from_jsonl;
use memwasm::core::limits::{MAX_IMPORT_LINE_BYTES, MAX_IMPORT_MEMORIES, MAX_MESSAGES_PER_ADD, MAX_MESSAGE_BYTES};
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::testing::{letter_engine, KeepingStorage};
use serde_json::json;

fn alice() -> AddOptions {
    AddOptions { scope: ScopeFields::user("alice"), infer: Some(false), ..AddOptions::default() }
}

fn stored(
    engine: &memwasm::MemoryEngine<memwasm::core::testing::NoLlm, memwasm::core::testing::Letters, KeepingStorage>,
) -> usize {
    let read = Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, DEFAULT_LIMIT);
    block_on(engine.get_all(&read)).unwrap().total_count
}

#[test]
fn add_refuses_too_many_messages_and_too_long_ones_and_stores_nothing() {
    let engine = letter_engine(KeepingStorage::new());
    let many: Vec<_> =
        (0..=MAX_MESSAGES_PER_ADD).map(|i| json!({"role": "user", "content": format!("note {i}")})).collect();
    let error = block_on(engine.add(&json!(many), &alice())).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT");
    assert!(error.to_string().contains(&format!("{MAX_MESSAGES_PER_ADD} messages")), "{error}");
    let long = "a".repeat(MAX_MESSAGE_BYTES + 1);
    let error = block_on(engine.add(&json!(long), &alice())).unwrap_err();
    assert!(error.to_string().contains(&format!("{MAX_MESSAGE_BYTES} bytes")), "{error}");
    assert_eq!(stored(&engine), 0);
    let at_limit: Vec<_> =
        (0..MAX_MESSAGES_PER_ADD).map(|i| json!({"role": "user", "content": format!("note {i}")})).collect();
    block_on(engine.add(&json!(at_limit), &alice())).unwrap();
    assert_eq!(stored(&engine), MAX_MESSAGES_PER_ADD);
}

#[test]
fn import_refuses_a_line_or_a_count_over_the_limit_naming_the_line() {
    let header = |memories: usize| {
        json!({"kind": "memwasm-export", "version": 2, "memories": memories, "history": 0}).to_string()
    };
    let long = format!("{}\n{{\"kind\":\"history\",\"pad\":\"{}\"}}", header(0), "x".repeat(MAX_IMPORT_LINE_BYTES));
    let error = from_jsonl(&long).unwrap_err().to_string();
    assert!(error.contains("line 2") && error.contains(&format!("{MAX_IMPORT_LINE_BYTES} bytes")), "{error}");

    let error = from_jsonl(&header(MAX_IMPORT_MEMORIES + 1)).unwrap_err().to_string();
    assert!(error.contains("line 1") && error.contains(&format!("{MAX_IMPORT_MEMORIES} memories")), "{error}");
    let error = from_jsonl(&header(MAX_IMPORT_MEMORIES)).unwrap_err().to_string();
    assert!(error.contains("promises"), "at the limit the header is fine, the missing lines are not: {error}");
}
