//! The tenant's own object with `DO_SHARDS = "scope"`: it holds no memories, only the `directory`, and it
//! answers the routes that name no user, as each declares (`crate::shard_need`):
//!
//! - by id (`GET`, `PUT`, `DELETE /v1/memories/{id}/`, `GET …/history/`): sent to the holder's object;
//! - the whole tenant (`POST /v1/reset/`, `POST /v1/reembed/`): every user's object in turn (a reset then
//!   clears the directory; the re-embedded memories are summed);
//! - `GET /v1/export/[?after=<cursor>]`: one user's export per call (JSON Lines, as `exportMemories`
//!   writes them), with `x-memwasm-next: <cursor>` while more users follow;
//! - a search, list or delete naming no user: every user's object in turn (`across`).
//!
//! A route that needs a user answers `USER_ID_REQUIRED` (an add, the entities routes); one not sharded
//! (every family but the `/v1/` memory routes, and a path no route serves) `NOT_SHARDED`.

use memwasm::core::kv::keys::{decode_lenient, encode};
use serde_json::{json, Value};
use worker::{Headers, Method, Request, Response};

use super::directory::{dir_key, every_user, users};
use super::front::{self, Target};
use super::{across, copy, TenantObject};
use crate::desk::{admit_in, Family};
use crate::error::ApiError;
use crate::query::Query;
use crate::shard_need::{ShardNeed, Unnamed};
use crate::v1::route::V1Route;

/// The header naming where the next export page starts.
pub const NEXT_HEADER: &str = "x-memwasm-next";

/// Answers `request`, of `family` (`None`: no family serves its path).
pub async fn serve(
    object: &TenantObject,
    request: &mut Request,
    tenant: &str,
    family: Option<Family>,
) -> Result<Response, ApiError> {
    let Some(family @ Family::V1(Some(call))) = &family else { return Err(not_sharded(request)) };
    let need = call.route.shard_need();
    match need {
        ShardNeed::Unsharded => return Err(not_sharded(request)),
        ShardNeed::User { unnamed: Unnamed::Required, .. } => {
            let why = "user_id: required (memories are kept per user: DO_SHARDS is \"scope\")";
            return Err(ApiError::new(400, "USER_ID_REQUIRED", why));
        }
        _ => {}
    }
    admit_in(request, &object.env, family, tenant)?;
    match need {
        ShardNeed::User { unnamed: Unnamed::Across, .. } => {
            let searched = matches!(call.route, V1Route::Search | V1Route::SearchBody);
            across::serve(object, request, tenant, searched).await
        }
        ShardNeed::User { unnamed: Unnamed::ExportPages, .. } => export(object, request, tenant).await,
        ShardNeed::EveryUser => every_user_then(object, request, tenant, call.route).await,
        ShardNeed::ById => {
            let id = decode_lenient(&call.id_or_name);
            let user: Option<String> = object.state.storage().get(&dir_key(&id)).await?;
            let user = user.ok_or_else(|| ApiError::not_found(format!("memory {id}")))?;
            let target = Target { tenant: tenant.to_owned(), user: Some(user) };
            front::send(request, &object.env, &target).await
        }
        ShardNeed::User { unnamed: Unnamed::Required, .. } | ShardNeed::Unsharded => Err(not_sharded(request)),
    }
}

/// 501 `NOT_SHARDED` for `request`.
fn not_sharded(request: &Request) -> ApiError {
    let why = format!("{}: not served when DO_SHARDS is \"scope\"; the /v1/ memory routes are", request.path());
    ApiError::new(501, "NOT_SHARDED", why)
}

/// A request to a user's object for `path`, with the caller's credentials.
fn inner_request(original: &Request, method: Method, path: &str) -> Result<Request, ApiError> {
    copy::request_like(original, method, &format!("https://memwasm.internal{path}"), &[])
}

/// A route of the whole tenant (`route`: reset or reembed) in every user's object in turn; a reset then
/// clears the directory, a reembed sums what each object embedded again.
async fn every_user_then(
    object: &TenantObject,
    request: &Request,
    tenant: &str,
    route: V1Route,
) -> Result<Response, ApiError> {
    let (mut memories, mut warnings) = (0, Vec::new());
    for user in every_user(object).await? {
        let inner = inner_request(request, request.method(), &request.path())?;
        let target = Target { tenant: tenant.to_owned(), user: Some(user.clone()) };
        let mut answer = front::send(&inner, &object.env, &target).await?;
        if answer.status_code() != 200 {
            let why = format!("{} of user {user:?}: {}", route.name(), answer.text().await.unwrap_or_default());
            return Err(ApiError::new(503, "OBJECT_UNAVAILABLE", why));
        }
        let answered: Value = answer.json().await?;
        memories += answered.get("memories").and_then(Value::as_u64).unwrap_or(0);
        warnings.extend(answered.get("warnings").and_then(Value::as_array).cloned().unwrap_or_default());
    }
    if route != V1Route::Reembed {
        object.state.storage().delete_all().await?;
        return Ok(Response::from_json(&json!({ "message": "Memories reset successfully!" }))?);
    }
    let mut answer = json!({ "memories": memories });
    if !warnings.is_empty() {
        answer["warnings"] = Value::Array(warnings);
    }
    Ok(Response::from_json(&answer)?)
}

async fn export(object: &TenantObject, request: &Request, tenant: &str) -> Result<Response, ApiError> {
    let after = Query::of(&request.url()?).take("after");
    let page = users(object, after.as_deref(), 2).await?;
    let Some(user) = page.first() else {
        return Ok(Response::ok("")?.with_headers(jsonl_headers()?));
    };
    let path = format!("{}?user_id={}", request.path(), encode(user));
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
