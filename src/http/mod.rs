//! HTTP as the core sees it: a tiny transport trait (the platform supplies `fetch`) plus retry.

mod retry;

pub use retry::{send_with_retry, RetryPolicy};

/// A JSON POST request.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Give up (a network error, which is retried) when no response arrived within this many ms.
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
