//! Portable filter expressions (mem0's filter syntax), parsed from JSON and evaluated against a memory's
//! metadata and top-level fields.

use crate::core::case::CaseExt;
use std::borrow::Cow;
use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::error::{MemoryError, Result};
use super::model::types::MemoryItem;

/// How deeply AND/OR/NOT may nest; deeper input is rejected rather than risking the stack.
const MAX_DEPTH: usize = super::limits::MAX_FILTER_DEPTH;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    Eq,
    Ne,
    Gt,
    Gte,
    Lt,
    Lte,
    In,
    Nin,
    Contains,
    IContains,
}

impl Operator {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "eq" => Self::Eq,
            "ne" => Self::Ne,
            "gt" => Self::Gt,
            "gte" => Self::Gte,
            "lt" => Self::Lt,
            "lte" => Self::Lte,
            "in" => Self::In,
            "nin" => Self::Nin,
            "contains" => Self::Contains,
            "icontains" => Self::IContains,
            _ => return None,
        })
    }
}

/// A parsed filter.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    Condition { field: String, operator: Operator, value: Value },
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Not(Box<Filter>),
}

fn invalid(message: impl Into<String>) -> MemoryError {
    MemoryError::InvalidFilter(message.into())
}

impl Filter {
    /// Parses `{field, operator, value}`, `{AND: [..]}`, `{OR: [..]}`, `{NOT: ..}` or the `{key: scalar}` shorthand.
    pub fn parse(value: &Value) -> Result<Self> {
        let filter = Self::parse_at(value, 0)?;
        let nodes = filter.nodes();
        if nodes > super::limits::MAX_FILTER_NODES {
            let limit = super::limits::MAX_FILTER_NODES;
            return Err(invalid(format!("{nodes} conditions and AND/OR/NOT nodes exceed the limit of {limit}")));
        }
        Ok(filter)
    }

    /// How many conditions and AND / OR / NOT nodes the filter has.
    fn nodes(&self) -> usize {
        match self {
            Filter::Condition { .. } => 1,
            Filter::And(children) | Filter::Or(children) => 1 + children.iter().map(Filter::nodes).sum::<usize>(),
            Filter::Not(child) => 1 + child.nodes(),
        }
    }

    fn parse_at(value: &Value, depth: usize) -> Result<Self> {
        if depth > MAX_DEPTH {
            return Err(invalid(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let object = value.as_object().ok_or_else(|| invalid(format!("expected an object, got {value}")))?;
        for (key, build) in [("AND", Filter::And as fn(Vec<Filter>) -> Filter), ("OR", Filter::Or)] {
            if let Some(children) = logical(object, key)? {
                let items = children.as_array().ok_or_else(|| invalid(format!("{key} must be an array")))?;
                let parsed = items.iter().map(|child| Self::parse_at(child, depth + 1)).collect::<Result<_>>()?;
                return Ok(build(parsed));
            }
        }
        if let Some(child) = logical(object, "NOT")? {
            return Ok(Filter::Not(Box::new(Self::parse_at(child, depth + 1)?)));
        }
        if ["field", "operator", "value"].iter().any(|key| object.contains_key(*key)) {
            return parse_condition(object);
        }
        parse_shorthand(object)
    }

    /// True when `item` satisfies the filter.
    pub fn matches(&self, item: &MemoryItem) -> bool {
        match self {
            Filter::And(children) => children.iter().all(|child| child.matches(item)),
            Filter::Or(children) => children.iter().any(|child| child.matches(item)),
            Filter::Not(child) => !child.matches(item),
            Filter::Condition { field, operator, value } => {
                compare(field_value(item, field).as_deref(), *operator, value)
            }
        }
    }
}

/// The child of a logical key (`AND`, or its lower-case spelling), which must then be the only key.
fn logical<'a>(object: &'a Map<String, Value>, key: &str) -> Result<Option<&'a Value>> {
    let Some(child) = object.get(key).or_else(|| object.get(&key.lowercased())) else {
        return Ok(None);
    };
    if object.len() != 1 {
        return Err(invalid(format!("{key} must be the only key of its object")));
    }
    Ok(Some(child))
}

fn parse_condition(object: &Map<String, Value>) -> Result<Filter> {
    if let Some(extra) = object.keys().find(|key| !["field", "operator", "value"].contains(&key.as_str())) {
        return Err(invalid(format!("unexpected key \"{extra}\" in condition")));
    }
    let field = match object.get("field") {
        Some(Value::String(field)) if !field.is_empty() => field.clone(),
        _ => return Err(invalid("condition needs a non-empty string \"field\"")),
    };
    let name =
        object.get("operator").and_then(Value::as_str).ok_or_else(|| invalid("condition needs an \"operator\""))?;
    let operator = Operator::parse(name).ok_or_else(|| {
        invalid(format!("unknown operator \"{name}\" (use eq, ne, gt, gte, lt, lte, in, nin, contains, icontains)"))
    })?;
    let value = object.get("value").ok_or_else(|| invalid(format!("condition on \"{field}\" needs a \"value\"")))?;
    let fits = match operator {
        Operator::Eq | Operator::Ne => !value.is_object(),
        Operator::Gt | Operator::Gte | Operator::Lt | Operator::Lte => value.is_number() || value.is_string(),
        Operator::In | Operator::Nin => value.is_array(),
        Operator::Contains => value.is_string() || value.is_number() || value.is_boolean(),
        Operator::IContains => value.is_string(),
    };
    if !fits {
        return Err(invalid(format!("operator \"{name}\" cannot take the value {value}")));
    }
    Ok(Filter::Condition { field, operator, value: value.clone() })
}

/// mem0's `{category: "work", userId: "alice"}`: every key equals its scalar value.
fn parse_shorthand(object: &Map<String, Value>) -> Result<Filter> {
    if object.is_empty() {
        return Err(invalid("empty filter object"));
    }
    let conditions = object
        .iter()
        .map(|(field, value)| match value {
            Value::Object(_) | Value::Array(_) => {
                Err(invalid(format!("shorthand value for \"{field}\" must be a scalar")))
            }
            _ => Ok(Filter::Condition { field: field.clone(), operator: Operator::Eq, value: value.clone() }),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(if conditions.len() == 1 {
        conditions.into_iter().next().unwrap_or(Filter::And(vec![]))
    } else {
        Filter::And(conditions)
    })
}

/// A top-level field (camelCase or snake_case), else a metadata key, else a dotted metadata path.
fn field_value<'a>(item: &'a MemoryItem, field: &str) -> Option<Cow<'a, Value>> {
    let text = |s: &str| Some(Cow::Owned(Value::String(s.to_owned())));
    let optional = |s: &Option<String>| s.as_deref().and_then(text);
    match field {
        "memory" => text(&item.memory),
        "hash" => text(&item.hash),
        "id" => text(&item.id),
        "createdAt" | "created_at" => text(&item.created_at),
        "updatedAt" | "updated_at" => text(&item.updated_at),
        "userId" | "user_id" => optional(&item.scope.user_id),
        "agentId" | "agent_id" => optional(&item.scope.agent_id),
        "runId" | "run_id" => optional(&item.scope.run_id),
        _ => item.metadata.get(field).or_else(|| dotted(&item.metadata, field)).map(Cow::Borrowed),
    }
}

fn dotted<'a>(metadata: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.');
    let first = metadata.get(parts.next()?)?;
    parts.try_fold(first, |value, key| value.get(key))
}

