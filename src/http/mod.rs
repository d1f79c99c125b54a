//! HTTP as the core sees it: a tiny transport trait (the platform supplies `fetch`) plus retry, and the
//! bounds of a model's requests (`Timed`: timeouts, a dead host found by a liveness probe, the breaker).

mod breaker;
mod origin;
mod retry;
mod timed;
mod watch;

pub use breaker::{Breaker, Now};
pub use origin::origin;
pub use retry::{send_with_retry, RetryPolicy};
pub use timed::{HostWatch, Timed};

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
    /// Neither the request (`why` it got no answer) nor a liveness probe of its `origin` got any answer: the
    /// host is down, or cannot be reached from here. Not retried.
    #[error("{why}, and {origin} did not answer a liveness probe either: the host looks down")]
    Unreachable { origin: String, why: String },
    /// Not sent: `origin` was found unreachable at `since_ms` (ms since the Unix epoch), and calls to it fail
    /// at once until `retry_at_ms`, when one tries again (`None`: one is trying now). Not retried.
    #[error("{origin} unreachable since {since_ms}; no request was sent")]
    CircuitOpen { origin: String, since_ms: i64, retry_at_ms: Option<i64> },
}

impl HttpError {
    /// True when trying again may help: no response, a timeout, 408, 429 or a 5xx. Any other status is the
    /// same on every try, and a host found down stays down for longer than a retry waits.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Network(_) | Self::Timeout(_) => true,
            Self::Status { status, .. } => is_transient_status(*status),
            Self::Unreachable { .. } | Self::CircuitOpen { .. } => false,
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
    /// Waits `ms` milliseconds (between retries, and to bound a request's wait for a dead host). Dropping the
    /// future cancels the wait.
    async fn sleep(&self, ms: u32);
    /// Asks `origin` (`scheme://host[:port]`) for anything at all, without credentials: true on any HTTP
    /// answer, whatever its status; false when it is known that none can come (the connection was refused, no
    /// such host). A failure whose reason is hidden (a browser's) counts as an answer. Has no bound of its own
    /// (the caller races it with `sleep`: silence is no answer); dropping the future stops it. A client that
    /// cannot probe answers true, so it never makes a slow host look dead.
    async fn probe(&self, origin: &str) -> bool {
        let _ = origin;
        true
    }
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
