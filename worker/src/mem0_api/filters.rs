//! mem0's filter language, translated into memwasm's (`{AND: [{field, operator, value}, …]}`, see
//! `memwasm::core::filter`), plus the scope a read can be narrowed to.
//!
//! | mem0 | memwasm |
//! |---|---|
//! | `{"AND": […]}`, `{"OR": […]}`, `{"NOT": {…}}` (or `[…]`, ANDed), sibling keys | `AND` / `OR` / `NOT` |
//! | `{"user_id": "u"}`, `agent_id`, `run_id` (`eq ne in`, a bare list is `in`) | the memory's scope ids |
//! | `app_id` | `metadata.app_id` (where `add` files it) |
//! | `{"f": "*"}` | `NOT {f eq null}`: any non-null value |
//! | `created_at`, `updated_at` (`timestamp` is `created_at`): `eq ne in gt gte lt lte` | ISO times, Unix seconds converted |
//! | `expiration_date` | `metadata.expiration_date` (`YYYY-MM-DD`) |
//! | `keywords`, `text` (`contains`, `icontains`) | `memory` |
//! | `categories` (`in`, `contains` = `icontains`) | `metadata.categories` |
//! | `{"metadata": {"k": v}}` (`eq ne contains icontains`, and memwasm's `in nin gt gte lt lte`) | `metadata.k` |
//! | `{"memory_ids": [...]}` | `id in [...]` |

use memwasm::core::model::scope::Scope;
use memwasm::core::time::{iso_from_millis, millis_from_iso};
use serde_json::{json, Value};

use super::error::{Mem0Error, Result};

/// The entity fields, in the platform's order.
pub const ENTITY_FIELDS: [&str; 4] = ["user_id", "agent_id", "app_id", "run_id"];
/// The keys a filter object may have (the platform's allow-list, less `keywords_search`).
const ALLOWED: &str = "AND, OR, NOT, user_id, agent_id, app_id, run_id, created_at, updated_at, timestamp, \
                       expiration_date, text, categories, metadata, memory_ids, keywords";
/// Metadata keys memwasm's filter reads as a memory's own fields, so they cannot be metadata conditions.
const OWN_FIELDS: [&str; 13] = [
    "memory",
    "hash",
    "id",
    "created_at",
    "createdAt",
    "updated_at",
    "updatedAt",
    "user_id",
    "userId",
    "agent_id",
    "agentId",
    "run_id",
    "runId",
];
const MAX_DEPTH: usize = 32;

/// A translated filter.
#[derive(Debug, Clone, PartialEq)]
pub struct Translated {
    /// memwasm's filter: every condition of the mem0 filter.
    pub filter: Value,
    /// The ids each match must carry (plain `user_id` / `agent_id` / `run_id` conditions of the top-level
    /// AND): the part of the tenant a read loads. Empty when the filter needs every scope (`OR`, `*`, `in`).
    pub scope: Scope,
    /// The top-level `app_id`, likewise.
    pub app_id: Option<String>,
    /// True when some entity field is named somewhere in the filter.
    pub names_entity: bool,
}

/// What values and operators a field takes.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Entity,
    Time,
    Date,
    Text,
    Categories,
    Metadata,
}

impl Kind {
    fn operators(self) -> &'static [&'static str] {
        match self {
            Kind::Entity => &["eq", "ne", "in", "nin"],
            Kind::Time | Kind::Date => &["eq", "ne", "in", "nin", "gt", "gte", "lt", "lte"],
            Kind::Text => &["contains", "icontains"],
            Kind::Categories => &["in", "contains", "icontains"],
            Kind::Metadata => &["eq", "ne", "in", "nin", "gt", "gte", "lt", "lte", "contains", "icontains"],
        }
    }
}

fn invalid(why: impl Into<String>) -> Mem0Error {
    Mem0Error::invalid(format!("filters: {}", why.into()))
}

