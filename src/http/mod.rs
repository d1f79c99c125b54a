//! HTTP as the core sees it: a tiny transport trait (the platform supplies `fetch`) plus retry.

mod retry;
mod timed;

pub use retry::{send_with_retry, RetryPolicy};
pub use timed::Timed;

/// A JSON POST request.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Give up (`HttpError::Timeout`, which is retried) when no response arrived within this many ms.
    pub timeout_ms: Option<u32>,
}

/// What came back, whatever the status.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    /// The `Retry-After` header, if the server sent one.
    pub retry_after: Option<String>,
    pub body: String,
}

impl HttpResponse {
    /// True for 2xx statuses.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// A failed HTTP exchange.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The request never got a response (DNS, refused connection, CORS, dropped socket, …).
    #[error("network error: {0}")]
    Network(String),
    /// The server answered with a non-2xx status.
    #[error("HTTP {status}: {message}")]
    Status { status: u16, message: String },
    /// No response within the request's `timeout_ms` (the request was aborted).
    #[error("no response within {0} ms")]
    Timeout(u32),
}

impl HttpError {
    /// True when trying again may help: no response, a timeout, 408, 429 or a 5xx. Any other status is the
    /// same on every try.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Network(_) | Self::Timeout(_) => true,
            Self::Status { status, .. } => is_transient_status(*status),
        }
    }
}

/// 408 (request timeout), 429 (rate limited) and 5xx: statuses worth another try.
pub fn is_transient_status(status: u16) -> bool {
    status == 408 || status == 429 || status >= 500
}

/// The platform's way to send requests and wait; the only I/O the providers need.
#[allow(async_fn_in_trait)]
pub trait HttpClient {
    /// Sends one POST; `Err` only when no response arrived at all.
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError>;
    /// Waits `ms` milliseconds (used between retries).
    async fn sleep(&self, ms: u32);
}

/// The human part of an error body: OpenAI's `{"error": {"message"}}` and similar shapes, else the raw text.
pub fn error_message(body: &str) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|value| {
        let error = value.get("error").unwrap_or(value);
        error.get("message").and_then(|m| m.as_str()).or_else(|| error.as_str()).map(str::to_owned)
    });
    let text = message.unwrap_or_else(|| body.trim().to_owned());
    let mut short: String = text.chars().take(300).collect();
    if short.is_empty() {
        short = "(empty body)".into();
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_message_reads_openai_shape_and_falls_back_to_text() {
        assert_eq!(error_message(r#"{"error":{"message":"bad key","type":"x"}}"#), "bad key");
        assert_eq!(error_message(r#"{"error":"quota"}"#), "quota");
        assert_eq!(error_message("  gateway down "), "gateway down");
        assert_eq!(error_message(""), "(empty body)");
        assert_eq!(error_message(&"x".repeat(1000)).len(), 300);
    }
}
