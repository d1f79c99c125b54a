use serde_json::json;

use super::*;
use crate::core::model::scope::Scope;

fn item(memory: &str, metadata: Value) -> MemoryItem {
    MemoryItem {
        id: "id-1".into(),
        memory: memory.into(),
        hash: "h".into(),
        metadata: metadata.as_object().cloned().unwrap_or_default().into(),
        score: None,
        fused_score: None,
        created_at: "2024-03-15T10:00:00.000Z".into(),
        updated_at: "2024-03-16T10:00:00.000Z".into(),
        scope: Scope { user_id: Some("alice".into()), agent_id: None, run_id: None },
        lifecycle: Default::default(),
    }
}

fn check(filter: Value, target: &MemoryItem) -> bool {
    Filter::parse(&filter).unwrap().matches(target)
}

fn cond(field: &str, operator: &str, value: Value) -> Value {
    json!({"field": field, "operator": operator, "value": value})
}

#[test]
fn every_operator_on_metadata() {
    let it = item("User likes Python for ML", json!({"tag": "work", "priority": 3, "score": 0.9, "tags": ["a", "B"]}));
    let cases = [
        (cond("tag", "eq", json!("work")), true),
        (cond("tag", "eq", json!("home")), false),
        (cond("priority", "eq", json!(3.0)), true),
        (cond("tag", "ne", json!("home")), true),
        (cond("tag", "ne", json!("work")), false),
        (cond("score", "gt", json!(0.8)), true),
        (cond("score", "gt", json!(0.9)), false),
        (cond("score", "gte", json!(0.9)), true),
        (cond("priority", "lt", json!(5)), true),
        (cond("priority", "lt", json!(3)), false),
        (cond("priority", "lte", json!(3)), true),
        (cond("priority", "gt", json!("2")), false),
        (cond("tag", "in", json!(["work", "personal"])), true),
        (cond("tag", "in", json!(["spam"])), false),
        (cond("tags", "in", json!(["B", "z"])), true),
        (cond("tag", "nin", json!(["spam"])), true),
        (cond("tag", "nin", json!(["work"])), false),
        (cond("memory", "contains", json!("Python")), true),
        (cond("memory", "contains", json!("python")), false),
        (cond("memory", "icontains", json!("PYTHON")), true),
        (cond("memory", "icontains", json!("rust")), false),
        (cond("tags", "contains", json!("a")), true),
        (cond("tags", "icontains", json!("b")), true),
        (cond("tags", "contains", json!("b")), false),
    ];
    for (filter, expected) in cases {
        assert_eq!(check(filter.clone(), &it), expected, "{filter}");
    }
}

#[test]
fn top_level_fields_in_both_spellings() {
    let it = item("User lives in NYC", json!({}));
    assert!(check(cond("createdAt", "gte", json!("2024-01-01")), &it));
    assert!(!check(cond("created_at", "gte", json!("2025-01-01")), &it));
    assert!(check(cond("updatedAt", "lt", json!("2024-03-17")), &it));
    assert!(check(cond("userId", "eq", json!("alice")), &it));
    assert!(check(cond("user_id", "eq", json!("alice")), &it));
    assert!(check(cond("agentId", "ne", json!("x")), &it));
    assert!(check(cond("id", "eq", json!("id-1")), &it));
    assert!(check(cond("hash", "eq", json!("h")), &it));
}

#[test]
fn missing_fields_only_satisfy_negative_operators() {
    let it = item("x", json!({"nothing": null}));
    for op in ["eq", "gt", "gte", "lt", "lte", "contains", "icontains"] {
        let value = if op == "in" { json!(["a"]) } else { json!("a") };
        assert!(!check(cond("absent", op, value), &it), "{op}");
    }
    assert!(!check(cond("absent", "in", json!(["a"])), &it));
    assert!(check(cond("absent", "ne", json!("a")), &it));
    assert!(check(cond("absent", "nin", json!(["a"])), &it));
    assert!(check(cond("nothing", "eq", json!(null)), &it));
    assert!(!check(cond("nothing", "ne", json!(null)), &it));
}

#[test]
fn nested_and_or_not_and_dotted_paths() {
    let it = item("User likes Python", json!({"category": "work", "project": {"name": "apollo", "size": 7}}));
    let filter = json!({"AND": [
        cond("category", "eq", json!("work")),
        {"OR": [cond("memory", "icontains", json!("java")), cond("memory", "icontains", json!("python"))]},
        {"NOT": cond("project.name", "eq", json!("zeus"))},
        cond("project.size", "gt", json!(5)),
    ]});
    assert!(check(filter, &it));
    assert!(!check(json!({"NOT": cond("project.name", "eq", json!("apollo"))}), &it));
    assert!(!check(
        json!({"AND": [cond("category", "eq", json!("work")), cond("category", "eq", json!("home"))]}),
        &it
    ));
    assert!(check(json!({"or": [cond("category", "eq", json!("home")), cond("category", "eq", json!("work"))]}), &it));
    assert!(check(json!({"AND": []}), &it));
    assert!(!check(json!({"OR": []}), &it));
}

#[test]
fn shorthand_means_every_key_equals() {
    let it = item("x", json!({"category": "work", "n": 1}));
    assert!(check(json!({"category": "work"}), &it));
    assert!(check(json!({"category": "work", "n": 1, "userId": "alice"}), &it));
    assert!(!check(json!({"category": "work", "n": 2}), &it));
}

#[test]
fn malformed_filters_are_rejected_with_a_reason() {
    let bad = [
        json!("tag = work"),
        json!(42),
        json!({}),
        json!({"field": "tag", "operator": "like", "value": "w"}),
        json!({"field": "tag", "operator": "eq"}),
        json!({"operator": "eq", "value": "w"}),
        json!({"field": "", "operator": "eq", "value": "w"}),
        json!({"field": "tag", "operator": "in", "value": "work"}),
        json!({"field": "tag", "operator": "gt", "value": {"a": 1}}),
        json!({"field": "tag", "operator": "icontains", "value": 3}),
        json!({"field": "tag", "operator": "eq", "value": "w", "extra": 1}),
        json!({"AND": {"field": "tag"}}),
        json!({"AND": [], "OR": []}),
        json!({"OR": [{"field": "tag", "operator": "nope", "value": 1}]}),
        json!({"NOT": [cond("a", "eq", json!(1))]}),
        json!({"category": {"nested": true}}),
    ];
    for filter in bad {
        let error = Filter::parse(&filter).unwrap_err();
        assert_eq!(error.code(), "INVALID_FILTER", "{filter}");
    }
}

#[test]
fn absurd_nesting_is_rejected_not_overflowed() {
    let mut filter = cond("a", "eq", json!(1));
    for _ in 0..100 {
        filter = json!({ "NOT": filter });
    }
    assert_eq!(Filter::parse(&filter).unwrap_err().code(), "INVALID_FILTER");
}

#[test]
fn a_filter_over_the_node_limit_is_refused() {
    let wide = |n: usize| json!({"AND": (0..n).map(|i| json!({"k": i})).collect::<Vec<_>>()});
    assert!(Filter::parse(&wide(crate::core::limits::MAX_FILTER_NODES - 1)).is_ok());
    let error = Filter::parse(&wide(crate::core::limits::MAX_FILTER_NODES)).unwrap_err();
    assert_eq!(error.code(), "INVALID_FILTER");
    assert!(error.to_string().contains("limit of 1000"), "{error}");
}
