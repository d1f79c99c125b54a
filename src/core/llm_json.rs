//! Reading JSON out of what LLMs actually send: code fences, `<think>` blocks, prose around the
//! payload. Then the two reply shapes the pipeline needs: facts and memory decisions.

use serde_json::Value;

use super::error::MemoryError;
use super::model::types::EventKind;

/// An unusable reply, with the reason.
fn unusable(why: impl Into<String>) -> MemoryError {
    MemoryError::LlmResponse(why.into())
}

/// The first JSON object or array in `reply`, after removing `<think>…</think>` and code fences.
pub fn extract_json(reply: &str) -> Option<Value> {
    let text = strip_think(reply);
    let text = strip_fences(&text);
    if let Ok(value) = serde_json::from_str::<Value>(text.trim()) {
        return Some(value);
    }
    text.char_indices()
        .filter(|(_, c)| *c == '{' || *c == '[')
        .find_map(|(start, _)| serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>().next()?.ok())
}

fn strip_think(text: &str) -> String {
    let mut rest = text;
    let mut out = String::with_capacity(text.len());
    while let Some(open) = rest.find("<think>") {
        out.push_str(&rest[..open]);
        match rest[open..].find("</think>") {
            Some(close) => rest = &rest[open + close + "</think>".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The body of the first ``` fence, if any.
fn strip_fences(text: &str) -> &str {
    let Some(open) = text.find("```") else {
        return text;
    };
    let after = &text[open + 3..];
    let body_start = after.find('\n').map_or(0, |n| n + 1);
    let body = &after[body_start..];
    body.find("```").map_or(body, |close| &body[..close])
}

/// The facts of an extraction reply: `{"facts": [..]}` or a bare array of strings.
pub fn parse_facts(reply: &str) -> Result<Vec<String>, MemoryError> {
    parse_extraction(reply).map(|(facts, _)| facts)
}

/// Who a fact is about, by fact text: (text, `"user"` or `"assistant"`).
pub type Attribution = (String, String);

/// The facts of an extraction reply (`{"facts": [..]}`, a bare array of strings, or mem0 3.x's
/// `{"memory": [{"id", "text", "attributed_to"}]}`), and who each fact is about where the reply says
/// (`attributed_to`: `"user"` or `"assistant"`, by fact text). The reply's JSON is read once.
pub fn parse_extraction(reply: &str) -> Result<(Vec<String>, Vec<Attribution>), MemoryError> {
    let value = extract_json(reply).ok_or_else(|| unusable("no JSON found in the reply"))?;
    let list = match &value {
        Value::Array(items) => items,
        Value::Object(object) => match object.get("facts").or_else(|| object.get("memory")) {
            Some(Value::Array(items)) => items,
            Some(other) => return Err(unusable(format!("\"facts\" is not an array: {other}"))),
            None => return Err(unusable("reply has no \"facts\" array")),
        },
        other => return Err(unusable(format!("expected a JSON array of facts, got {other}"))),
    };
    let mut facts = Vec::with_capacity(list.len());
    for (index, item) in list.iter().enumerate() {
        let text = item.as_str().or_else(|| item.get("text").and_then(Value::as_str));
        let text = text.ok_or_else(|| unusable(format!("fact {index} is not a string: {item}")))?;
        let text = text.trim();
        if !text.is_empty() && !facts.iter().any(|fact| fact == text) {
            facts.push(text.to_owned());
        }
    }
    let attributions = list
        .iter()
        .filter_map(|item| {
            let text = item.get("text")?.as_str()?.trim();
            let who = item.get("attributed_to")?.as_str()?.trim();
            (!text.is_empty() && !who.is_empty()).then(|| (text.to_owned(), who.to_owned()))
        })
        .collect();
    Ok((facts, attributions))
}

/// One operation the LLM asked for, before its id is checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub event: EventKind,
    pub id: Option<String>,
    pub text: Option<String>,
}

/// The decisions of an update reply: mem0's `{"memory": [..]}`, a bare event array, or
/// `{"events"|"operations": [..]}`. Entries that are not usable come back as `Err` with the reason.
pub fn parse_decisions(reply: &str) -> Result<Vec<Result<Decision, MemoryError>>, MemoryError> {
    let value = extract_json(reply).ok_or_else(|| unusable("no JSON found in the reply"))?;
    let list = match &value {
        Value::Array(items) => items,
        Value::Object(object) => ["memory", "events", "operations"]
            .iter()
            .find_map(|key| object.get(*key).and_then(Value::as_array))
            .ok_or_else(|| unusable("reply has no \"memory\" array"))?,
        other => return Err(unusable(format!("expected a JSON array of operations, got {other}"))),
    };
    Ok(list.iter().map(parse_decision).collect())
}

fn parse_decision(entry: &Value) -> Result<Decision, MemoryError> {
    let object = entry.as_object().ok_or_else(|| unusable(format!("operation is not an object: {entry}")))?;
    let event = object.get("event").and_then(Value::as_str);
    let name = event.ok_or_else(|| unusable(format!("operation without event: {entry}")))?;
    let event = match name.trim().to_ascii_uppercase().as_str() {
        "ADD" => EventKind::Add,
        "UPDATE" => EventKind::Update,
        "DELETE" => EventKind::Delete,
        "NONE" | "NOOP" => EventKind::None,
        _ => return Err(unusable(format!("unknown event \"{name}\""))),
    };
    let id = match object.get("id") {
        Some(Value::String(id)) if !id.trim().is_empty() => Some(id.trim().to_owned()),
        Some(Value::Number(id)) => Some(id.to_string()),
        _ => None,
    };
    let text = ["text", "data", "new_memory"]
        .iter()
        .find_map(|key| object.get(*key).and_then(Value::as_str))
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned);
    Ok(Decision { event, id, text })
}

#[cfg(test)]
#[path = "llm_json_tests.rs"]
mod tests;
