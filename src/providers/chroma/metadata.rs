//! A memory's Chroma metadata: its scope ids (`user_id`, `agent_id`, `run_id`) and its caller metadata
//! flattened to what a Chroma `where` can test. Nested objects become dotted keys (`project.name`),
//! numbers become floats, strings and booleans stay, nulls are left out, and the key of each array is
//! listed under [`ARRAYS`] (Chroma stores no mixed arrays), so an `in` can still select those memories.

use serde_json::{Map, Value};

use crate::core::model::scope::Scope;
use crate::core::model::types::Metadata;

/// The keys of a memory's array-valued metadata fields.
pub const ARRAYS: &str = "memwasm_arrays";
/// Keys the scope fills; metadata keys of these names are not sent (scope keys in metadata never count).
pub const SCOPE_KEYS: [&str; 3] = ["user_id", "agent_id", "run_id"];

/// True for a key Chroma accepts and our own keys do not take.
pub fn usable_key(key: &str) -> bool {
    !key.is_empty() && !key.starts_with('$') && !key.starts_with('#') && key != ARRAYS && !SCOPE_KEYS.contains(&key)
}

/// A number as Chroma stores it (a float), `None` when not finite.
pub fn float(value: &Value) -> Option<Value> {
    value.as_f64().filter(|x| x.is_finite()).map(Value::from)
}

/// The metadata object sent with a memory's vector.
pub fn chroma_metadata(scope: &Scope, metadata: &Metadata) -> Map<String, Value> {
    let mut out = Map::new();
    let mut arrays = Vec::new();
    flatten_into("", metadata, &mut out, &mut arrays);
    for (key, id) in SCOPE_KEYS.iter().zip([&scope.user_id, &scope.agent_id, &scope.run_id]) {
        if let Some(id) = id {
            out.insert((*key).to_owned(), Value::String(id.clone()));
        }
    }
    if !arrays.is_empty() {
        arrays.sort();
        arrays.dedup();
        out.insert(ARRAYS.to_owned(), Value::Array(arrays.into_iter().map(Value::String).collect()));
    }
    out
}

/// Nested objects first, then the object's own scalars, so that a literal dotted key (`"a.b"`) wins over
/// the same path reached through nesting, as it does in filters.
fn flatten_into(prefix: &str, object: &Map<String, Value>, out: &mut Map<String, Value>, arrays: &mut Vec<String>) {
    let path = |key: &str| if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") };
    for (key, value) in object {
        if let Value::Object(child) = value {
            flatten_into(&path(key), child, out, arrays);
        }
    }
    for (key, value) in object {
        let key = path(key);
        if !usable_key(&key) {
            continue;
        }
        let scalar = match value {
            Value::String(_) | Value::Bool(_) => Some(value.clone()),
            Value::Number(_) => float(value),
            Value::Array(_) => {
                arrays.push(key.clone());
                None
            }
            Value::Null | Value::Object(_) => None,
        };
        match scalar {
            Some(scalar) => out.insert(key, scalar),
            None => out.remove(&key),
        };
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn flattens_scalars_nests_and_lists_arrays() {
        let scope = Scope { user_id: Some("alice".into()), run_id: Some("r1".into()), ..Scope::default() };
        let metadata = json!({
            "category": "work", "n": 3, "ok": true, "none": null, "tags": ["a", 1],
            "project": {"name": "x", "deep": {"level": 2}, "list": [1]},
            "user_id": "mallory", "$bad": 1, "#doc": "x", "memwasm_arrays": "mine"
        });
        let sent = chroma_metadata(&scope, metadata.as_object().unwrap());
        assert_eq!(
            Value::Object(sent),
            json!({
                "category": "work", "n": 3.0, "ok": true, "project.name": "x", "project.deep.level": 2.0,
                "user_id": "alice", "run_id": "r1", "memwasm_arrays": ["project.list", "tags"]
            })
        );
    }

    #[test]
    fn a_literal_dotted_key_wins_over_nesting() {
        let metadata = json!({"a": {"b": 1}, "a.b": 2, "c": {"d": 1}, "c.d": {"e": 1}});
        let sent = chroma_metadata(&Scope::default(), metadata.as_object().unwrap());
        assert_eq!(sent["a.b"], json!(2.0));
        assert!(!sent.contains_key("c.d"), "an object under a literal key hides the nested scalar");
        assert_eq!(sent["c.d.e"], json!(1.0));
    }
}
