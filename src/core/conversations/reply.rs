//! Reading the two replies of message-by-message memory robustly (fences, `<think>`, prose around the JSON,
//! camelCase or snake_case keys): the boundary judgement and the episode extraction.

use serde_json::{Map, Value};

use super::profile::ProfileUpdate;
use crate::core::error::MemoryError;
use crate::core::llm_json::extract_json;
use crate::core::time::{iso_from_millis, millis_from_iso};

fn unusable(why: impl Into<String>) -> MemoryError {
    MemoryError::LlmResponse(why.into())
}

fn object(reply: &str) -> Result<Map<String, Value>, MemoryError> {
    match extract_json(reply) {
        Some(Value::Object(object)) => Ok(object),
        Some(other) => Err(unusable(format!("expected a JSON object, got {other}"))),
        None => Err(unusable("no JSON found in the reply")),
    }
}

/// The first of `keys` that `object` has.
fn field<'a>(object: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|key| object.get(*key))
}

fn text(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned)
}

/// The boundary judgement: `Some(reason)` when the new message starts a new episode, `None` when not. A
/// reply without a boolean `boundary` is unusable.
pub fn parse_boundary(reply: &str) -> Result<Option<String>, MemoryError> {
    let object = object(reply)?;
    let boundary = match field(&object, &["boundary", "is_boundary", "isBoundary"]) {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(flag)) if flag.eq_ignore_ascii_case("true") => true,
        Some(Value::String(flag)) if flag.eq_ignore_ascii_case("false") => false,
        _ => return Err(unusable("reply has no boolean \"boundary\"")),
    };
    Ok(boundary.then(|| text(object.get("reason")).unwrap_or_default()))
}

/// A plan or intention, with its validity window when known.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForesightItem {
    pub text: String,
    pub valid_from: Option<String>,
    pub valid_until: Option<String>,
    /// The numbers of the current plans (as the prompt listed them) this one changes or replaces.
    pub replaces: Vec<String>,
}

/// What the extraction call found in an episode.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extraction {
    pub title: Option<String>,
    pub summary: Option<String>,
    pub event_log: Vec<String>,
    pub foresight: Vec<ForesightItem>,
    pub profiles: Vec<ProfileUpdate>,
}

/// A validity bound as stored: an ISO 8601 time with a zone (in UTC), or a date `YYYY-MM-DD`; anything else
/// is dropped.
pub fn normalize_when(value: Option<&Value>) -> Option<String> {
    let text = text(value)?;
    if let Some(millis) = millis_from_iso(&text) {
        return Some(iso_from_millis(millis));
    }
    let date_only = text.len() == 10 && millis_from_iso(&format!("{text}T00:00:00Z")).is_some();
    date_only.then_some(text)
}

fn strings(value: Option<&Value>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in value.and_then(Value::as_array).into_iter().flatten() {
        if let Some(text) = text(Some(item)).filter(|t| !out.contains(t)) {
            out.push(text);
        }
    }
    out
}

/// Plan numbers: a list (or one) of strings or numbers, `"[2]"` read as `"2"`.
fn labels(value: Option<&Value>) -> Vec<String> {
    let one = |value: &Value| match value {
        Value::String(label) => Some(label.trim().trim_matches(|c| c == '[' || c == ']').trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let all = match value {
        Some(Value::Array(items)) => items.iter().filter_map(one).collect(),
        Some(value) => one(value).into_iter().collect(),
        None => Vec::new(),
    };
    all.into_iter().filter(|label: &String| !label.is_empty()).collect()
}

fn foresight(value: Option<&Value>) -> Vec<ForesightItem> {
    let items = value.and_then(Value::as_array).into_iter().flatten();
    items
        .filter_map(|item| match item {
            Value::String(_) => Some(ForesightItem { text: text(Some(item))?, ..ForesightItem::default() }),
            Value::Object(o) => Some(ForesightItem {
                text: text(field(o, &["text", "content", "foresight"]))?,
                valid_from: normalize_when(field(o, &["valid_from", "validFrom", "start_time", "startTime"])),
                valid_until: normalize_when(field(o, &["valid_until", "validUntil", "end_time", "endTime"])),
                replaces: labels(field(o, &["replaces", "supersedes"])),
            }),
            _ => None,
        })
        .collect()
}

/// A value as an attribute value: strings as they are, lists joined with ", ", numbers and booleans as text.
fn attribute_value(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.trim().to_owned()),
        Value::Array(items) => Some(items.iter().filter_map(attribute_value).collect::<Vec<_>>().join(", ")),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
    .filter(|v| !v.is_empty())
}

fn attributes(value: Option<&Value>) -> Vec<(String, Option<String>)> {
    match value {
        Some(Value::Array(pairs)) => pairs
            .iter()
            .filter_map(Value::as_object)
            .filter_map(|pair| {
                Some((text(field(pair, &["key", "name"]))?, field(pair, &["value"]).and_then(attribute_value)))
            })
            .collect(),
        Some(Value::Object(map)) => map.iter().map(|(key, value)| (key.clone(), attribute_value(value))).collect(),
        _ => Vec::new(),
    }
}

fn profiles(value: Option<&Value>) -> Vec<ProfileUpdate> {
    let items = value.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_object);
    items
        .filter_map(|o| {
            let user = text(field(o, &["user_id", "userId", "user", "name"]))?;
            Some(ProfileUpdate { user, attributes: attributes(field(o, &["attributes", "profile", "traits"])) })
        })
        .collect()
}

/// The extraction reply. It must be an object with at least one of `summary`, `event_log`, `foresight`,
/// `profiles`; each may be missing or empty.
pub fn parse_extraction(reply: &str) -> Result<Extraction, MemoryError> {
    let object = object(reply)?;
    let keys = ["summary", "episode", "event_log", "eventLog", "foresight", "profiles"];
    if !keys.iter().any(|key| object.contains_key(*key)) {
        return Err(unusable("reply has none of \"summary\", \"event_log\", \"foresight\", \"profiles\""));
    }
    Ok(Extraction {
        title: text(object.get("title")),
        summary: text(field(&object, &["summary", "episode"])),
        event_log: strings(field(&object, &["event_log", "eventLog"])),
        foresight: foresight(object.get("foresight")),
        profiles: profiles(object.get("profiles")),
    })
}

#[cfg(test)]
#[path = "reply_tests.rs"]
mod tests;
