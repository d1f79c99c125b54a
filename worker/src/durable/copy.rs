//! A copy of a request for another route or object: the original's credentials, a new method, URL and body.

use worker::Request;

use crate::error::ApiError;

/// A request for `url` carrying `original`'s credentials, and `body` with `original`'s content type.
pub(super) fn request_like(
    original: &Request,
    method: worker::Method,
    url: &str,
    body: &[u8],
) -> Result<Request, ApiError> {
    let headers = worker::Headers::new();
    let names: &[&str] = if body.is_empty() { &["authorization"] } else { &["authorization", "content-type"] };
    for name in names {
        if let Some(value) = original.headers().get(name)? {
            headers.set(name, &value)?;
        }
    }
    let mut init = worker::RequestInit::new();
    init.with_method(method).with_headers(headers);
    if !body.is_empty() {
        init.with_body(Some(js_sys::Uint8Array::from(body).into()));
    }
    Ok(Request::new_with_init(url, &init)?)
}
