//! memwasm's REST API on Cloudflare Workers: one tenant per bearer token, any of the library's LLMs and
//! embedders from vars and secrets (see `settings`). JSON is snake_case on the wire and every error is
//! `{"error": {"code", "message"}}`.
//!
//! Storage (`STORAGE`): `do` (default) forwards each authenticated request to its tenant's Durable Object,
//! which runs the same handlers over a warm engine and its SQLite-backed storage (`durable`); `kv` runs them
//! here, over a fresh engine on Workers KV for every request.
//!
//! - `/v1/…` (`v1`): seed 000 §12's mem0-style routes (add, search, list, get, update, delete, history,
//!   reset, graph entities); tenant-wide tokens only.
//! - `/api/v1/memory/…` (`memory_api`): seed 003's key-value entries per agent, owned by users.
//! - `/api/v1/memories…` (`conversations_api`): seed 002's message-level memory (store a message, fetch by
//!   type, search, conversation metadata, delete by filter, GroupChatFormat batches); tenant-wide tokens
//!   only; answers and errors in the seed's envelopes.
//! - `/v1/tiers/…` (`tiers_api`): seed 001's tiers — background flush (202, the add runs in `waitUntil`),
//!   context window, daily journals, dream consolidation, core profile, dream diary, prompt injection;
//!   tenant-wide tokens only.
//! - `/mem0/…` (`mem0_api`, prefix from the var `MEM0_PREFIX`): mem0's hosted-platform API, so the
//!   official `MemoryClient`s (npm and PyPI `mem0ai`) work unmodified with `host` set to
//!   `https://<worker>/mem0`; `Authorization: Token <key>`, errors as `{"detail"}`; tenant-wide tokens only.
//! - A Cron Trigger (`scheduled`) purges expired memories and decays importance in every tenant, then
//!   dreams over the scopes with new journal turns (`dreams`, at most `DREAM_MAX_SCOPES` per tenant).
//!
//! Graph memory is on when the var `GRAPH_ENABLED` is `"true"`; search then also returns `relations`.

mod auth;
mod conversations_api;
mod dreams;
mod durable;
mod error;
mod mem0_api;
mod memory_api;
mod requests;
mod scheduled;
mod settings;
mod settle;
mod sweep;
mod tiers_api;
mod v1;
mod wire;
mod wire_names;

use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;

use memwasm::core::models::Embedder as _;
use memwasm::core::tiers::BackgroundSettings;
use memwasm::platform::compose::{parts, Engine};
use wasm_bindgen::JsValue;
use worker::{durable::State, event, Context, Env, Method, Request, Response};

use self::error::ApiError;
use self::settings::Backend;

/// An engine shared by the requests that use it (a Durable Object keeps one across requests).
pub type Shared = Rc<Engine>;
/// An engine, the vector length its embedder promises (when configured), and its background settings.
pub type Built = (Shared, Option<usize>, BackgroundSettings);

/// Where work that outlives the answer runs: the request's `waitUntil`, or the object's.
pub enum Later<'a> {
    Request(&'a Context),
    Object(&'a State),
}

impl Later<'_> {
    /// Runs `work` after the answer, keeping the request (or object) alive until it ends.
    pub fn spawn(&self, work: impl Future<Output = ()> + 'static) {
        match self {
            Later::Request(ctx) => ctx.wait_until(work),
            Later::Object(state) => state.wait_until(work),
        }
    }
}

#[event(fetch)]
async fn fetch(mut request: Request, env: Env, ctx: Context) -> worker::Result<Response> {
    match durable::front::route(&request, &env) {
        Ok(Some(tenant)) => return durable::front::forward(request, &env, &tenant).await,
        Ok(None) => {}
        Err(error) => return settle::settle(&mut request, &env, error.response()).await,
    }
    dispatch(request, &env, &Later::Request(&ctx)).await
}

/// Answers `request` with the handlers of its route family (here for `STORAGE = "kv"`, in the tenant's
/// object for `"do"`), draining whatever of its body the answer left unread (`settle`).
pub(crate) async fn dispatch(mut request: Request, env: &Env, later: &Later<'_>) -> worker::Result<Response> {
    let response = answer(&mut request, env, later).await;
    settle::settle(&mut request, env, response).await
}

