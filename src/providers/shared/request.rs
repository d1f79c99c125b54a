//! The request side every HTTP provider shares: where a request goes, its headers, and the transport's
//! failure as the core sees it.

use crate::core::error::UpstreamError;
use crate::http::HttpError;

/// The transport's failure as the core sees it: a status (or none for a network failure, a timeout, a host
/// found down) and a message.
pub(crate) fn upstream(error: HttpError) -> UpstreamError {
    match error {
        HttpError::Network(message) => UpstreamError::new(None, message),
        HttpError::Status { status, message } => UpstreamError::new(Some(status), message),
        HttpError::Timeout(ms) => UpstreamError::timeout(ms),
        HttpError::Unreachable { .. } => UpstreamError::new(None, error.to_string()),
        HttpError::CircuitOpen { origin, since_ms, retry_at_ms } => {
            UpstreamError::host_down(&origin, since_ms, retry_at_ms)
        }
    }
}

/// `base_url` + `path`, without doubling the slash.
pub(crate) fn endpoint(base_url: &str, path: &str) -> String {
    format!("{}/{}", base_url.trim_end_matches('/'), path)
}

/// Where a provider posts its requests, and the headers that go with them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub url: String,
    pub headers: Vec<(String, String)>,
}

impl Target {
    /// A POST of `body` to this target.
    pub fn post(&self, body: serde_json::Value) -> crate::http::HttpRequest {
        crate::http::HttpRequest {
            url: self.url.clone(),
            headers: self.headers.clone(),
            body: body.to_string(),
            timeout_ms: None,
        }
    }
}

/// JSON and, when a key is set, bearer-auth headers.
pub(crate) fn json_headers(api_key: Option<&str>) -> Vec<(String, String)> {
    let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
    if let Some(key) = api_key.filter(|key| !key.is_empty()) {
        headers.push(("authorization".to_owned(), format!("Bearer {key}")));
    }
    headers
}
