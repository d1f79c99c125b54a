//! Every failure as `{"error": {"code", "message"}}` with its HTTP status.

use memwasm::core::error::{Failure, UpstreamError};
use memwasm::MemoryError;
use serde_json::json;
use worker::Response;

/// An error response.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    /// Seconds a client should wait before trying again (`Retry-After`), when the error knows.
    pub retry_after_s: Option<u32>,
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), retry_after_s: None }
    }

    /// 401: no bearer token, or one that names no tenant.
    pub fn unauthorized() -> Self {
        Self::new(401, "UNAUTHORIZED", "missing or unknown bearer token (Authorization: Bearer <token>)")
    }

    /// 403: an authenticated caller that may not do this.
    pub fn forbidden(why: impl Into<String>) -> Self {
        Self::new(403, "FORBIDDEN", why)
    }

    /// 400: a wrong field or parameter (the message names it).
    pub fn invalid(why: impl Into<String>) -> Self {
        Self::new(400, "INVALID_INPUT", why)
    }

    /// 404: nothing at this id, key or route.
    pub fn not_found(what: impl std::fmt::Display) -> Self {
        Self::new(404, "NOT_FOUND", format!("{what} not found"))
    }

    /// 400: a body or parameter that is not the JSON it should be.
    pub fn invalid_json(why: impl std::fmt::Display) -> Self {
        Self::new(400, "INVALID_JSON", format!("malformed JSON: {why}"))
    }

    /// The response carrying this error.
    pub fn response(&self) -> worker::Result<Response> {
        let body = json!({ "error": { "code": self.code, "message": self.message } });
        let response = Response::from_json(&body)?.with_status(self.status);
        if self.status == 401 {
            response.headers().set("www-authenticate", "Bearer")?;
        }
        retry_after(&response, self.retry_after_s)?;
        Ok(response)
    }
}

/// Sets `Retry-After` on `response` when `seconds` is known (every envelope's error response).
pub fn retry_after(response: &Response, seconds: Option<u32>) -> worker::Result<()> {
    if let Some(seconds) = seconds {
        response.headers().set("retry-after", &seconds.to_string())?;
    }
    Ok(())
}

/// For a model host remembered down (calls to it fail at once for a cool-down): the seconds until one call
/// tries it again (at least 1).
fn cool_down_left(error: &MemoryError) -> Option<u32> {
    let (MemoryError::Llm(upstream) | MemoryError::Embedding(upstream)) = error else { return None };
    let UpstreamError { failure: Failure::HostDown, retry_at_ms, .. } = upstream else { return None };
    let left_ms = retry_at_ms.map_or(0.0, |at| at as f64 - js_sys::Date::now());
    Some((left_ms / 1000.0).ceil().clamp(1.0, f64::from(u32::MAX)) as u32)
}

impl From<MemoryError> for ApiError {
    /// Caller mistakes are 4xx; an upstream model that rate-limits is 429, one whose host is remembered down
    /// 503 (with `Retry-After`: the cool-down left), one that fails otherwise 502; storage and configuration
    /// failures are 500.
    fn from(error: MemoryError) -> Self {
        let retry_after_s = cool_down_left(&error);
        let status = match &error {
            _ if retry_after_s.is_some() => 503,
            MemoryError::ScopeRequired | MemoryError::InvalidInput(_) | MemoryError::InvalidFilter(_) => 400,
            MemoryError::NotFound(_) => 404,
            MemoryError::Expired(_) => 410,
            MemoryError::Llm(upstream) | MemoryError::Embedding(upstream) if upstream.status == Some(429) => 429,
            MemoryError::Llm(_)
            | MemoryError::LlmResponse(_)
            | MemoryError::LlmCallback(_)
            | MemoryError::Embedding(_)
            | MemoryError::EmbeddingResponse(_)
            | MemoryError::EmbeddingCallback(_) => 502,
            _ => 500,
        };
        let message = crate::wire_names::with_wire_names(&error.to_string());
        Self { retry_after_s, ..Self::new(status, error.code(), message) }
    }
}

impl From<worker::Error> for ApiError {
    fn from(error: worker::Error) -> Self {
        Self::new(500, "INTERNAL", error.to_string())
    }
}
