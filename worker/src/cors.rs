//! CORS for the `/v1/sync` routes, which browser tabs on other origins call (the playground, an app's page):
//! a preflight (`OPTIONS`) is answered before authentication, and every answer of those routes allows any
//! origin. Callers authenticate with a bearer token, never a cookie, so no origin gains what its caller
//! lacks.

use worker::{Headers, Method, Request, Response};

/// True for a path of the sync routes.
fn is_sync(path: &str) -> bool {
    path == "/v1/sync" || path.starts_with("/v1/sync/")
}

/// The answer to a preflight of a sync route; `None` for any other request.
pub fn preflight(request: &Request) -> worker::Result<Option<Response>> {
    if request.method() != Method::Options || !is_sync(&request.path()) {
        return Ok(None);
    }
    let headers = Headers::new();
    headers.set("access-control-allow-origin", "*")?;
    headers.set("access-control-allow-methods", "GET, POST, DELETE, OPTIONS")?;
    headers.set("access-control-allow-headers", "authorization, content-type")?;
    headers.set("access-control-max-age", "86400")?;
    Ok(Some(Response::empty()?.with_status(204).with_headers(headers)))
}

/// `response` to a request for `path`, allowing any origin to read it when `path` is a sync route.
pub fn allowed(path: &str, response: worker::Result<Response>) -> worker::Result<Response> {
    if !is_sync(path) {
        return response;
    }
    let response = response?;
    let headers = response.headers().clone();
    headers.set("access-control-allow-origin", "*")?;
    headers.set("access-control-expose-headers", "retry-after")?;
    Ok(response.with_headers(headers))
}
