//! A request's fields, from a JSON body or a query string, taken one by one: each handler takes the
//! fields it reads, names the platform fields it accepts without using, and `finish` refuses whatever is
//! left (400 naming it), so nothing is silently ignored that the platform would act on.

use serde_json::{Map, Value};

use super::error::{Mem0Error, Result};
use crate::query::Query;

/// Fields every route accepts and ignores: the platform's account scoping (one key is one tenant here).
const ACCOUNT: [&str; 2] = ["org_id", "project_id"];

/// The fields of one request.
pub struct Fields {
    what: &'static str,
    map: Map<String, Value>,
}

impl Fields {
    /// A JSON object body (`{}` when empty).
    pub fn body(body: &[u8]) -> Result<Self> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self { what: "body", map: Map::new() });
        }
        match serde_json::from_slice(body) {
            Ok(Value::Object(map)) => Ok(Self { what: "body", map }),
            Ok(_) => Err(Mem0Error::invalid("the body must be a JSON object")),
            Err(error) => Err(Mem0Error::invalid(format!("malformed JSON body: {error}"))),
        }
    }

    /// The fields of one object inside a body (a batch entry).
    pub fn entry(map: Map<String, Value>) -> Self {
        Self { what: "field", map }
    }

    /// Query parameters, as strings.
    pub fn query(query: &Query) -> Self {
        Self { what: "query parameter", map: query.strings() }
    }

    /// The value of `key`, left in place.
    pub fn peek(&self, key: &str) -> Option<&Value> {
        self.map.get(key)
    }

    /// Takes `key`; `null` counts as absent.
    pub fn take(&mut self, key: &str) -> Option<Value> {
        self.map.remove(key).filter(|value| !value.is_null())
    }

    /// Takes `key` as a string.
    pub fn string(&mut self, key: &str) -> Result<Option<String>> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(Value::Number(number)) => Ok(Some(number.to_string())),
            Some(other) => Err(self.wrong(key, "a string", &other)),
        }
    }

    /// Takes `key` as a boolean (`"true"` / `"false"` in a query string).
    pub fn boolean(&mut self, key: &str) -> Result<Option<bool>> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Bool(flag)) => Ok(Some(flag)),
            Some(Value::String(text)) if text.eq_ignore_ascii_case("true") => Ok(Some(true)),
            Some(Value::String(text)) if text.eq_ignore_ascii_case("false") => Ok(Some(false)),
            Some(other) => Err(self.wrong(key, "a boolean", &other)),
        }
    }

    /// Takes `key` as a number.
    pub fn number(&mut self, key: &str) -> Result<Option<f64>> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Number(number)) => Ok(number.as_f64()),
            Some(Value::String(text)) => match text.trim().parse::<f64>() {
                Ok(number) if number.is_finite() => Ok(Some(number)),
                _ => Err(self.wrong(key, "a number", &Value::String(text))),
            },
            Some(other) => Err(self.wrong(key, "a number", &other)),
        }
    }

    /// Takes `key` as a whole number in `min..=max`.
    pub fn whole(&mut self, key: &str, min: u64, max: u64) -> Result<Option<u64>> {
        match self.number(key)? {
            None => Ok(None),
            Some(n) if n.fract() == 0.0 && n >= min as f64 && n <= max as f64 => Ok(Some(n as u64)),
            Some(n) => Err(Mem0Error::invalid(format!("{key} must be a whole number from {min} to {max}, got {n}"))),
        }
    }

    /// Takes `key` as a JSON object.
    pub fn object(&mut self, key: &str) -> Result<Option<Map<String, Value>>> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(map)),
            Some(other) => Err(self.wrong(key, "an object", &other)),
        }
    }

    /// Takes `key` as a list of strings (a comma-separated query parameter too).
    pub fn strings(&mut self, key: &str) -> Result<Option<Vec<String>>> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.split(',').map(|s| s.trim().to_owned()).collect())),
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                Ok(Some(items.iter().filter_map(Value::as_str).map(str::to_owned).collect()))
            }
            Some(other) => Err(self.wrong(key, "a list of strings", &other)),
        }
    }

    /// Drops fields the platform takes and memwasm accepts without acting on them.
    pub fn ignore(&mut self, keys: &[&str]) {
        for key in keys.iter().chain(ACCOUNT.iter()) {
            self.map.remove(*key);
        }
    }

    /// Refuses any field no one took.
    pub fn finish(mut self) -> Result<()> {
        self.ignore(&[]);
        match self.map.keys().next() {
            None => Ok(()),
            Some(key) => Err(Mem0Error::invalid(format!("unknown {} `{key}` for this route", self.what))),
        }
    }

    fn wrong(&self, key: &str, expected: &str, got: &Value) -> Mem0Error {
        Mem0Error::invalid(format!("{} `{key}` must be {expected}, got {got}", self.what))
    }
}
