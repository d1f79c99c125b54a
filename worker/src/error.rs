//! Every failure as `{"error": {"code", "message"}}` with its HTTP status.

use memwasm::MemoryError;
use serde_json::json;
use worker::Response;

/// An error response.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into() }
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
        Ok(response)
    }
}

impl From<MemoryError> for ApiError {
    /// Caller mistakes are 4xx; an upstream model that rate-limits is 429, one that fails otherwise 502;
    /// storage and configuration failures are 500.
    fn from(error: MemoryError) -> Self {
        let status = match &error {
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
        Self::new(status, error.code(), crate::wire_names::with_wire_names(&error.to_string()))
    }
}

impl From<worker::Error> for ApiError {
    fn from(error: worker::Error) -> Self {
        Self::new(500, "INTERNAL", error.to_string())
    }
}
