//! What comes in: JSON bodies (unknown fields are errors that name them) and query strings, both snake_case.
//! Reads go straight into memwasm's one `ReadOptions` type, which takes the snake_case names as aliases.

use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::ReadOptions;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::error::ApiError;
use crate::query::{Kinds, Query};

/// `POST /v1/memories/`: the messages, and `add()`'s options (`user_id`, `metadata`, `filters`, `prompt`, …).
pub struct AddBody {
    pub messages: Value,
    pub options: AddOptions,
}

/// A search: its text (`query`, or `q` in query strings) and the read options.
pub struct SearchBody {
    pub query: String,
    pub options: ReadOptions,
}

/// `PUT /v1/memories/:id/`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateBody {
    pub text: String,
}

fn invalid(why: impl Into<String>) -> ApiError {
    ApiError::new(400, "INVALID_INPUT", why)
}

/// The body as a JSON object: malformed JSON is `INVALID_JSON`, anything but an object `INVALID_INPUT`.
pub fn object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice(body).map_err(ApiError::invalid_json)? {
        Value::Object(object) => Ok(object),
        _ => Err(invalid("the body must be a JSON object")),
    }
}

/// Reads `value` as `T`; a wrong shape is `INVALID_INPUT` naming the field. The wire is snake_case: the
/// library's camelCase names (`userId`) are refused here, though the library itself would take them.
pub fn shaped<T: DeserializeOwned>(what: &str, value: Value) -> Result<T, ApiError> {
    if let Some(key) = value.as_object().and_then(|fields| fields.keys().find(|k| k.chars().any(char::is_uppercase))) {
        let snake = crate::wire_names::snake_case(key);
        return Err(invalid(format!(
            "{what}: unknown field `{key}`, did you mean `{snake}`? (the REST API's fields are snake_case)"
        )));
    }
    serde_json::from_value(value).map_err(|e| {
        let said = e.to_string();
        let said = memwasm::core::unknown_field::reworded(&said).unwrap_or(said);
        invalid(crate::wire_names::with_wire_names(&format!("{what}: {said}")))
    })
}

/// Reads a JSON body as `T`.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    shaped("body", Value::Object(object(body)?))
}

/// `POST /v1/memories/`.
pub fn add_body(body: &[u8]) -> Result<AddBody, ApiError> {
    let mut fields = object(body)?;
    let messages = fields.remove("messages").ok_or_else(|| invalid("body: missing field `messages`"))?;
    Ok(AddBody { messages, options: shaped("body", Value::Object(fields))? })
}

/// `POST /v1/memories/search/` with a JSON body.
pub fn search_body(body: &[u8]) -> Result<SearchBody, ApiError> {
    let mut fields = object(body)?;
    let query = match fields.remove("query") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text,
        Some(other) => return Err(invalid(format!("body: query must be a string, got {other}"))),
    };
    Ok(SearchBody { query, options: shaped("body", Value::Object(fields))? })
}

/// A query string's parameters as a read's options: `limit`, `top_k` and `threshold` are numbers, `filters`
/// is JSON, the rest strings. Unknown names are refused, like unknown body fields.
pub fn read_query(query: &Query) -> Result<ReadOptions, ApiError> {
    let kinds = Kinds { numbers: &["limit", "top_k", "threshold"], json: &["filters"], ..Kinds::default() };
    shaped("query", Value::Object(query.fields(&kinds)?))
}

/// `GET /v1/memories/search/?q=…`: the text and the other parameters.
pub fn search_query(query: &Query) -> Result<SearchBody, ApiError> {
    let mut rest = query.clone();
    let text = rest.take("q").or_else(|| rest.take("query")).unwrap_or_default();
    Ok(SearchBody { query: text, options: read_query(&rest)? })
}
