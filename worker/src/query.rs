//! The one query-string reader: a request's parameters, percent-decoded (`+` is a space), the last of
//! repeated names winning; read as strings, or typed by name (`Kinds`) into a JSON object for the routes
//! that parse their options from JSON.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};
use worker::Url;

use crate::error::ApiError;

/// A request's query parameters.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pairs: BTreeMap<String, String>,
}

/// How `Query::fields` reads a parameter: a number, a boolean (`true` / `false`), a list (a JSON array or
/// comma-separated names), JSON, or (any other name) a string.
#[derive(Default)]
pub struct Kinds<'a> {
    pub numbers: &'a [&'a str],
    pub booleans: &'a [&'a str],
    pub lists: &'a [&'a str],
    pub json: &'a [&'a str],
}

impl Query {
    /// The parameters of `url`.
    pub fn of(url: &Url) -> Self {
        Self { pairs: url.query_pairs().map(|(name, value)| (name.into_owned(), value.into_owned())).collect() }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.get(name).map(String::as_str)
    }

    /// Takes `name` out.
    pub fn take(&mut self, name: &str) -> Option<String> {
        self.pairs.remove(name)
    }

    /// The names given.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.pairs.keys().map(String::as_str)
    }

    /// Every value as a JSON string.
    pub fn strings(&self) -> Map<String, Value> {
        self.pairs.iter().map(|(name, text)| (name.clone(), Value::String(text.clone()))).collect()
    }

    /// The parameters as JSON, each read as `kinds` says; a value that is not what its name takes is
    /// `INVALID_INPUT` (`INVALID_JSON` for a JSON parameter) naming it.
    pub fn fields(&self, kinds: &Kinds) -> Result<Map<String, Value>, ApiError> {
        let mut fields = Map::new();
        for (name, text) in &self.pairs {
            fields.insert(name.clone(), value(name, text, kinds)?);
        }
        Ok(fields)
    }
}

fn value(name: &str, text: &str, kinds: &Kinds) -> Result<Value, ApiError> {
    let bad = |what: &str| ApiError::invalid(format!("{name} must be {what}, got {text:?}"));
    if kinds.numbers.contains(&name) {
        let number = text.trim().parse::<f64>().ok().and_then(Number::from_f64);
        return number.map(Value::Number).ok_or_else(|| bad("a number"));
    }
    if kinds.booleans.contains(&name) {
        return match text.trim() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(bad("true or false")),
        };
    }
    if kinds.lists.contains(&name) {
        if text.trim_start().starts_with('[') {
            return serde_json::from_str(text).map_err(|_| bad("a JSON array or comma-separated names"));
        }
        let items = text.split(',').map(str::trim).filter(|item| !item.is_empty());
        return Ok(Value::Array(items.map(|item| Value::String(item.to_owned())).collect()));
    }
    if kinds.json.contains(&name) {
        return serde_json::from_str(text).map_err(|e| ApiError::invalid_json(format!("{name} parameter: {e}")));
    }
    Ok(Value::String(text.to_owned()))
}