/// Translates a mem0 `filters` object.
pub fn translate(filters: &Value) -> Result<Translated> {
    let filter = node(filters, 0)?;
    let (mut scope, mut app_id) = (Scope::default(), None);
    for (field, id) in top_ids(filters) {
        let slot = match field {
            "user_id" => &mut scope.user_id,
            "agent_id" => &mut scope.agent_id,
            "run_id" => &mut scope.run_id,
            _ => &mut app_id,
        };
        slot.get_or_insert(id);
    }
    Ok(Translated { filter, scope, app_id, names_entity: names_entity(filters) })
}

/// The conditions of several parts, all of which must hold.
pub fn all(mut parts: Vec<Value>) -> Value {
    if parts.len() == 1 {
        parts.pop().unwrap_or(Value::Null)
    } else {
        json!({ "AND": parts })
    }
}

fn node(value: &Value, depth: usize) -> Result<Value> {
    if depth > MAX_DEPTH {
        return Err(invalid(format!("nested deeper than {MAX_DEPTH} levels")));
    }
    let object = value.as_object().ok_or_else(|| invalid(format!("expected an object, got {value}")))?;
    if object.is_empty() {
        return Err(invalid("empty filter object"));
    }
    let mut parts = Vec::with_capacity(object.len());
    for (key, value) in object {
        let children = |items: &Vec<Value>| items.iter().map(|item| node(item, depth + 1)).collect::<Result<Vec<_>>>();
        parts.push(match (key.as_str(), value) {
            ("AND" | "OR", Value::Array(items)) => json!({ key: children(items)? }),
            ("AND" | "OR", other) => return Err(invalid(format!("{key} takes a list of filters, got {other}"))),
            ("NOT", Value::Array(items)) => json!({ "NOT": all(children(items)?) }),
            ("NOT", other) => json!({ "NOT": node(other, depth + 1)? }),
            _ => field(key, value)?,
        });
    }
    Ok(all(parts))
}

fn field(key: &str, value: &Value) -> Result<Value> {
    match key {
        "user_id" | "agent_id" | "run_id" | "app_id" => conditions(key, value, Kind::Entity),
        "created_at" | "updated_at" => conditions(key, value, Kind::Time),
        "timestamp" => conditions("created_at", value, Kind::Time),
        "expiration_date" => conditions("expiration_date", value, Kind::Date),
        "keywords" | "text" => conditions("memory", value, Kind::Text),
        "categories" => conditions("categories", value, Kind::Categories),
        "memory_ids" => match value {
            Value::Object(ops) if ops.len() == 1 && ops.contains_key("in") => {
                condition("id", "in", &ops["in"], Kind::Entity)
            }
            _ => condition("id", "in", value, Kind::Entity),
        },
        "metadata" => {
            let keys = value.as_object().filter(|keys| !keys.is_empty());
            let keys =
                keys.ok_or_else(|| invalid(format!("metadata takes an object of metadata keys, got {value}")))?;
            Ok(all(keys.iter().map(|(key, value)| metadata(key, value)).collect::<Result<Vec<_>>>()?))
        }
        _ => Err(invalid(format!(
            "Top-level key must be a logical operator or an allowed field: {ALLOWED}; got `{key}`"
        ))),
    }
}

fn metadata(key: &str, value: &Value) -> Result<Value> {
    if OWN_FIELDS.contains(&key) {
        return Err(invalid(format!(
            "metadata key `{key}` cannot be filtered on (memwasm reads it as the memory's own field)"
        )));
    }
    conditions(key, value, Kind::Metadata)
}

