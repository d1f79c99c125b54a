//! The stateless front end of `STORAGE = "do"`: authenticates, then forwards the request to its tenant's
//! object (`idFromName(tenant)`), naming the tenant in `TENANT_HEADER`. Requests that fail authentication
//! are answered here by the route handlers themselves (each family's own 401), before any storage is used.

use worker::{Env, Request, Response};

use super::TENANT_HEADER;
use crate::auth;
use crate::error::ApiError;
use crate::settings::{self, Backend};

/// The tenant whose object should answer `request`; `None` when this isolate answers it (the KV backend,
/// or a caller without a valid token).
pub fn route(request: &Request, env: &Env) -> Result<Option<String>, ApiError> {
    if settings::backend(env)? == Backend::Kv || request.path().starts_with("/__do/") {
        return Ok(None);
    }
    Ok(auth::caller(request, env).ok().map(|caller| caller.tenant))
}

/// The object of `tenant`.
fn stub(env: &Env, tenant: &str) -> Result<worker::Stub, ApiError> {
    let namespace = env.durable_object(settings::OBJECTS_BINDING).map_err(|_| {
        let why = format!("the Durable Object binding {} is missing (see wrangler.toml)", settings::OBJECTS_BINDING);
        ApiError::new(500, "INVALID_CONFIG", why)
    })?;
    Ok(namespace.id_from_name(tenant)?.get_stub()?)
}

/// Answers `request` from `tenant`'s object; 503 `OBJECT_UNAVAILABLE` when the object failed (it threw or
/// was reset): what it acknowledged before is stored, and the request may be retried.
pub async fn forward(request: Request, env: &Env, tenant: &str) -> worker::Result<Response> {
    let sent = async {
        let mut forwarded = request.clone_mut()?;
        forwarded.headers_mut()?.set(TENANT_HEADER, tenant)?;
        let stub = stub(env, tenant)?;
        stub.fetch_with_request(forwarded).await.map_err(|error| {
            ApiError::new(503, "OBJECT_UNAVAILABLE", format!("the tenant's durable object failed: {error}"))
        })
    };
    match sent.await {
        Ok(response) => Ok(response),
        Err(error) => error.response(),
    }
}

/// The cron for one tenant, run in its object (`POST /__do/cron`); a failure is logged by the caller.
pub async fn cron(env: &Env, tenant: &str, cron: &str, max_scopes: Option<usize>) -> Result<(), ApiError> {
    let body = serde_json::json!({ "cron": cron, "max_scopes": max_scopes }).to_string();
    let headers = worker::Headers::new();
    headers.set(TENANT_HEADER, tenant)?;
    headers.set("content-type", "application/json")?;
    let mut init = worker::RequestInit::new();
    init.with_method(worker::Method::Post).with_headers(headers).with_body(Some(body.into()));
    let request = Request::new_with_init("https://memwasm.internal/__do/cron", &init)?;
    let response = stub(env, tenant)?.fetch_with_request(request).await?;
    match response.status_code() {
        200..=299 => Ok(()),
        status => Err(ApiError::new(503, "OBJECT_UNAVAILABLE", format!("the cron answered {status}"))),
    }
}

/// Whether the cron runs in the objects (`STORAGE = "do"`).
pub fn cron_in_objects(env: &Env) -> Result<bool, ApiError> {
    Ok(settings::backend(env)? == Backend::Objects)
}
