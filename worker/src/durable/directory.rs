//! The tenant's own object with `DO_SHARDS = "scope"`: it holds no memories, only the directory of which
//! user's object holds which memory (`dir/<id>` → user) and of the users that have one (`user/<user>`), in
//! its storage (never in memory), and it answers the `/v1/` routes that name no user:
//!
//! - by id (`GET`, `PUT`, `DELETE /v1/memories/{id}/`, `GET …/history/`): sent to the holder's object;
//! - `POST /v1/reset/`: every user's object is reset, then the directory;
//! - `GET /v1/export/[?after=<cursor>]`: one user's export per call (JSON Lines, as `exportMemories`
//!   writes them), with `x-memwasm-next: <cursor>` while more users follow;
//! - a search, list or delete naming no user: every user's object in turn (`across`).
//!
//! A user's object reports the memories its requests wrote and deleted (`POST /__do/directory`) before it
//! answers them. Any other route answers `USER_ID_REQUIRED` (an add, the entities routes) or `NOT_SHARDED`.

use memwasm::core::kv::keys::{decode, decode_lenient, encode};
use serde::{Deserialize, Serialize};
use serde_json::json;
use worker::{Headers, ListOptions, Method, Request, RequestInit, Response};

use super::across;
use super::front::{self, Target};
use super::shard;
use super::TenantObject;
use crate::auth;
use crate::error::ApiError;

/// The header naming where the next export page starts.
pub const NEXT_HEADER: &str = "x-memwasm-next";
/// Keys per storage call.
const KEYS_PER_CALL: usize = 128;

/// What a user's object wrote and deleted: memory ids.
#[derive(Serialize, Deserialize, Default)]
pub struct Changes {
    #[serde(default)]
    pub user: String,
    #[serde(default)]
    pub put: Vec<String>,
    #[serde(default)]
    pub drop: Vec<String>,
}

impl Changes {
    /// Adds `later`'s ids; an id written again after a delete (or deleted after a write) keeps the later.
    pub fn merge(&mut self, later: Changes) {
        self.put.retain(|id| !later.drop.contains(id));
        self.drop.retain(|id| !later.put.contains(id));
        self.put.extend(later.put);
        self.drop.extend(later.drop);
    }

    pub fn is_empty(&self) -> bool {
        self.put.is_empty() && self.drop.is_empty()
    }

    pub fn len(&self) -> usize {
        self.put.len() + self.drop.len()
    }
}

/// Sends `changes` to `tenant`'s object (`POST /__do/directory`).
pub async fn send(env: &worker::Env, tenant: &str, changes: &Changes) -> Result<(), ApiError> {
    let headers = Headers::new();
    headers.set(super::TENANT_HEADER, tenant)?;
    headers.set("content-type", "application/json")?;
    let body = serde_json::to_string(changes).map_err(|error| ApiError::new(500, "INTERNAL", error.to_string()))?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_headers(headers).with_body(Some(body.into()));
    let request = Request::new_with_init("https://memwasm.internal/__do/directory", &init)?;
    let response = front::stub(env, tenant)?.fetch_with_request(request).await?;
    match response.status_code() {
        200..=299 => Ok(()),
        status => Err(ApiError::new(503, "OBJECT_UNAVAILABLE", format!("the directory answered {status}"))),
    }
}

/// Takes `changes` into the directory.
pub async fn record(object: &TenantObject, changes: Changes) -> Result<(), ApiError> {
    let storage = object.state.storage();
    for ids in changes.put.chunks(KEYS_PER_CALL) {
        let entries = js_sys::Object::new();
        for id in ids {
            js_sys::Reflect::set(&entries, &dir_key(id).into(), &changes.user.as_str().into())
                .map_err(super::storage_error)?;
        }
        storage.put_multiple_raw(entries).await?;
    }
    for ids in changes.drop.chunks(KEYS_PER_CALL) {
        storage.delete_multiple(ids.iter().map(|id| dir_key(id)).collect()).await?;
    }
    if !changes.put.is_empty() {
        storage.put(&user_key(&changes.user), "").await?;
    }
    Ok(())
}

fn dir_key(id: &str) -> String {
    format!("dir/{}", encode(id))
}

fn user_key(user: &str) -> String {
    format!("user/{}", encode(user))
}

pub async fn serve(object: &TenantObject, request: Request, tenant: &str) -> Result<Response, ApiError> {
    let (method, path) = (request.method(), request.path());
    if across::is_read_across(&method, &path) {
        let caller = auth::caller(&request, &object.env)?;
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
    let caller = auth::caller(&request, &object.env)?;
    if !caller.admin || caller.tenant != tenant {
        return Err(ApiError::forbidden("the /v1/ routes act on the whole tenant: they take a tenant-wide token"));
    }
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).skip(1).collect();
    match segments.as_slice() {
        ["reset"] => reset(object, &request, tenant).await,
        ["export"] => export(object, &request, tenant).await,
        [_, id, ..] => {
            let id = decode_lenient(id);
            let user: Option<String> = object.state.storage().get(&dir_key(&id)).await?;
            let user = user.ok_or_else(|| ApiError::not_found(format!("memory {id}")))?;
            let target = Target { tenant: tenant.to_owned(), user: Some(user) };
            front::send(&request, &object.env, &target).await
        }
        _ => Err(ApiError::not_found(format!("route {path}"))),
    }
}

/// The users with an object, in order, from the first after `after`; at most `limit`.
async fn users(object: &TenantObject, after: Option<&str>, limit: usize) -> Result<Vec<String>, ApiError> {
    let start = after.map(user_key);
    let mut options = ListOptions::new().prefix("user/").limit(limit + 1);
    if let Some(start) = &start {
        options = options.start(start);
    }
    let listed = object.state.storage().list_with_options(options).await?;
    let keys = listed.keys().into_iter().filter_map(|key| key.ok()?.as_string());
    let users = keys.filter(|key| Some(key) != start.as_ref()).filter_map(|key| decode(key.strip_prefix("user/")?));
    Ok(users.take(limit).collect())
}

/// Every user with an object, in order.
pub async fn every_user(object: &TenantObject) -> Result<Vec<String>, ApiError> {
    let mut all: Vec<String> = Vec::new();
    loop {
        let page = users(object, all.last().map(String::as_str), 1000).await?;
        if page.is_empty() {
            return Ok(all);
        }
        all.extend(page);
    }
}

/// A request to a user's object for `path`, with the caller's credentials.
pub(super) fn inner_request(original: &Request, method: worker::Method, path: &str) -> Result<Request, ApiError> {
    let headers = Headers::new();
    if let Some(authorization) = original.headers().get("authorization")? {
        headers.set("authorization", &authorization)?;
    }
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(headers);
    Ok(Request::new_with_init(&format!("https://memwasm.internal{path}"), &init)?)
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

/// The cron in every user's object of the tenant; a failure is logged and the others still run.
pub async fn cron(object: &TenantObject, tenant: &str, cron: &str, max_scopes: Option<usize>) -> Result<(), ApiError> {
    for user in every_user(object).await? {
        let target = Target { tenant: tenant.to_owned(), user: Some(user.clone()) };
        if let Err(error) = front::cron(&object.env, &target, cron, max_scopes).await {
            worker::console_error!("memwasm cron ({cron}): tenant {tenant:?}, user {user:?}: {}", error.message);
        }
    }
    Ok(())
}
