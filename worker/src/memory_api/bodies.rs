//! What the memory API takes: JSON bodies (unknown fields refused by name) and query strings.

use memwasm::core::read::positive_whole;
use serde::Deserialize;

use crate::error::ApiError;
use crate::query::Query;
use crate::requests::parse;

/// Default count of `search` and `vector-search`.
pub const DEFAULT_SEARCH_LIMIT: usize = 20;
/// Default page size of `list`.
pub const DEFAULT_LIST_LIMIT: usize = 50;
/// Default least similarity of `vector-search`.
pub const DEFAULT_THRESHOLD: f64 = 0.75;

/// `POST …/store`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreBody {
    pub key: String,
    pub value: String,
    /// Milliseconds until it expires (0: never).
    pub ttl: Option<f64>,
    pub embedding: Option<Vec<f32>>,
}

/// `POST …/vector-search`: `text` or `embedding`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorSearchBody {
    pub text: Option<String>,
    pub embedding: Option<Vec<f32>>,
    pub limit: Option<f64>,
    pub threshold: Option<f64>,
}

/// `POST …/:key/pin`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinBody {
    pub pinned: bool,
}

/// `POST /api/v1/memory/share`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareBody {
    pub from: String,
    pub to: String,
    pub pattern: String,
}

/// `POST /api/v1/memory/decay` (the body may be empty).
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecayBody {
    pub half_life_days: Option<f64>,
    pub forget_below: Option<f64>,
}

/// A body that may be left empty (then `T::default()`).
pub fn optional<T: Default + serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    parse(body)
}

/// `limit` of a body or query: a positive whole number, `default` when absent.
pub fn limit(value: Option<f64>, default: usize) -> Result<usize, ApiError> {
    Ok(positive_whole("limit", value, default)?)
}

/// Refuses query parameters named other than `allowed`.
fn only(query: &Query, allowed: &[&str]) -> Result<(), ApiError> {
    match query.names().find(|name| !allowed.contains(name)) {
        Some(name) => {
            Err(ApiError::invalid(format!("query: unknown parameter `{name}` (takes {})", allowed.join(", "))))
        }
        None => Ok(()),
    }
}

/// The value of a query parameter, unless blank.
fn given<'a>(query: &'a Query, name: &str) -> Option<&'a str> {
    query.get(name).filter(|value| !value.trim().is_empty())
}

/// A whole-number query parameter ≥ `min`, if given.
fn whole(query: &Query, name: &str, min: f64) -> Result<Option<f64>, ApiError> {
    let Some(text) = given(query, name) else { return Ok(None) };
    match text.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n.fract() == 0.0 && n >= min => Ok(Some(n)),
        _ => Err(ApiError::invalid(format!("{name} must be a whole number ≥ {min}, got {text:?}"))),
    }
}

/// `GET …/search?q=…&limit=20`: the text and the count.
pub fn search_query(query: &Query) -> Result<(String, usize), ApiError> {
    only(query, &["q", "limit"])?;
    let text = given(query, "q").ok_or_else(|| ApiError::invalid("query: missing parameter `q`"))?;
    Ok((text.to_owned(), limit(whole(query, "limit", 1.0)?, DEFAULT_SEARCH_LIMIT)?))
}

/// `GET …/list?limit=50&offset=0`: the page size and how many entries to skip.
pub fn list_query(query: &Query) -> Result<(usize, usize), ApiError> {
    only(query, &["limit", "offset"])?;
    let offset = whole(query, "offset", 0.0)?.map_or(0, |n| n.min(u32::MAX as f64) as usize);
    Ok((limit(whole(query, "limit", 1.0)?, DEFAULT_LIST_LIMIT)?, offset))
}
