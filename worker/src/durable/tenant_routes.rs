//! The tenant's own object with `DO_SHARDS = "scope"`: it holds no memories, only the `directory`, and it
//! answers the `/v1/` routes that name no user:
//!
//! - by id (`GET`, `PUT`, `DELETE /v1/memories/{id}/`, `GET …/history/`): sent to the holder's object;
//! - `POST /v1/reset/`: every user's object is reset, then the directory;
//! - `GET /v1/export/[?after=<cursor>]`: one user's export per call (JSON Lines, as `exportMemories`
//!   writes them), with `x-memwasm-next: <cursor>` while more users follow;
//! - a search, list or delete naming no user: every user's object in turn (`across`).
//!
//! Any other route answers `USER_ID_REQUIRED` (an add, the entities routes) or `NOT_SHARDED`.

use memwasm::core::kv::keys::{decode_lenient, encode};
use serde_json::json;
use worker::{Headers, Method, Request, Response};

use super::directory::{dir_key, every_user, users};
use super::front::{self, Target};
use super::{across, copy, shard, TenantObject};
use crate::auth;
use crate::error::ApiError;

/// The header naming where the next export page starts.
pub const NEXT_HEADER: &str = "x-memwasm-next";

pub async fn serve(object: &TenantObject, request: &mut Request, tenant: &str) -> Result<Response, ApiError> {
    let (method, path) = (request.method(), request.path());
    if across::is_read_across(&method, &path) {
        let caller = auth::caller(request, &object.env)?;
        if !caller.admin || caller.tenant != tenant {
            return Err(ApiError::forbidden("the /v1/ routes act on the whole tenant: they take a tenant-wide token"));
        }
        return across::serve(object, request, tenant).await;
    }
    if !shard::is_directory_route(&method, &path) {
        return Err(match shard::user_place(&method, &path) {
            Some(_) => ApiError::new(
                400,
                "USER_ID_REQUIRED",
                "user_id: required (memories are kept per user: DO_SHARDS is \"scope\")",
            ),
            None => ApiError::new(
                501,
                "NOT_SHARDED",
                format!("{path}: not served when DO_SHARDS is \"scope\"; the /v1/ memory routes are"),
            ),
        });
    }
    let caller = auth::caller(request, &object.env)?;
    if !caller.admin || caller.tenant != tenant {
        return Err(ApiError::forbidden("the /v1/ routes act on the whole tenant: they take a tenant-wide token"));
    }
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).skip(1).collect();
    match segments.as_slice() {
        ["reset"] => reset(object, request, tenant).await,
        ["export"] => export(object, request, tenant).await,
        [_, id, ..] => {
            let id = decode_lenient(id);
            let user: Option<String> = object.state.storage().get(&dir_key(&id)).await?;
            let user = user.ok_or_else(|| ApiError::not_found(format!("memory {id}")))?;
            let target = Target { tenant: tenant.to_owned(), user: Some(user) };
            front::send(request, &object.env, &target).await
        }
        _ => Err(ApiError::not_found(format!("route {path}"))),
    }
}

/// A request to a user's object for `path`, with the caller's credentials.
fn inner_request(original: &Request, method: Method, path: &str) -> Result<Request, ApiError> {
    copy::request_like(original, method, &format!("https://memwasm.internal{path}"), &[])
}

async fn reset(object: &TenantObject, request: &Request, tenant: &str) -> Result<Response, ApiError> {
    for user in every_user(object).await? {
        let reset = inner_request(request, Method::Post, "/v1/reset/")?;
        let target = Target { tenant: tenant.to_owned(), user: Some(user.clone()) };
        let mut answer = front::send(&reset, &object.env, &target).await?;
        if answer.status_code() != 200 {
            let why = format!("resetting user {user:?}: {}", answer.text().await.unwrap_or_default());
            return Err(ApiError::new(503, "OBJECT_UNAVAILABLE", why));
        }
    }
    object.state.storage().delete_all().await?;
    Ok(Response::from_json(&json!({ "message": "Memories reset successfully!" }))?)
}

async fn export(object: &TenantObject, request: &Request, tenant: &str) -> Result<Response, ApiError> {
    let url = request.url()?;
    let after = url.query_pairs().find(|(name, _)| name == "after").map(|(_, after)| after.into_owned());
    let page = users(object, after.as_deref(), 2).await?;
    let Some(user) = page.first() else {
        return Ok(Response::ok("")?.with_headers(jsonl_headers()?));
    };
    let path = format!("/v1/export/?user_id={}", encode(user));
    let target = Target { tenant: tenant.to_owned(), user: Some(user.clone()) };
    let mut answer = front::send(&inner_request(request, Method::Get, &path)?, &object.env, &target).await?;
    if answer.status_code() != 200 {
        return Ok(answer);
    }
    let headers = jsonl_headers()?;
    if page.len() > 1 {
        headers.set(NEXT_HEADER, &encode(user))?;
    }
    Ok(Response::from_bytes(answer.bytes().await?)?.with_headers(headers))
}

fn jsonl_headers() -> Result<Headers, ApiError> {
    let headers = Headers::new();
    headers.set("content-type", "application/x-ndjson")?;
    Ok(headers)
}
