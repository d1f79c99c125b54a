//! A tool call's arguments checked against its `inputSchema`: only the JSON Schema keywords the tool
//! definitions use (`type` object / array / string / integer / boolean, `properties`, `required`,
//! `additionalProperties: false`, `items`, `enum`, `minimum`, `maximum`, `maxLength`). The first problem
//! comes back as a sentence naming the argument, as the Node server words it.

use serde_json::Value;

/// The largest integer a JSON number holds exactly (JavaScript's `Number.MAX_SAFE_INTEGER`).
const SAFE: f64 = 9_007_199_254_740_991.0;

/// `value` as an integer when it is one (`5` and `5.0` are, `5.5` and `1e300` are not).
pub fn integer(value: &Value) -> Option<i64> {
    let number = value.as_f64()?;
    (number.fract() == 0.0 && number.abs() <= SAFE).then_some(number as i64)
}

fn has_type(kind: &str, value: &Value) -> bool {
    match kind {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => integer(value).is_some(),
        "boolean" => value.is_boolean(),
        _ => true,
    }
}

fn article(kind: &str) -> String {
    match kind {
        "integer" => "an integer".into(),
        kind if kind.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {kind}"),
        kind => format!("a {kind}"),
    }
}

fn join(path: &str, name: &str) -> String {
    if path == "arguments" {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

/// The first way `value` breaks `schema`, as a sentence naming `path`; `None` when it fits.
pub fn check(schema: &Value, value: &Value, path: &str) -> Option<String> {
    if let Some(kind) = schema.get("type").and_then(Value::as_str) {
        if !has_type(kind, value) {
            return Some(format!("`{path}` must be {}", article(kind)));
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            let names: Vec<String> = allowed.iter().map(|v| v.as_str().map_or(v.to_string(), str::to_owned)).collect();
            return Some(format!("`{path}` must be one of {}", names.join(", ")));
        }
    }
    if let (Some(minimum), Some(number)) = (schema.get("minimum").and_then(Value::as_f64), value.as_f64()) {
        if number < minimum {
            return Some(format!("`{path}` must be at least {minimum}"));
        }
    }
    if let (Some(maximum), Some(number)) = (schema.get("maximum").and_then(Value::as_f64), value.as_f64()) {
        if number > maximum {
            return Some(format!("`{path}` must be at most {maximum}"));
        }
    }
    if let (Some(most), Some(text)) = (schema.get("maxLength").and_then(Value::as_u64), value.as_str()) {
        // JavaScript counts UTF-16 code units.
        if text.encode_utf16().count() as u64 > most {
            return Some(format!("`{path}` must be at most {most} characters"));
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for (at, item) in array.iter().enumerate() {
            if let Some(problem) = check(items, item, &format!("{path}[{at}]")) {
                return Some(problem);
            }
        }
    }
    match value.as_object() {
        Some(object) if schema.get("type").and_then(Value::as_str) == Some("object") => {
            check_object(schema, object, path)
        }
        _ => None,
    }
}

fn check_object(schema: &Value, object: &serde_json::Map<String, Value>, path: &str) -> Option<String> {
    let empty = serde_json::Map::new();
    let properties = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    for name in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        if object.get(name).is_none_or(Value::is_null) {
            return Some(format!("`{}` is required", join(path, name)));
        }
    }
    for (name, item) in object {
        let at = join(path, name);
        let Some(property) = properties.get(name) else {
            if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
                let accepted: Vec<&str> = properties.keys().map(String::as_str).collect();
                let accepted = if accepted.is_empty() { "none".to_owned() } else { accepted.join(", ") };
                return Some(format!("unknown argument `{at}` (accepted: {accepted})"));
            }
            continue;
        };
        // An optional argument sent as null means "not given".
        if item.is_null() {
            continue;
        }
        if let Some(problem) = check(property, item, &at) {
            return Some(problem);
        }
    }
    None
}

/// Most levels of nesting in a tool call's arguments, `arguments` itself the first: the library's bound on
/// metadata and filters, checked before anything runs (as `pkg/mcp/validate.mjs` checks it on stdio).
pub const MAX_DEPTH: usize = 64;

/// The first argument nested deeper than `MAX_DEPTH` levels, as a sentence naming it; `None` when none is.
pub fn too_deep(args: &serde_json::Map<String, Value>) -> Option<String> {
    let (name, _) = args.iter().find(|(_, value)| deeper(value, MAX_DEPTH - 1))?;
    Some(format!("`{name}` is nested deeper than {MAX_DEPTH} levels: send flatter arguments"))
}

/// True when `value` holds more than `levels` levels of arrays and objects (looks no deeper than that).
fn deeper(value: &Value, levels: usize) -> bool {
    let items: Box<dyn Iterator<Item = &Value>> = match value {
        Value::Array(items) => Box::new(items.iter()),
        Value::Object(members) => Box::new(members.values()),
        _ => return false,
    };
    levels == 0 || items.into_iter().any(|item| deeper(item, levels - 1))
}
