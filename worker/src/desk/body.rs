//! Reading a request's body, once, for every route family and for the front end of scope sharding, and the
//! one lenient reader of a field of a JSON body (what scope sharding routes by).

use worker::{Env, Request};

use crate::error::ApiError;
use crate::settings;
use crate::settle::{read_within, DRAIN_FACTOR};

/// The body, refused with 413 when it is larger than `MAX_BODY_BYTES` (by its header, or while it is read: no
/// more than the limit is ever held), and with 415 when the request declares a content type that is not JSON
/// (none declared, or `text/plain` — what `fetch` sends for a string body — is read as JSON).
pub async fn body(request: &mut Request, env: &Env) -> Result<Vec<u8>, ApiError> {
    let declared_type = request.headers().get("content-type").ok().flatten().unwrap_or_default();
    let media = declared_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if !(media.is_empty() || media == "application/json" || media.ends_with("+json") || media == "text/plain") {
        let why = format!("content-type {media} is not JSON: send the body as application/json");
        return Err(ApiError::new(415, "UNSUPPORTED_MEDIA_TYPE", why));
    }
    let limit = settings::max_body_bytes(env)?;
    let too_large = || ApiError::new(413, "PAYLOAD_TOO_LARGE", format!("the request body exceeds {limit} bytes"));
    let declared = request.headers().get("content-length").ok().flatten().and_then(|n| n.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    read_within(request, limit, limit.saturating_mul(DRAIN_FACTOR)).await?.ok_or_else(too_large)
}

/// The field `name` of a JSON object `body`; `None` when the body is not a JSON object or has no such field
/// (the handler that reads the body whole names what is wrong with it).
pub fn field(body: &[u8], name: &str) -> Option<serde_json::Value> {
    let mut object: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(body).ok()?;
    object.remove(name)
}
