//! Scope sharding (`DO_SHARDS = "scope"`): each user of a tenant has an object of their own, so a tenant is
//! no longer bounded by one object's memory. The front end sends a `/v1/` memory request that names a
//! `user_id` straight to that user's object; the tenant's own object keeps the directory of which user
//! holds which memory id (`directory`) and answers the routes that name no user: by id, reset, export,
//! and reads across users (`across`).

use memwasm::core::model::scope::checked_id;
use memwasm::core::model::scope_fields::ANY;
use worker::{Env, Method, Request};

use crate::error::ApiError;

pub use crate::tenant_engine::{slot_name as object_name, SHARD_HEADER};

/// The `/v1/` path segments after `v1`, when `path` is one.
fn v1_segments(path: &str) -> Option<Vec<&str>> {
    let mut segments = path.split('/').filter(|s| !s.is_empty());
    (segments.next() == Some("v1")).then(|| segments.collect())
}

/// Where a `/v1/` request names its user: `Some(true)` in the JSON body, `Some(false)` in the query string,
/// `None` when the route is not one a user's object serves (by id, reset, other families).
pub fn user_place(method: &Method, path: &str) -> Option<bool> {
    let segments = v1_segments(path)?;
    match (method, segments.as_slice()) {
        (Method::Post, ["memories"] | ["memories", "search"]) => Some(true),
        (Method::Get | Method::Delete, ["memories"]) | (Method::Get, ["memories", "search"]) => Some(false),
        (Method::Get, ["entities", ..] | ["export"]) => Some(false),
        _ => None,
    }
}

/// The `user_id` a request names in the place `user_place` gives, as the engine files it (trimmed and checked
/// by `checked_id`, so every spelling of one user reaches the object that holds its scope; `INVALID_INPUT`
/// for one the engine refuses); `None` when it names none, or any user (`"__all__"`). A body is read once, as
/// the desk reads it (415 when not JSON, 413 past `MAX_BODY_BYTES`, never held whole), and `request` then
/// carries what was read.
pub async fn user_of(request: &mut Request, env: &Env) -> Result<Option<String>, ApiError> {
    let Some(in_body) = user_place(&request.method(), &request.path()) else { return Ok(None) };
    let named = if in_body {
        let body = crate::desk::body::body(request, env).await?;
        *request = super::copy::request_like(request, request.method(), request.url()?.as_str(), &body)?;
        let value: Option<serde_json::Value> = serde_json::from_slice(&body).ok();
        value.and_then(|value| value.get("user_id")?.as_str().map(str::to_owned))
    } else {
        let url = request.url()?;
        let user = url.query_pairs().find(|(name, _)| name == "user_id").map(|(_, user)| user.into_owned());
        user
    };
    let Some(named) = named.filter(|user| !user.trim().is_empty()) else { return Ok(None) };
    // "__all__" means any user: such a read spans users, as one naming none does (the tenant's object).
    let user = checked_id("user_id", &named)?;
    Ok((user != ANY).then_some(user))
}

/// True for a `/v1/` route the tenant's object serves itself in scope mode (by id, reset, export).
pub fn is_directory_route(method: &Method, path: &str) -> bool {
    let Some(segments) = v1_segments(path) else { return false };
    matches!(
        (method, segments.as_slice()),
        (Method::Get | Method::Put | Method::Delete, ["memories", _])
            | (Method::Get, ["memories", _, "history"])
            | (Method::Post, ["reset"])
            | (Method::Get, ["export"])
    ) && !matches!(segments.as_slice(), ["memories", "search"])
}
