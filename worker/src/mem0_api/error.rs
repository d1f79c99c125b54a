//! mem0's error bodies: `{"detail": "…"}` (plus the worker's stable `code`, which mem0's clients ignore) with
//! the platform's status codes (400 bad input, 401 unknown
//! key, 403 a user token, 404 an unknown id, 501 a platform-only route). The clients turn the status into
//! their own exception (`AuthenticationError`, `MemoryNotFoundError`, `ValidationError`, …) and the
//! Python client reads `detail` as its message.

use memwasm::MemoryError;
use serde_json::json;
use worker::kv::KvError;
use worker::Response;

use crate::error::ApiError;

/// What mem0 says when the key is wrong (the Python client raises it from its constructor's ping).
pub const INVALID_KEY: &str =
    "Invalid API key. Send a key of MEMORY_TOKENS as `Authorization: Token <key>` (or `Bearer <key>`).";

/// An error response of the mem0 API.
#[derive(Debug)]
pub struct Mem0Error {
    pub status: u16,
    /// The worker's stable code (`INVALID_INPUT`, `NOT_FOUND`, …), as in its other APIs' errors.
    pub code: &'static str,
    pub detail: String,
    /// `Retry-After` seconds, when the error knows them.
    pub retry_after_s: Option<u32>,
}

/// The result of a mem0 handler.
pub type Result<T> = std::result::Result<T, Mem0Error>;

impl Mem0Error {
    /// An error whose code follows from its status.
    pub fn new(status: u16, detail: impl Into<String>) -> Self {
        let code = match status {
            400 => "INVALID_INPUT",
            401 => "UNAUTHORIZED",
            403 => "FORBIDDEN",
            404 => "NOT_FOUND",
            413 => "PAYLOAD_TOO_LARGE",
            415 => "UNSUPPORTED_MEDIA_TYPE",
            501 => "NOT_IMPLEMENTED",
            _ => "INTERNAL",
        };
        Self { status, code, detail: detail.into(), retry_after_s: None }
    }

    /// 400 with `detail`.
    pub fn invalid(detail: impl Into<String>) -> Self {
        Self::new(400, detail)
    }

    /// 404 for a well-formed memory id this tenant does not have; 400 for one that is no memory id at all
    /// (not a UUID), as mem0's platform answers (its clients raise `ValidationError`).
    pub fn memory_not_found(id: &str) -> Self {
        if !is_uuid(id) {
            return Self::invalid(format!("'{id}' is not a valid memory id: memory ids are UUIDs"));
        }
        Self::new(404, format!("Memory not found! (no memory {id})"))
    }

    /// 501 for a route of the platform memwasm does not serve.
    pub fn not_implemented(method: &str, path: &str) -> Self {
        Self::new(
            501,
            format!(
                "{method} {path} is a mem0 platform route that memwasm does not implement (organisations, projects, \
                 webhooks, profiles and summaries are platform-only); see the README, \"The mem0 platform API\", for the \
                 routes it serves"
            ),
        )
    }

    /// The response carrying this error.
    pub fn response(&self) -> worker::Result<Response> {
        let body = json!({ "detail": self.detail, "code": self.code });
        let response = Response::from_json(&body)?.with_status(self.status);
        if self.status == 401 {
            response.headers().set("www-authenticate", "Token")?;
        }
        crate::error::retry_after(&response, self.retry_after_s)?;
        Ok(response)
    }
}

/// True for a UUID in its 36-character form (`8-4-4-4-12` hexadecimal digits), the shape of every memory id.
fn is_uuid(id: &str) -> bool {
    id.len() == 36
        && id
            .char_indices()
            .all(|(at, c)| if matches!(at, 8 | 13 | 18 | 23) { c == '-' } else { c.is_ascii_hexdigit() })
}

impl From<ApiError> for Mem0Error {
    fn from(error: ApiError) -> Self {
        match error.status {
            401 => Self::new(401, INVALID_KEY),
            status => Self { status, code: error.code, detail: error.message, retry_after_s: error.retry_after_s },
        }
    }
}

impl From<MemoryError> for Mem0Error {
    fn from(error: MemoryError) -> Self {
        match &error {
            MemoryError::NotFound(id) => Self::memory_not_found(id),
            _ => ApiError::from(error).into(),
        }
    }
}

impl From<worker::Error> for Mem0Error {
    fn from(error: worker::Error) -> Self {
        Self::new(500, error.to_string())
    }
}

impl From<KvError> for Mem0Error {
    fn from(error: KvError) -> Self {
        Self::new(500, format!("KV: {error}"))
    }
}