fn compare(actual: Option<&Value>, operator: Operator, expected: &Value) -> bool {
    let Some(actual) = actual.filter(|value| !value.is_null()) else {
        return match operator {
            Operator::Ne | Operator::Nin => !expected.is_null() && !in_set(&Value::Null, expected),
            Operator::Eq => expected.is_null(),
            Operator::In => in_set(&Value::Null, expected),
            _ => false,
        };
    };
    match operator {
        Operator::Eq => same(actual, expected),
        Operator::Ne => !same(actual, expected),
        Operator::Gt => order(actual, expected) == Some(Ordering::Greater),
        Operator::Gte => matches!(order(actual, expected), Some(Ordering::Greater | Ordering::Equal)),
        Operator::Lt => order(actual, expected) == Some(Ordering::Less),
        Operator::Lte => matches!(order(actual, expected), Some(Ordering::Less | Ordering::Equal)),
        Operator::In => in_set(actual, expected),
        Operator::Nin => !in_set(actual, expected),
        Operator::Contains => contains(actual, expected, false),
        Operator::IContains => contains(actual, expected, true),
    }
}

/// JSON equality where `1` equals `1.0`.
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) if a.is_number() && b.is_number() => x == y,
        _ => a == b,
    }
}

/// Numbers compare numerically, strings lexicographically (so ISO dates work); anything else is unordered.
fn order(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// `in`: a scalar field is one of the values; an array field shares at least one of them.
fn in_set(actual: &Value, set: &Value) -> bool {
    let Some(set) = set.as_array() else {
        return false;
    };
    match actual {
        Value::Array(items) => items.iter().any(|item| set.iter().any(|candidate| same(item, candidate))),
        _ => set.iter().any(|candidate| same(actual, candidate)),
    }
}

/// `contains`: substring of a string field, or an element of an array field.
fn contains(actual: &Value, needle: &Value, ignore_case: bool) -> bool {
    let text_contains = |haystack: &str| match needle.as_str() {
        Some(needle) if ignore_case => haystack.lowercased().contains(&needle.lowercased()),
        Some(needle) => haystack.contains(needle),
        None => false,
    };
    match actual {
        Value::String(haystack) => text_contains(haystack),
        Value::Array(items) => items.iter().any(|item| match (item, ignore_case) {
            (Value::String(text), true) => needle.as_str().is_some_and(|n| text.lowercased() == n.lowercased()),
            _ => same(item, needle),
        }),
        _ => false,
    }
}

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;