async fn answer(request: &mut Request, env: &Env, later: &Later<'_>) -> worker::Result<Response> {
    let mem0_prefix = mem0_api::prefix(env);
    if mem0_api::is_family(&request.path(), &mem0_prefix) {
        return mem0_api::serve(request, env, &mem0_prefix).await;
    }
    if conversations_api::route::is_family(&request.path()) {
        return conversations_api::serve(request, env).await;
    }
    match handle(request, env, later).await {
        Ok(response) => Ok(response),
        Err(error) => error.response(),
    }
}

/// The body, refused with 413 when it is larger than `MAX_BODY_BYTES` (by its header, or once read), and with
/// 415 when the request declares a content type that is not JSON (none declared, or `text/plain` — what `fetch`
/// sends for a string body — is read as JSON).
pub(crate) async fn body(request: &mut Request, env: &Env) -> Result<Vec<u8>, ApiError> {
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
    let bytes = request.bytes().await?;
    if bytes.len() > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The engine of `tenant` (its memories loaded scope by scope as requests need them, each scope's graph
/// with it), and the vector length its embedder promises, when configured: the warm engine of the tenant's
/// object inside it, else a fresh one over the tenant's slice of KV.
fn engine(env: &Env, tenant: &str) -> Result<(Shared, Option<usize>), ApiError> {
    let (engine, dimensions, _) = engine_with_background(env, tenant)?;
    Ok((engine, dimensions))
}

/// `engine`, with the background writer's settings of the config (its retries).
fn engine_with_background(env: &Env, tenant: &str) -> Result<Built, ApiError> {
    if let Some(built) = durable::warm::engine(tenant, |storage| build(env, tenant, storage))? {
        return Ok(built);
    }
    if settings::backend(env)? == Backend::Objects {
        let why = "STORAGE is \"do\": the tenant's engine lives in its object, and this request did not reach it";
        return Err(ApiError::new(503, "OBJECT_UNAVAILABLE", why));
    }
    build(env, tenant, settings::binding(env, settings::KV_BINDING)?)
}

/// An engine over `storage` (a KV binding, or an object's storage dressed as one) under the tenant's prefix.
fn build(env: &Env, tenant: &str, storage: JsValue) -> Result<Built, ApiError> {
    memwasm::platform::use_host_unicode();
    let config = settings::resolved_config(env, &auth::tenant_prefix(tenant))?;
    let live = settings::live_values(env, &config, storage)?;
    let parts = parts(&config, &live)?;
    let dimensions = parts.embedder.dimensions();
    Ok((Rc::new(parts.engine(&config)), dimensions, config.background))
}

async fn handle(request: &mut Request, env: &Env, later: &Later<'_>) -> Result<Response, ApiError> {
    let path = request.path();
    let memory_api = memory_api::route::memory_segments(&path);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if memory_api.is_none() && segments.first() != Some(&"v1") {
        return Err(ApiError::not_found(format!("route {path}")));
    }
    let caller = auth::caller(request, env)?;
    let method = request.method();
    let has_body = matches!(method, Method::Post | Method::Put);
    let body = if has_body { body(request, env).await? } else { Vec::new() };
    let pairs = request.query::<HashMap<String, String>>().unwrap_or_default();
    if let Some(rest) = memory_api {
        return memory_api::handle(env, &caller, &method, &rest, pairs, &body).await;
    }
    if !caller.admin {
        return Err(ApiError::forbidden("the /v1/ routes act on the whole tenant: they take a tenant-wide token"));
    }
    if segments.get(1) == Some(&"tiers") {
        let (engine, _, background) = engine_with_background(env, &caller.tenant)?;
        return tiers_api::handle(engine, background, later, method, &segments[2..], pairs, &body).await;
    }
    let (engine, _) = engine(env, &caller.tenant)?;
    v1::handle(&engine, method, &segments[1..], &path, pairs, &body).await
}
