//! Per-call options as JS passes them (camelCase), and input validation.

use serde::Deserialize;
use serde_json::Value;

use super::error::{MemoryError, Result};
use super::filter::Filter;
use super::scope::Scope;
use super::types::{Message, Metadata};

/// Default `limit` of search and getAll (seed 000 §3.3).
pub const DEFAULT_LIMIT: usize = 100;

/// Options of `add()`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddOptions {
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub metadata: Option<Metadata>,
    pub filters: Option<Value>,
    pub prompt: Option<String>,
    pub infer: Option<bool>,
}

/// Options of `search()`, `getAll()` and `deleteAll()` (which ignores all but the scope).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryOptions {
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub limit: Option<f64>,
    pub filters: Option<Value>,
    pub threshold: Option<f64>,
}

/// The scope, limit and filter of a read, validated.
pub struct Query {
    pub scope: Scope,
    pub limit: usize,
    pub filter: Option<Filter>,
    pub threshold: Option<f64>,
}

fn scope_of(user_id: &Option<String>, agent_id: &Option<String>, run_id: &Option<String>) -> Result<Scope> {
    Scope { user_id: user_id.clone(), agent_id: agent_id.clone(), run_id: run_id.clone() }.validated()
}

/// Parses an optional filter expression.
pub fn parse_filter(filters: &Option<Value>) -> Result<Option<Filter>> {
    filters.as_ref().filter(|value| !value.is_null()).map(Filter::parse).transpose()
}

impl AddOptions {
    /// The validated scope.
    pub fn scope(&self) -> Result<Scope> {
        scope_of(&self.user_id, &self.agent_id, &self.run_id)
    }
}

impl QueryOptions {
    /// Validates scope, limit (a positive whole number), filter and threshold.
    pub fn query(&self) -> Result<Query> {
        let scope = scope_of(&self.user_id, &self.agent_id, &self.run_id)?;
        let limit = match self.limit {
            None => DEFAULT_LIMIT,
            Some(limit) if limit >= 1.0 && limit.fract() == 0.0 && limit.is_finite() => {
                limit.min(u32::MAX as f64) as usize
            }
            Some(limit) => {
                return Err(MemoryError::InvalidInput(format!("limit must be a positive whole number, got {limit}")))
            }
        };
        if let Some(threshold) = self.threshold.filter(|t| !t.is_finite()) {
            return Err(MemoryError::InvalidInput(format!("threshold must be a finite number, got {threshold}")));
        }
        Ok(Query { scope, limit, filter: parse_filter(&self.filters)?, threshold: self.threshold })
    }
}

/// `add()`'s first argument: a string (one user message) or an array of `{role, content}`.
pub fn parse_messages(input: &Value) -> Result<Vec<Message>> {
    let invalid = |why: String| MemoryError::InvalidInput(why);
    match input {
        Value::String(text) => Ok(vec![Message { role: "user".into(), content: text.clone() }]),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let role = item.get("role").and_then(Value::as_str);
                let content = item.get("content").and_then(Value::as_str);
                match (role, content) {
                    (Some(role), Some(content)) if !role.is_empty() => {
                        Ok(Message { role: role.to_owned(), content: content.to_owned() })
                    }
                    _ => Err(invalid(format!("messages[{index}] must be {{role: string, content: string}}"))),
                }
            })
            .collect(),
        other => Err(invalid(format!("messages must be a string or an array of messages, got {}", kind(other)))),
    }
}

/// A non-empty string argument such as a query, an id or a memory text.
pub fn required_text<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str> {
    match value {
        Some(text) if !text.trim().is_empty() => Ok(text),
        _ => Err(MemoryError::InvalidInput(format!("{name} must be a non-empty string"))),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_from_string_or_array() {
        assert_eq!(parse_messages(&json!("hi")).unwrap(), vec![Message { role: "user".into(), content: "hi".into() }]);
        let list =
            parse_messages(&json!([{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}])).unwrap();
        assert_eq!(list[1].role, "assistant");
        for bad in [
            json!(5),
            json!(null),
            json!({"role": "user"}),
            json!([{"role": "user"}]),
            json!([{"role": "", "content": "x"}]),
            json!([{"role": "user", "content": 3}]),
        ] {
            assert_eq!(parse_messages(&bad).unwrap_err().code(), "INVALID_INPUT", "{bad}");
        }
    }

    #[test]
    fn query_options_validate_limit_threshold_filter_and_scope() {
        let base = QueryOptions { user_id: Some("u".into()), ..Default::default() };
        assert_eq!(base.query().unwrap().limit, DEFAULT_LIMIT);
        assert_eq!(QueryOptions { limit: Some(3.0), ..base.clone() }.query().unwrap().limit, 3);
        for limit in [0.0, -1.0, 2.5, f64::NAN] {
            assert_eq!(
                QueryOptions { limit: Some(limit), ..base.clone() }.query().err().unwrap().code(),
                "INVALID_INPUT"
            );
        }
        assert_eq!(
            QueryOptions { threshold: Some(f64::INFINITY), ..base.clone() }.query().err().unwrap().code(),
            "INVALID_INPUT"
        );
        assert_eq!(
            QueryOptions { filters: Some(json!({"AND": 1})), ..base.clone() }.query().err().unwrap().code(),
            "INVALID_FILTER"
        );
        assert_eq!(QueryOptions::default().query().err().unwrap().code(), "SCOPE_REQUIRED");
    }

    #[test]
    fn required_text_rejects_blank() {
        assert_eq!(required_text("query", Some("x")).unwrap(), "x");
        assert!(required_text("query", Some("  ")).is_err());
        assert!(required_text("query", None).unwrap_err().to_string().contains("query"));
    }
}
