//! A model service that failed (`UpstreamError`), as the core sees it: a status or none, a message, and how
//! it failed. `MemoryError::Llm` / `MemoryError::Embedding` carry it.

use crate::core::time::iso_from_millis;

/// How a model service failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Failure {
    /// It answered with a non-2xx status (`status` holds it), or not at all (a network failure, a host that
    /// answered neither the request nor a liveness probe).
    Request,
    /// No answer within the configured `timeoutMs`.
    Timeout,
    /// Not sent: its host was found unreachable, and calls to it fail at once for `coolDownMs`.
    HostDown,
}

/// A model service that failed: no answer at all (`status: None`: a network failure, a timeout, a host
/// remembered down, see `failure`) or a non-2xx status. Providers turn their transport's errors into this, so
/// the core never sees HTTP types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpstreamError {
    pub status: Option<u16>,
    pub message: String,
    pub failure: Failure,
    /// For a host remembered down: when one call tries it again (ms since the Unix epoch; `None`: one is
    /// trying now, or the failure is another).
    pub retry_at_ms: Option<i64>,
}

impl UpstreamError {
    /// A non-2xx status (`Some`) or a network failure (`None`).
    pub fn new(status: Option<u16>, message: impl Into<String>) -> Self {
        Self { status, message: message.into(), failure: Failure::Request, retry_at_ms: None }
    }

    /// No answer within `ms` milliseconds.
    pub fn timeout(ms: u32) -> Self {
        Self {
            status: None,
            message: format!("no response within {ms} ms"),
            failure: Failure::Timeout,
            retry_at_ms: None,
        }
    }

    /// Not sent: `origin` was found unreachable at `since_ms`, and one call tries it again from `retry_at_ms`
    /// (`None`: one is trying now).
    pub fn host_down(origin: &str, since_ms: i64, retry_at_ms: Option<i64>) -> Self {
        let since = iso_from_millis(since_ms);
        let next = match retry_at_ms {
            Some(at) => format!("calls to it fail at once, and one call tries it again from {}", iso_from_millis(at)),
            None => "a call is trying it again now".to_owned(),
        };
        let message = format!(
            "{origin} has been unreachable since {since} (no answer, nor to a liveness probe), so no request was \
             sent; {next} (`config.coolDownMs` sets this wait, 0 turns it off)"
        );
        Self { status: None, message, failure: Failure::HostDown, retry_at_ms }
    }

    /// True when the failure may pass by itself: no answer, a timeout, a host down, or a [`transient_status`].
    pub fn is_transient(&self) -> bool {
        self.status.is_none_or(transient_status)
    }
}

/// 408 (request timeout), 429 (rate limited) and 5xx: statuses a model service may not answer next time
/// (what the HTTP layer retries).
pub fn transient_status(status: u16) -> bool {
    matches!(status, 408 | 429) || status >= 500
}

impl std::fmt::Display for UpstreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.status, self.failure) {
            (Some(status), _) => write!(f, "HTTP {status}: {}", self.message),
            (None, Failure::Timeout) => write!(f, "timed out: {}", self.message),
            (None, Failure::HostDown) => write!(f, "host unavailable: {}", self.message),
            (None, _) => write!(f, "network error: {}", self.message),
        }
    }
}

impl std::error::Error for UpstreamError {}
