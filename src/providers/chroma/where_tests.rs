use serde_json::{json, Value};

use super::*;

fn filter(value: Value) -> Filter {
    Filter::parse(&value).unwrap()
}

fn alice() -> Scope {
    Scope { user_id: Some("alice".into()), ..Scope::default() }
}

fn translated(value: Value) -> Option<Value> {
    where_clause(&Scope::default(), Some(&filter(value)))
}

#[test]
fn the_scope_alone_is_an_eq_per_id() {
    assert_eq!(where_clause(&alice(), None), Some(json!({"user_id": {"$eq": "alice"}})));
    let both = Scope { agent_id: Some("bot".into()), ..alice() };
    assert_eq!(
        where_clause(&both, None),
        Some(json!({"$and": [{"user_id": {"$eq": "alice"}}, {"agent_id": {"$eq": "bot"}}]}))
    );
    assert_eq!(where_clause(&Scope::default(), None), None);
}

#[test]
fn comparisons_chroma_can_check_are_sent() {
    assert_eq!(translated(json!({"category": "work"})), Some(json!({"category": {"$eq": "work"}})));
    let ne = translated(json!({"field": "n", "operator": "ne", "value": 3}));
    assert_eq!(ne, Some(json!({"n": {"$ne": 3.0}})));
    let gte = translated(json!({"field": "priority", "operator": "gte", "value": 2}));
    assert_eq!(gte, Some(json!({"priority": {"$gte": 2.0}})));
    let nin = translated(json!({"field": "tag", "operator": "nin", "value": ["a", "b"]}));
    assert_eq!(nin, Some(json!({"tag": {"$nin": ["a", "b"]}})));
    let user = translated(json!({"field": "userId", "operator": "ne", "value": "bob"}));
    assert_eq!(user, Some(json!({"user_id": {"$ne": "bob"}})));
}

#[test]
fn in_also_lets_array_fields_through() {
    assert_eq!(
        translated(json!({"field": "tag", "operator": "in", "value": [1, 2.5]})),
        Some(json!({"$or": [{"tag": {"$in": [1.0, 2.5]}}, {"memwasm_arrays": {"$contains": "tag"}}]}))
    );
}

#[test]
fn what_chroma_cannot_check_stays_local() {
    for local in [
        json!({"field": "memory", "operator": "icontains", "value": "x"}),
        json!({"field": "note", "operator": "contains", "value": "x"}),
        json!({"field": "createdAt", "operator": "gte", "value": "2024-01-01"}),
        json!({"field": "day", "operator": "gt", "value": "2024-01-01"}),
        json!({"field": "x", "operator": "eq", "value": null}),
        json!({"field": "x", "operator": "eq", "value": [1]}),
        json!({"field": "x", "operator": "in", "value": [1, "a"]}),
        json!({"field": "x", "operator": "in", "value": [null]}),
        json!({"field": "x", "operator": "nin", "value": []}),
        json!({"field": "memwasm_arrays", "operator": "eq", "value": "x"}),
        json!({"field": "$x", "operator": "eq", "value": "x"}),
        json!({"NOT": {"field": "a", "operator": "eq", "value": 1}}),
        json!({"OR": [{"a": 1}, {"field": "memory", "operator": "contains", "value": "x"}]}),
    ] {
        assert_eq!(translated(local.clone()), None, "{local}");
    }
}

#[test]
fn and_keeps_its_translatable_part_and_or_needs_all() {
    let and = json!({"AND": [{"a": 1}, {"field": "memory", "operator": "contains", "value": "x"}, {"b": true}]});
    assert_eq!(translated(and), Some(json!({"$and": [{"a": {"$eq": 1.0}}, {"b": {"$eq": true}}]})));
    let or = json!({"OR": [{"a": 1}, {"b": "x"}]});
    assert_eq!(translated(or), Some(json!({"$or": [{"a": {"$eq": 1.0}}, {"b": {"$eq": "x"}}]})));
    let scoped = where_clause(&alice(), Some(&filter(json!({"a": 1}))));
    assert_eq!(scoped, Some(json!({"$and": [{"user_id": {"$eq": "alice"}}, {"a": {"$eq": 1.0}}]})));
}
