//! `unknownKeys`: what a config key the library does not know does. `"error"` (the default, which catches typos)
//! makes it `INVALID_CONFIG`. `"warn"` (`memwasm/mem0`'s default: mem0 ignores the keys it does not read) takes
//! it out of the config and names it in a startup warning, unless `strict: true`, which keeps it an error.

use serde::Deserialize;
use serde_json::Value;

use crate::core::error::{MemoryError, Result};

/// `unknownKeys`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnknownKeys {
    #[default]
    Error,
    Warn,
}

/// The most keys one config may have ignored: each one costs a reading of the whole config.
const MOST_IGNORED: usize = 50;

/// What serde says of a key no struct field takes (`value_de` keeps these words when it rewords the rest).
const UNKNOWN_FIELD: &str = ": unknown field `";

/// `read(config)`, where, when `config` says `unknownKeys: "warn"` and not `strict: true`, every key `read`
/// fails on as unknown is taken out of `config` and named in a warning, and `read` runs again. Returns what
/// `read` made and the warnings, one per key taken out.
pub fn read_leniently<T>(mut config: Value, read: impl Fn(&Value) -> Result<T>) -> Result<(T, Vec<String>)> {
    let lenient = config.get("unknownKeys") == Some(&Value::from("warn"))
        && config.get("strict").and_then(Value::as_bool) != Some(true);
    let mut warnings = Vec::new();
    loop {
        let error = match read(&config) {
            Ok(made) => return Ok((made, warnings)),
            Err(error) => error,
        };
        let Some((path, why)) = unknown_key(&error).filter(|_| lenient && warnings.len() < MOST_IGNORED) else {
            return Err(error);
        };
        if !take_out(&mut config, path) {
            return Err(error);
        }
        warnings.push(ignored(path, why));
    }
}

/// The startup warning that `path` is ignored, and why.
pub fn ignored(path: &str, why: &str) -> String {
    format!("{path} is ignored: {why} (unknownKeys: \"warn\"; strict: true refuses it)")
}

/// The path of the key an unknown-field `INVALID_CONFIG` names (`llm.config.topK`), and what it says of it.
/// The path is all before the message's first `": "` (a path holds none; a quoted value after it may).
fn unknown_key(error: &MemoryError) -> Option<(&str, &str)> {
    let MemoryError::InvalidConfig(message) = error else { return None };
    let at = message.find(": ")?;
    message[at..].starts_with(UNKNOWN_FIELD).then(|| (&message[..at], &message[at + 2..]))
}

/// Removes the key at `path` (dotted keys and `[index]`es) from `config`; false when there is none.
fn take_out(config: &mut Value, path: &str) -> bool {
    let (parents, key) = path.rsplit_once('.').unwrap_or(("", path));
    let mut value = config;
    for segment in parents.split('.').filter(|segment| !segment.is_empty()) {
        let (name, indexes) = segment.split_once('[').map_or((segment, ""), |(name, rest)| (name, rest));
        let Some(next) = value.get_mut(name) else { return false };
        value = next;
        for index in indexes.split('[').filter(|index| !index.is_empty()) {
            let Some(next) = index.trim_end_matches(']').parse::<usize>().ok().and_then(|i| value.get_mut(i)) else {
                return false;
            };
            value = next;
        }
    }
    value.as_object_mut().and_then(|map| map.remove(key)).is_some()
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;
    use crate::core::config::invalid;
    use crate::core::value_de::from_value_path;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Shape {
        a: Option<u32>,
        inner: Option<Inner>,
        list: Option<Vec<Inner>>,
        #[serde(rename = "unknownKeys")]
        _mode: Option<UnknownKeys>,
        strict: Option<bool>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        b: Option<u32>,
    }

    fn read(config: &Value) -> Result<Shape> {
        from_value_path(config).map_err(|(path, error)| invalid(&path, error))
    }

    #[test]
    fn warn_takes_out_each_unknown_key_and_names_it() {
        let config = json!({"unknownKeys": "warn", "a": 1, "x": 2, "inner": {"b": 3, "y": 4}, "list": [{"z": 5}]});
        let (shape, warnings) = read_leniently(config, read).unwrap();
        assert_eq!(
            (shape.a, shape.inner, shape.list),
            (Some(1), Some(Inner { b: Some(3) }), Some(vec![Inner { b: None }]))
        );
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        for path in ["x is ignored: unknown field `x`", "inner.y is ignored", "list[0].z is ignored"] {
            assert!(warnings.iter().any(|warning| warning.starts_with(path)), "{path}: {warnings:?}");
        }
    }

    #[test]
    fn error_by_default_and_with_strict_and_other_errors_stay_errors() {
        for config in [json!({"x": 1}), json!({"unknownKeys": "warn", "strict": true, "x": 1})] {
            let error = read_leniently(config, read).unwrap_err();
            assert_eq!(error.code(), "INVALID_CONFIG");
            assert!(error.to_string().contains("x: unknown field `x`"), "{error}");
        }
        let wrong_type = read_leniently(json!({"unknownKeys": "warn", "a": "one"}), read).unwrap_err();
        assert!(wrong_type.to_string().contains("a: invalid type"), "{wrong_type}");
        let quoted = json!({"unknownKeys": "warn", "a": "x: unknown field `a`"});
        assert!(read_leniently(quoted, read).unwrap_err().to_string().contains("a: invalid type"));
        assert!(read_leniently(json!({"unknownKeys": "loud"}), read).is_err());
    }

    #[test]
    fn a_config_of_many_unknown_keys_is_refused_after_the_bound() {
        let mut config = json!({"unknownKeys": "warn"});
        for key in 0..=MOST_IGNORED {
            config[format!("k{key}")] = json!(key);
        }
        assert_eq!(read_leniently(config, read).unwrap_err().code(), "INVALID_CONFIG");
    }

    #[test]
    fn take_out_follows_keys_and_indexes() {
        let mut config = json!({"a": {"b": [{"c": 1}, {"c": 2, "d": 3}]}});
        assert!(take_out(&mut config, "a.b[1].d"));
        assert_eq!(config, json!({"a": {"b": [{"c": 1}, {"c": 2}]}}));
        assert!(!take_out(&mut config, "a.b[7].c") && !take_out(&mut config, "a.x.c") && !take_out(&mut config, "q"));
    }
}
