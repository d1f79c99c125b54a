//! recall(): the <memory> block, procedural memories first, within the token budget.

use futures_executor::block_on;
use memwasm::core::engine::recall::approx_tokens;
use memwasm::core::fusion::Method;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::ReadOptions;
use memwasm::core::testing::TableEmbedder;
use serde_json::json;

use crate::fixtures::*;

const PREFERENCE: &str = "Always answer in metric units";
const TRIP: &str = "2024-05-02: User drove to Lyon by car";

fn memory() -> Engine<TableEmbedder> {
    let engine = doubles(car_embedder()).engine();
    store(&engine, "alice", &[AUTOMOBILE, INSURANCE, RACING, GARDENING]);
    let typed = |text: &str, kind: &str, user: &str| {
        let options =
            AddOptions { metadata: Some(json!({"type": kind}).as_object().unwrap().clone()), ..add_options(user) };
        block_on(engine.add(&json!(text), &options)).unwrap();
    };
    typed(PREFERENCE, "procedural", "alice");
    typed(TRIP, "episodic", "alice");
    typed("Bob wants answers in imperial units", "procedural", "bob");
    engine
}

fn options(top_k: Option<f64>, budget: Option<f64>) -> ReadOptions {
    ReadOptions { top_k, token_budget: budget, ..user_options("alice") }
}

#[test]
fn text_is_the_seed_block_with_preferences_first() {
    let engine = memory();
    let recalled = recall_with(&engine, "car insurance", &options(Some(4.0), None)).unwrap();
    assert_eq!(recalled.method, Method::Hybrid);
    assert_eq!(
        recalled.text,
        format!("<memory>\n[PROCEDURAL] {PREFERENCE}\n[SEMANTIC] {INSURANCE}\n[SEMANTIC] {AUTOMOBILE}\n[SEMANTIC] {RACING}\n</memory>")
    );
    let texts: Vec<&str> = recalled.memories.iter().map(|m| m.memory.as_str()).collect();
    assert_eq!(texts, [PREFERENCE, INSURANCE, AUTOMOBILE, RACING]);
    assert_eq!(recalled.total_tokens, approx_tokens(&recalled.text));
    assert!((recalled.budget_used - recalled.total_tokens as f64 / 2000.0).abs() < 1e-12);
}

#[test]
fn preferences_come_first_even_when_the_query_misses_them() {
    let engine = memory();
    let keyword = ReadOptions { method: Some(Method::Keyword), ..options(Some(2.0), None) };
    let recalled = recall_with(&engine, "Lyon trip", &keyword).unwrap();
    assert_eq!(recalled.method, Method::Keyword);
    assert_eq!(recalled.text, format!("<memory>\n[PROCEDURAL] {PREFERENCE}\n[EPISODIC] {TRIP}\n</memory>"));
    assert!(!recalled.text.contains("imperial"), "bob's preference stays out");
}

#[test]
fn the_budget_is_never_exceeded() {
    let engine = memory();
    // The wrapper and the preference's line, counted as recall counts them: the smallest budget it fits in.
    let fits = approx_tokens("<memory>\n")
        + approx_tokens("</memory>")
        + approx_tokens(&format!("[PROCEDURAL] {PREFERENCE}\n"));
    for budget in 1..=80 {
        let recalled = recall_with(&engine, "car insurance", &options(Some(10.0), Some(budget as f64))).unwrap();
        assert!(recalled.total_tokens <= budget, "{budget}: {}", recalled.text);
        assert_eq!(recalled.total_tokens, approx_tokens(&recalled.text));
        // The preference goes first whenever it fits.
        let texts: Vec<&str> = recalled.memories.iter().map(|m| m.memory.as_str()).collect();
        assert_eq!(texts.first() == Some(&PREFERENCE), budget >= fits, "{budget}: {texts:?}");
    }
    let tight = recall_with(&engine, "car", &options(None, Some(fits as f64))).unwrap();
    assert_eq!(tight.memories[0].memory, PREFERENCE);
    // Too small for any line: nothing, not a broken block.
    let none = recall_with(&engine, "car", &options(None, Some(5.0))).unwrap();
    assert_eq!((none.text.as_str(), none.total_tokens, none.memories.len()), ("", 0, 0));
}

#[test]
fn options_are_validated() {
    let engine = memory();
    for (top_k, budget) in [(Some(-1.0), None), (Some(1.5), None), (None, Some(-3.0)), (None, Some(f64::NAN))] {
        assert_eq!(recall_with(&engine, "car", &options(top_k, budget)).unwrap_err().code(), "INVALID_INPUT");
    }
    assert_eq!(recall_with(&engine, "car", &ReadOptions::default()).unwrap_err().code(), "SCOPE_REQUIRED");
    assert_eq!(recall_with(&engine, " ", &options(None, None)).unwrap_err().code(), "INVALID_INPUT");
    let bad_filter = ReadOptions { filters: Some(json!({"AND": 1})), ..options(None, None) };
    assert_eq!(recall_with(&engine, "car", &bad_filter).unwrap_err().code(), "INVALID_FILTER");
}
