//! Our scope and filters as a Chroma `where`. The `where` is a pre-filter: it keeps every memory the exact
//! local check would keep (and maybe more), so the engine's local check after the query stays the judge.
//!
//! Sent to Chroma: the scope ids (`$eq`); `eq` / `ne` with a string, number or boolean; `gt` / `gte` /
//! `lt` / `lte` with a number; `in` / `nin` with a non-empty list of strings, of numbers or of booleans;
//! `AND` (its translatable children) and `OR` (when all children are). Evaluated locally only: `contains`,
//! `icontains`, `NOT`, comparisons of strings (dates), `null` values, mixed lists, and the fields
//! `memory`, `hash`, `id`, `createdAt`, `updatedAt`.

use serde_json::{json, Value};

use super::metadata::{float, usable_key, ARRAYS};
use crate::core::filter::{Filter, Operator};
use crate::core::model::scope::Scope;

/// The `where` for `scope` and `filter`, or `None` when nothing narrows the query.
pub fn where_clause(scope: &Scope, filter: Option<&Filter>) -> Option<Value> {
    let mut parts: Vec<Value> = [("user_id", &scope.user_id), ("agent_id", &scope.agent_id), ("run_id", &scope.run_id)]
        .into_iter()
        .filter_map(|(key, id)| Some(json!({ key: {"$eq": id.as_ref()?} })))
        .collect();
    parts.extend(filter.and_then(translate));
    all_of(parts)
}

/// `parts` joined by `$and` (one part as it is; none is `None`).
fn all_of(mut parts: Vec<Value>) -> Option<Value> {
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => Some(json!({"$and": parts})),
    }
}

/// The part of `filter` Chroma can check, or `None` when it can check none of it.
fn translate(filter: &Filter) -> Option<Value> {
    match filter {
        Filter::And(children) => all_of(children.iter().filter_map(translate).collect()),
        Filter::Or(children) => {
            let parts: Option<Vec<Value>> = children.iter().map(translate).collect();
            let mut parts = parts.filter(|parts| !parts.is_empty())?;
            Some(if parts.len() == 1 { parts.pop()? } else { json!({"$or": parts}) })
        }
        Filter::Not(_) => None,
        Filter::Condition { field, operator, value } => condition(field, *operator, value),
    }
}

/// The Chroma key a filter field reads, when Chroma holds it.
fn key(field: &str) -> Option<&str> {
    match field {
        "userId" | "user_id" => Some("user_id"),
        "agentId" | "agent_id" => Some("agent_id"),
        "runId" | "run_id" => Some("run_id"),
        "memory" | "hash" | "id" | "createdAt" | "created_at" | "updatedAt" | "updated_at" => None,
        other => usable_key(other).then_some(other),
    }
}

/// A string, boolean or (as a float) number; `None` for anything else.
fn scalar(value: &Value) -> Option<Value> {
    match value {
        Value::String(_) | Value::Bool(_) => Some(value.clone()),
        Value::Number(_) => float(value),
        _ => None,
    }
}

/// A non-empty list of scalars of one kind, as Chroma wants for `$in` / `$nin`.
fn uniform_list(value: &Value) -> Option<Vec<Value>> {
    let items: Vec<Value> = value.as_array()?.iter().map(scalar).collect::<Option<_>>()?;
    let kind = |v: &Value| (v.is_string(), v.is_boolean(), v.is_number());
    let first = kind(items.first()?);
    items.iter().all(|item| kind(item) == first).then_some(items)
}

fn condition(field: &str, operator: Operator, value: &Value) -> Option<Value> {
    let key = key(field)?;
    let test = match operator {
        Operator::Eq => json!({"$eq": scalar(value)?}),
        Operator::Ne => json!({"$ne": scalar(value)?}),
        Operator::Gt | Operator::Gte | Operator::Lt | Operator::Lte => {
            let name = match operator {
                Operator::Gt => "$gt",
                Operator::Gte => "$gte",
                Operator::Lt => "$lt",
                _ => "$lte",
            };
            json!({ name: float(value.as_number().map(|_| value)?)? })
        }
        Operator::Nin => json!({"$nin": uniform_list(value)?}),
        // An array field shares an element: Chroma cannot test that, so any memory with an array there passes.
        Operator::In => {
            let scalar_in = json!({ key: {"$in": uniform_list(value)?} });
            return Some(json!({"$or": [scalar_in, {ARRAYS: {"$contains": key}}]}));
        }
        Operator::Contains | Operator::IContains => return None,
    };
    Some(json!({ key: test }))
}

#[cfg(test)]
#[path = "where_tests.rs"]
mod tests;
