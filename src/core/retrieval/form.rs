//! The conversation API's form of the reads (`GET /memories`, `GET /memories/search`), on top of the library's own:
//!
//! - `groupId` is the group's scope, `runId` by that API's name (giving both with different values is an
//!   error), and `"__all__"` (that API's "any") counts as not given for every id;
//! - `getAll` with `groupId` or `memoryType` is a fetch by type: one type (default `episodic`), 40 per
//!   page by default and at most 500;
//! - `search` with `groupId`: 40 results by default and at most 100;
//! - `search` never returns `profile` memories (that API does not
//!   search profiles): naming `profile` is `INVALID_INPUT`, and a search naming no types searches every
//!   other type;
//! - `radius` is a cosine floor in [0, 1] for the rankings that have a vector side.
//!
//! Without `groupId` / `memoryType` the counts keep the library's defaults (100, no maximum), so every
//! existing call reads as before.

use super::super::error::{MemoryError, Result};
use super::super::fusion::Method;
use super::super::read_call::{positive_whole, ReadCall};
use crate::core::model::MemoryType;

/// The default count of the conversation API's fetch and search.
pub const CONVERSATION_LIMIT: usize = 40;
/// The most memories one fetch by type returns.
pub const MAX_FETCH_LIMIT: usize = 500;
/// The most results a search with `groupId` returns.
pub const MAX_SEARCH_LIMIT: usize = 100;

fn invalid(why: String) -> MemoryError {
    MemoryError::InvalidInput(why)
}

/// True when a read takes the conversation API's form: `getAll` with `groupId` or `memoryType`, `search` with
/// `groupId`.
pub fn conversational(call: ReadCall, group_given: bool, type_given: bool) -> bool {
    match call {
        ReadCall::GetAll => group_given || type_given,
        ReadCall::Search => group_given,
        _ => false,
    }
}

/// The count: `count` (named `name`) or the default, within the conversation API's maximum in its form.
pub fn limit(call: ReadCall, seed_form: bool, name: &str, count: Option<f64>) -> Result<usize> {
    let default = if seed_form { CONVERSATION_LIMIT } else { call.default_limit() };
    let limit = match (name, count) {
        ("topK", Some(top_k)) => mem0_top_k(top_k)?,
        _ => positive_whole(name, count, default)?,
    };
    let max = match call {
        ReadCall::GetAll if seed_form => MAX_FETCH_LIMIT,
        ReadCall::Search if seed_form => MAX_SEARCH_LIMIT,
        _ => return Ok(limit),
    };
    if limit > max {
        let form = if call == ReadCall::GetAll { "groupId or memoryType" } else { "groupId" };
        return Err(invalid(format!("{name} must be at most {max} when {form} is given, got {limit}")));
    }
    Ok(limit)
}

/// `topK` as mem0 checks it: a whole number ≥ 0 (0 finds nothing), with mem0's messages.
fn mem0_top_k(top_k: f64) -> Result<usize> {
    if !top_k.is_finite() || top_k.fract() != 0.0 {
        return Err(invalid("topK must be a valid integer".into()));
    }
    if top_k < 0.0 {
        return Err(invalid(format!("Invalid topK: {top_k}. Must be a non-negative integer.")));
    }
    Ok(top_k.min(u32::MAX as f64) as usize)
}

/// The types a read keeps (`None`: every type).
pub fn memory_types(
    call: ReadCall,
    seed_form: bool,
    one: Option<MemoryType>,
    many: &Option<Vec<MemoryType>>,
) -> Result<Option<Vec<MemoryType>>> {
    if one.is_some() && many.is_some() {
        return Err(invalid("give memoryType or memoryTypes, not both".into()));
    }
    match call {
        ReadCall::Search => {
            if many.as_ref().is_some_and(|types| types.contains(&MemoryType::Profile)) {
                let why = "profile memories are not searchable; read them with getAll({memoryType: \"profile\"})";
                return Err(invalid(why.into()));
            }
            let searchable = || MemoryType::ALL.iter().copied().filter(|t| *t != MemoryType::Profile).collect();
            Ok(Some(many.clone().unwrap_or_else(searchable)))
        }
        ReadCall::GetAll if seed_form => {
            Ok(Some(many.clone().unwrap_or_else(|| vec![one.unwrap_or(MemoryType::Episodic)])))
        }
        _ => Ok(many.clone()),
    }
}

/// `radius`: a cosine in [0, 1], the floor of the vector ranking. With `method: "keyword"`, which has no
/// vector ranking, it is accepted and changes nothing.
pub fn radius(radius: Option<f64>) -> Result<Option<f64>> {
    let Some(radius) = radius else { return Ok(None) };
    if !(radius.is_finite() && (0.0..=1.0).contains(&radius)) {
        return Err(invalid(format!("radius must be a cosine similarity between 0 and 1, got {radius}")));
    }
    Ok(Some(radius))
}

/// `method`: `agentic` is a search method only.
pub fn method(call: ReadCall, method: Option<Method>) -> Result<Option<Method>> {
    if method == Some(Method::Agentic) && call != ReadCall::Search {
        return Err(invalid("method \"agentic\" is a search method (search(query, {method: \"agentic\"}))".into()));
    }
    Ok(method)
}

#[cfg(test)]
#[path = "form_tests.rs"]
mod tests;