/// The conditions `{field: value}` states: `"*"`, an operator object, a list (`in`) or a bare value.
fn conditions(field: &str, value: &Value, kind: Kind) -> Result<Value> {
    match value {
        Value::String(star) if star == "*" => Ok(json!({ "NOT": { "field": field, "operator": "eq", "value": null } })),
        Value::Object(ops) if ops.is_empty() => Err(invalid(format!("`{field}` has an empty operator object"))),
        Value::Object(ops) => {
            let parts = ops.iter().map(|(op, value)| condition(field, op, value, kind)).collect::<Result<Vec<_>>>()?;
            Ok(all(parts))
        }
        Value::Array(_) if matches!(kind, Kind::Entity | Kind::Categories) => condition(field, "in", value, kind),
        Value::Array(_) if kind != Kind::Metadata => {
            Err(invalid(format!("`{field}` cannot take a list: use {{\"in\": […]}}")))
        }
        _ if matches!(kind, Kind::Text | Kind::Categories) => condition(field, "icontains", value, kind),
        _ => condition(field, "eq", value, kind),
    }
}

fn condition(field: &str, op: &str, value: &Value, kind: Kind) -> Result<Value> {
    if !kind.operators().contains(&op) {
        let allowed = kind.operators().join(", ");
        return Err(invalid(format!("operator `{op}` is not allowed on `{field}` (allowed: {allowed})")));
    }
    let operator = if kind == Kind::Categories && op == "contains" { "icontains" } else { op };
    let value = match (operator, value) {
        ("in" | "nin", Value::Array(items)) => {
            Value::Array(items.iter().map(|v| scalar(field, v, kind)).collect::<Result<_>>()?)
        }
        ("in" | "nin", other) => return Err(invalid(format!("`{field}` {op} takes a list, got {other}"))),
        (_, other) => scalar(field, other, kind)?,
    };
    Ok(json!({ "field": field, "operator": operator, "value": value }))
}

/// One value as memwasm compares it: ids as strings, times in memwasm's ISO form.
fn scalar(field: &str, value: &Value, kind: Kind) -> Result<Value> {
    match (kind, value) {
        (Kind::Entity, Value::Number(number)) => Ok(Value::String(number.to_string())),
        (Kind::Time, Value::Number(seconds)) => {
            let seconds = seconds.as_f64().unwrap_or(0.0);
            Ok(Value::String(iso_from_millis((seconds * 1000.0).round() as i64)))
        }
        (Kind::Time, Value::String(text)) => time(text)
            .map(Value::String)
            .ok_or_else(|| invalid(format!("`{field}` takes ISO 8601 dates or times, or Unix seconds; got {text:?}"))),
        (Kind::Time | Kind::Date | Kind::Entity, Value::Object(_) | Value::Array(_) | Value::Bool(_)) => {
            Err(invalid(format!("`{field}` cannot take the value {value}")))
        }
        _ => Ok(value.clone()),
    }
}

/// A time in memwasm's form (`YYYY-MM-DDTHH:MM:SS.mmmZ`, UTC; no zone means UTC); a bare date stays a
/// date, which compares as that day's midnight.
fn time(text: &str) -> Option<String> {
    let text = text.trim();
    if let Some(millis) = millis_from_iso(text).or_else(|| millis_from_iso(&format!("{text}Z"))) {
        return Some(iso_from_millis(millis));
    }
    let date = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    date.then(|| text.to_owned())
}

/// The plain entity ids of the top-level AND: `(field, id)`.
fn top_ids(value: &Value) -> Vec<(&'static str, String)> {
    let Some(object) = value.as_object() else { return Vec::new() };
    let mut ids = Vec::new();
    for (key, value) in object {
        match (ENTITY_FIELDS.iter().find(|field| *field == key), value) {
            (Some(field), Value::String(id)) if id != "*" && !id.trim().is_empty() => ids.push((*field, id.clone())),
            (Some(field), Value::Number(id)) => ids.push((*field, id.to_string())),
            (None, Value::Array(items)) if key == "AND" => ids.extend(items.iter().flat_map(top_ids)),
            _ => {}
        }
    }
    ids
}

/// True when an entity field is named anywhere in `value`.
fn names_entity(value: &Value) -> bool {
    match value {
        Value::Object(object) => object
            .iter()
            .any(|(key, value)| ENTITY_FIELDS.contains(&key.as_str()) || (key != "metadata" && names_entity(value))),
        Value::Array(items) => items.iter().any(names_entity),
        _ => false,
    }
}
