//! The stateless front end of `STORAGE = "do"`: authenticates, then forwards the request to its tenant's
//! object (`idFromName(tenant)`), naming the tenant in `TENANT_HEADER`, or with `DO_SHARDS = "scope"` a
//! `/v1/` memory request that names a `user_id` to that user's object (`shard`), naming the user in
//! `SHARD_HEADER`; a `/v1/sync` request goes to the object of the user whose log it reaches. Requests that
//! fail authentication are answered here by the route handlers themselves (each family's own 401), before
//! any storage is used.

use worker::{Env, Request, Response};

use super::shard::{self, SHARD_HEADER};
use super::TENANT_HEADER;
use crate::auth;
use crate::desk::Family;
use crate::error::ApiError;
use crate::settings::{self, Backend, Shards};
use crate::shard_need::{Place, ShardNeed};
use crate::sync_api::{route::SyncRoute, user};

/// The object a request goes to: its tenant's, or one user's of the tenant.
pub struct Target {
    pub tenant: String,
    pub user: Option<String>,
}

/// The object that should answer `request`, of `family` (`desk::Family::of`); `None` when this isolate
/// answers it (the KV backend, or a caller without a valid token). With `DO_SHARDS = "scope"`, a route that
/// names its user (`ShardNeed::User`) goes to that user's object; a body that names the user is read here
/// (`shard::user_of`), and `request` carries what was read.
pub async fn route(request: &mut Request, env: &Env, family: Option<&Family>) -> Result<Option<Target>, ApiError> {
    if settings::backend(env)? == Backend::Kv || request.path().starts_with("/__do/") {
        return Ok(None);
    }
    let Ok(caller) = auth::caller(request, env) else { return Ok(None) };
    if let Some(Family::Sync(route)) = family {
        return sync_target(request, env, caller, *route).await;
    }
    let need = family.map_or(ShardNeed::Unsharded, Family::shard_need);
    let user = match (settings::shards(env)?, need) {
        (Shards::Scope, ShardNeed::User { place, .. }) => shard::user_of(request, env, place).await?,
        _ => None,
    };
    Ok(Some(Target { tenant: caller.tenant, user }))
}

/// The object of a `/v1/sync` request: the tenant's, or with `DO_SHARDS = "scope"` the user's whose log it
/// reaches (`sync_api::user::owner`: a tenant-wide token names it in `userId`, read here from the query
/// string or the push's body, and `request` then carries what was read). A path no sync route serves is
/// answered in this isolate (404).
async fn sync_target(
    request: &mut Request,
    env: &Env,
    caller: auth::Caller,
    route: Option<SyncRoute>,
) -> Result<Option<Target>, ApiError> {
    let Some(route) = route else { return Ok(None) };
    if settings::shards(env)? != Shards::Scope {
        return Ok(Some(Target { tenant: caller.tenant, user: None }));
    }
    // A user's token reaches its own object whatever it names; the object refuses another user's name.
    let in_query = crate::query::Query::of(&request.url()?).get(user::USER_FIELD).map(str::to_owned);
    let named = match (caller.admin, route.user_place()) {
        (false, _) => None,
        (true, Place::Query) => in_query,
        (true, Place::Body) => user::either(shard::sync_user_named(request, env).await?, in_query)?,
    };
    let owner = user::owner(&caller, named.as_deref())?;
    Ok(Some(Target { tenant: caller.tenant, user: Some(owner) }))
}

/// The object named `name`.
pub(super) fn stub(env: &Env, name: &str) -> Result<worker::Stub, ApiError> {
    let namespace = env.durable_object(settings::OBJECTS_BINDING).map_err(|_| {
        let why = format!("the Durable Object binding {} is missing (see wrangler.toml)", settings::OBJECTS_BINDING);
        ApiError::new(500, "INVALID_CONFIG", why)
    })?;
    Ok(namespace.id_from_name(name)?.get_stub()?)
}

/// Sends `request` to `target`'s object, naming its tenant and user; 503 `OBJECT_UNAVAILABLE` when the
/// object failed (it threw or was reset): what it acknowledged before is stored, and the request may be retried.
pub(super) async fn send(request: &Request, env: &Env, target: &Target) -> Result<Response, ApiError> {
    let stub = stub(env, &shard::object_name(&target.tenant, target.user.as_deref()))?;
    // The body moves to the copy from here on: the object reads it, or drains what its answer left unread.
    let mut forwarded = request.clone_mut()?;
    let headers = forwarded.headers_mut()?;
    headers.set(TENANT_HEADER, &target.tenant)?;
    match &target.user {
        Some(user) => headers.set(SHARD_HEADER, &encode_header(user))?,
        None => headers.delete(SHARD_HEADER)?,
    }
    stub.fetch_with_request(forwarded).await.map_err(|error| {
        ApiError::new(503, "OBJECT_UNAVAILABLE", format!("the tenant's durable object failed: {error}"))
    })
}

/// A user id as a header value (percent-encoded: ids may hold any character).
pub(super) fn encode_header(user: &str) -> String {
    memwasm::core::kv::keys::encode(user)
}

/// Answers `request` from `target`'s object.
pub async fn forward(request: &Request, env: &Env, target: &Target) -> worker::Result<Response> {
    match send(request, env, target).await {
        Ok(response) => Ok(response),
        Err(error) => error.response(),
    }
}

/// The cron for one tenant (or one user's object of it), run in its object (`POST /__do/cron`); a failure
/// is logged by the caller.
pub async fn cron(env: &Env, target: &Target, cron: &str, max_scopes: Option<usize>) -> Result<(), ApiError> {
    let body = serde_json::json!({ "cron": cron, "max_scopes": max_scopes }).to_string();
    post_internal(env, target, "cron", body, "the cron").await
}

/// `POST /__do/<route>` with the JSON `body`, to `target`'s object; 503 `OBJECT_UNAVAILABLE` naming
/// `what` when it answers other than 2xx.
pub(super) async fn post_internal(
    env: &Env,
    target: &Target,
    route: &str,
    body: String,
    what: &str,
) -> Result<(), ApiError> {
    let headers = worker::Headers::new();
    headers.set(TENANT_HEADER, &target.tenant)?;
    if let Some(user) = &target.user {
        headers.set(SHARD_HEADER, &encode_header(user))?;
    }
    headers.set("content-type", "application/json")?;
    let mut init = worker::RequestInit::new();
    init.with_method(worker::Method::Post).with_headers(headers).with_body(Some(body.into()));
    let request = Request::new_with_init(&format!("https://memwasm.internal/__do/{route}"), &init)?;
    let name = shard::object_name(&target.tenant, target.user.as_deref());
    let response = stub(env, &name)?.fetch_with_request(request).await?;
    match response.status_code() {
        200..=299 => Ok(()),
        status => Err(ApiError::new(503, "OBJECT_UNAVAILABLE", format!("{what} answered {status}"))),
    }
}

/// Whether the cron runs in the objects (`STORAGE = "do"`).
pub fn cron_in_objects(env: &Env) -> Result<bool, ApiError> {
    Ok(settings::backend(env)? == Backend::Objects)
}
