//! The conversation API's envelopes. Success: `{status: "ok", message, result}`. Failure:
//! `{status: "failed", code, message, timestamp, path}` with the code by HTTP status:
//!
//! | status | code |
//! |---|---|
//! | 400 (and 410, 413) | `INVALID_PARAMETER` |
//! | 404 | `RESOURCE_NOT_FOUND` |
//! | 401 / 403 | `UNAUTHORIZED` / `FORBIDDEN` (the bearer-token checks all routes share) |
//! | 429, 5xx | `SYSTEM_ERROR` (429: the model provider still rate-limits; 502: a model failed; 500: KV or config) |
//!
//! A batch that does not validate adds `errors`, one entry per problem.

use memwasm::core::time::now_iso;
use memwasm::MemoryError;
use serde::Serialize;
use serde_json::{json, Value};
use worker::Response;

use crate::error::ApiError;

pub const INVALID_PARAMETER: &str = "INVALID_PARAMETER";
pub const RESOURCE_NOT_FOUND: &str = "RESOURCE_NOT_FOUND";
pub const SYSTEM_ERROR: &str = "SYSTEM_ERROR";

/// A failed request: its HTTP status, the API's code and a message (plus a batch's `errors`).
#[derive(Debug)]
pub struct Failure {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    pub errors: Option<Value>,
    /// `Retry-After` seconds, when the error knows them.
    pub retry_after_s: Option<u32>,
}

impl Failure {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), errors: None, retry_after_s: None }
    }

    /// 400 `INVALID_PARAMETER`.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(400, INVALID_PARAMETER, message)
    }

    /// 404 `RESOURCE_NOT_FOUND`.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(404, RESOURCE_NOT_FOUND, message)
    }

    /// The API's code for an HTTP status.
    fn code_of(status: u16) -> &'static str {
        match status {
            401 => "UNAUTHORIZED",
            403 => "FORBIDDEN",
            404 => RESOURCE_NOT_FOUND,
            429 | 500.. => SYSTEM_ERROR,
            _ => INVALID_PARAMETER,
        }
    }

    /// The response carrying this failure of a request to `path`.
    pub fn response(&self, path: &str) -> worker::Result<Response> {
        let mut body = json!({
            "status": "failed",
            "code": self.code,
            "message": self.message,
            "timestamp": now_iso(),
            "path": path,
        });
        if let Some(errors) = &self.errors {
            body["errors"] = errors.clone();
        }
        let response = Response::from_json(&body)?.with_status(self.status);
        if self.status == 401 {
            response.headers().set("www-authenticate", "Bearer")?;
        }
        crate::error::retry_after(&response, self.retry_after_s)?;
        Ok(response)
    }
}

impl From<ApiError> for Failure {
    /// The shared errors (auth, body size, malformed JSON, the library's) keep their status.
    fn from(error: ApiError) -> Self {
        let retry_after_s = error.retry_after_s;
        Self { retry_after_s, ..Self::new(error.status, Self::code_of(error.status), error.message) }
    }
}

impl From<MemoryError> for Failure {
    fn from(error: MemoryError) -> Self {
        ApiError::from(error).into()
    }
}

impl From<worker::Error> for Failure {
    fn from(error: worker::Error) -> Self {
        ApiError::from(error).into()
    }
}

/// `{status: "ok", message, result}`.
#[derive(Serialize)]
struct Success<'a, T: Serialize> {
    status: &'static str,
    message: &'a str,
    result: T,
}

/// A 200 answer in the API's envelope.
pub fn ok<T: Serialize>(message: &str, result: T) -> Result<Response, Failure> {
    Ok(Response::from_json(&Success { status: "ok", message, result })?)
}
