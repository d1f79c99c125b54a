use crate::core::model::scope_fields::ScopeFields;
use serde_json::{json, Value};

use super::*;

fn options(value: Value) -> std::result::Result<ReadOptions, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}

fn check(value: Value, call: ReadCall) -> Result<Read> {
    options(value).unwrap().check(call)
}

#[test]
fn scope_limit_threshold_and_filter_are_validated() {
    let read = check(json!({"userId": "u"}), ReadCall::Search).unwrap();
    assert_eq!((read.limit, read.scope.user_id.as_deref()), (DEFAULT_LIMIT, Some("u")));
    assert_eq!(check(json!({"userId": "u", "limit": 3}), ReadCall::GetAll).unwrap().limit, 3);
    for limit in [json!(0), json!(-1), json!(2.5)] {
        assert_eq!(
            check(json!({"userId": "u", "limit": limit}), ReadCall::Search).unwrap_err().code(),
            "INVALID_INPUT"
        );
    }
    let nan = ReadOptions { scope: ScopeFields::user("u"), limit: Some(f64::NAN), ..ReadOptions::default() };
    assert_eq!(nan.check(ReadCall::Search).unwrap_err().code(), "INVALID_INPUT");
    let infinite =
        ReadOptions { scope: ScopeFields::user("u"), threshold: Some(f64::INFINITY), ..ReadOptions::default() };
    assert_eq!(infinite.check(ReadCall::Search).unwrap_err().code(), "INVALID_INPUT");
    assert_eq!(
        check(json!({"userId": "u", "filters": {"AND": 1}}), ReadCall::Search).unwrap_err().code(),
        "INVALID_FILTER"
    );
    assert_eq!(check(json!({}), ReadCall::Search).unwrap_err().code(), "SCOPE_REQUIRED");
}

#[test]
fn unknown_keys_are_refused_by_name() {
    let error = options(json!({"userId": "u", "topk": 5})).unwrap_err();
    assert!(error.contains("topk"), "{error}");
    assert!(options(json!({"user": "u"})).is_err());
}

#[test]
fn each_call_refuses_the_keys_it_does_not_use() {
    let cases = [
        (json!({"userId": "u", "threshold": 0.5}), ReadCall::GetAll, "threshold"),
        (json!({"userId": "u", "method": "keyword"}), ReadCall::GetAll, "method"),
        (json!({"userId": "u", "limit": 3}), ReadCall::DeleteAll, "limit"),
        (json!({"userId": "u", "tokenBudget": 10}), ReadCall::Search, "tokenBudget"),
        (json!({"userId": "u", "filters": {"k": 1}}), ReadCall::ScopeOnly, "filters"),
    ];
    for (value, call, key) in cases {
        let error = check(value.clone(), call).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT", "{value}");
        assert!(error.to_string().contains(key), "{value}: {error}");
    }
    assert!(check(json!({"userId": "u", "filters": {"k": 1}}), ReadCall::DeleteAll).unwrap().filter.is_some());
}

#[test]
fn top_k_is_limit_by_another_name() {
    assert_eq!(check(json!({"userId": "u", "topK": 5}), ReadCall::Search).unwrap().limit, 5);
    assert_eq!(check(json!({"user_id": "u", "top_k": 7}), ReadCall::GetAll).unwrap().limit, 7);
    assert_eq!(check(json!({"userId": "u", "limit": 4, "topK": 4}), ReadCall::Recall).unwrap().limit, 4);
    let both = check(json!({"userId": "u", "limit": 4, "topK": 5}), ReadCall::Search).unwrap_err();
    assert!(both.to_string().contains("topK"), "{both}");
    assert_eq!(check(json!({"userId": "u", "topK": 0}), ReadCall::Search).unwrap().limit, 0, "mem0: finds nothing");
    assert_eq!(check(json!({"userId": "u", "limit": 0}), ReadCall::Search).unwrap_err().code(), "INVALID_INPUT");
    let negative = check(json!({"userId": "u", "topK": -1}), ReadCall::GetAll).unwrap_err().to_string();
    assert!(negative.contains("Invalid topK: -1. Must be a non-negative integer."), "{negative}");
    let fraction = check(json!({"userId": "u", "topK": 1.5}), ReadCall::Search).unwrap_err().to_string();
    assert!(fraction.contains("topK must be a valid integer"), "{fraction}");
    assert_eq!(check(json!({"userId": "u"}), ReadCall::Recall).unwrap().limit, DEFAULT_RECALL_LIMIT);
}

#[test]
fn snake_case_scope_keys_are_aliases() {
    let read = check(json!({"user_id": "u", "agent_id": "a", "run_id": "r"}), ReadCall::Search).unwrap();
    assert_eq!(read.scope, Scope { user_id: Some("u".into()), agent_id: Some("a".into()), run_id: Some("r".into()) });
}

#[test]
fn weights_are_checked_and_scaled() {
    let read = check(json!({"userId": "u", "weights": {"vector": 1, "keyword": 1}}), ReadCall::Search).unwrap();
    assert_eq!((read.weights.vector, read.weights.keyword), (0.5, 0.5));
    let zero = check(json!({"userId": "u", "weights": {"vector": 0, "keyword": 0}}), ReadCall::Search);
    assert_eq!(zero.unwrap_err().code(), "INVALID_INPUT");
}

#[test]
fn a_tenant_wide_read_takes_an_empty_scope_and_every_type() {
    let read = Read::tenant_wide(Scope::default(), 10.0, Some(0.1)).unwrap();
    assert_eq!((read.limit, read.threshold, read.memory_types), (10, Some(0.1), None));
    assert_eq!(Read::tenant_wide(Scope::default(), 3.0, Some(0.0)).unwrap().threshold, None, "0 is no threshold");
    let options = check(json!({"userId": "u", "threshold": 1.5}), ReadCall::Search).unwrap_err();
    let tenant = Read::tenant_wide(Scope::default(), 3.0, Some(1.5)).unwrap_err();
    assert_eq!(tenant, options, "one threshold check");
    assert_eq!(tenant.to_string(), "invalid input: Invalid threshold: 1.5. Must be between 0 and 1 (inclusive).");
    let top_k = Read::tenant_wide(Scope::default(), -1.0, None).unwrap_err().to_string();
    assert!(top_k.contains("Invalid topK: -1."), "{top_k}");
}
