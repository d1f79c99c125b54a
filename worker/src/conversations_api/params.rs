//! What the read and delete routes take: a query string or a JSON body (never both), read into one JSON
//! object; the API's memory type names; `__all__` (the API's "any"); counts with a maximum.

use memwasm::core::model::MemoryType;
use serde_json::{Map, Value};

use super::envelope::Failure;
use crate::error::ApiError;
use crate::query::{Kinds, Query};

/// The API's memory type names and the library's types.
pub const TYPE_NAMES: &[(&str, MemoryType)] = &[
    ("episodic_memory", MemoryType::Episodic),
    ("profile", MemoryType::Profile),
    ("foresight", MemoryType::Foresight),
    ("event_log", MemoryType::EventLog),
];

/// The library's type of an API type name (`episodic_memory` → `episodic`).
pub fn type_named(name: &str) -> Result<MemoryType, Failure> {
    let found = TYPE_NAMES.iter().find(|(wire, _)| *wire == name.trim()).map(|(_, kind)| *kind);
    let names: Vec<&str> = TYPE_NAMES.iter().map(|(wire, _)| *wire).collect();
    found.ok_or_else(|| Failure::invalid(format!("unknown memory type {name:?} (one of {})", names.join(", "))))
}

/// The API's name of a library type (types the API does not know keep the library's name).
pub fn type_name(kind: MemoryType) -> &'static str {
    TYPE_NAMES.iter().find(|(_, k)| *k == kind).map_or(kind.as_str(), |(wire, _)| wire)
}

/// The request's parameters as one JSON object: the body when it has one (a JSON object), else the query
/// string read by `kinds`. Names other than `allowed` are refused.
pub fn gather(query: &Query, body: &[u8], kinds: &Kinds, allowed: &[&str]) -> Result<Map<String, Value>, Failure> {
    let fields = if body.iter().all(u8::is_ascii_whitespace) {
        query.fields(kinds)?
    } else {
        if !query.is_empty() {
            return Err(Failure::invalid("give the parameters in the query string or in a JSON body, not both"));
        }
        match serde_json::from_slice(body).map_err(ApiError::invalid_json)? {
            Value::Object(fields) => fields,
            _ => return Err(Failure::invalid("the body must be a JSON object")),
        }
    };
    if let Some(name) = fields.keys().find(|name| !allowed.contains(&name.as_str())) {
        return Err(Failure::invalid(format!("unknown parameter `{name}` (takes {})", allowed.join(", "))));
    }
    Ok(fields)
}

/// `version_range`: `[start, end]`, whole numbers with start ≤ end, as a JSON array or the query string's
/// `[1,2]` / `1,2`; absent or null is fine.
pub fn version_range(fields: &Map<String, Value>) -> Result<Option<(u64, u64)>, Failure> {
    let bad = |got: &dyn std::fmt::Display| {
        Failure::invalid(format!("version_range must be [start, end], whole numbers with start ≤ end, got {got}"))
    };
    let pair: Vec<Value> = match fields.get("version_range") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items.clone(),
        Some(Value::String(text)) => {
            let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
            inner.split(',').map(|part| part.trim().parse::<u64>().map(Value::from).unwrap_or(Value::Null)).collect()
        }
        Some(other) => return Err(bad(other)),
    };
    match pair.as_slice() {
        [start, end] => match (start.as_u64(), end.as_u64()) {
            (Some(start), Some(end)) if start <= end => Ok(Some((start, end))),
            _ => Err(bad(&Value::Array(pair.clone()))),
        },
        _ => Err(bad(&Value::Array(pair.clone()))),
    }
}

/// A string parameter; `None` when absent, null, blank or `"__all__"`.
pub fn id_filter(fields: &Map<String, Value>, name: &str) -> Result<Option<String>, Failure> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.trim().is_empty() || text.trim() == "__all__" => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.trim().to_owned())),
        Some(other) => Err(Failure::invalid(format!("{name} must be a string, got {other}"))),
    }
}

/// A whole-number count between 1 and `max` (`default` when absent).
pub fn count(fields: &Map<String, Value>, name: &str, default: usize, max: usize) -> Result<usize, Failure> {
    let Some(value) = fields.get(name).filter(|v| !v.is_null()) else { return Ok(default) };
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && n >= 1.0 && n <= max as f64 => Ok(n as usize),
        _ => Err(Failure::invalid(format!("{name} must be a whole number from 1 to {max}, got {value}"))),
    }
}

/// The API's memory type names of `name` (a list of strings) as the library's names (JSON strings).
pub fn types_of(fields: &Map<String, Value>, name: &str) -> Result<Vec<MemoryType>, Failure> {
    let Some(value) = fields.get(name).filter(|v| !v.is_null()) else { return Ok(Vec::new()) };
    let items = match value {
        Value::Array(items) => items.clone(),
        Value::String(one) => vec![Value::String(one.clone())],
        other => return Err(Failure::invalid(format!("{name} must be a list of memory types, got {other}"))),
    };
    items
        .iter()
        .map(|item| match item.as_str() {
            Some(text) => type_named(text),
            None => Err(Failure::invalid(format!("{name} must hold memory type names, got {item}"))),
        })
        .collect()
}

/// The value of `name` when given (not null), moved into `into` under `key`.
pub fn carry(fields: &Map<String, Value>, name: &str, into: &mut Map<String, Value>, key: &str) {
    if let Some(value) = fields.get(name).filter(|v| !v.is_null()) {
        into.insert(key.to_owned(), value.clone());
    }
}

/// A time parameter moved into `into` under its own name. A date and time without a zone
/// (`2024-01-01T00:00:00`, as in the API's examples) is read as UTC; the library checks the rest.
pub fn carry_time(fields: &Map<String, Value>, name: &str, into: &mut Map<String, Value>) -> Result<(), Failure> {
    let Some(value) = fields.get(name).filter(|v| !v.is_null()) else { return Ok(()) };
    let Some(text) = value.as_str() else {
        return Err(Failure::invalid(format!("{name} must be an ISO 8601 time, got {value}")));
    };
    let text = text.trim();
    let clock = text.split_once('T').map_or("", |(_, clock)| clock);
    let zoned = clock.ends_with(['Z', 'z']) || clock.contains(['+', '-']);
    let naive = text.len() >= 19 && !clock.is_empty() && !zoned;
    into.insert(name.to_owned(), Value::String(if naive { format!("{text}Z") } else { text.to_owned() }));
    Ok(())
}
