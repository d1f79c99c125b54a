//! memwasm's REST API on Cloudflare Workers: memories in Workers KV, one tenant per bearer token, any of
//! the library's LLMs and embedders from vars and secrets (see `settings`). JSON is snake_case on the wire
//! and every error is `{"error": {"code", "message"}}`.
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
mod error;
mod mem0_api;
mod memory_api;
mod requests;
mod scheduled;
mod settings;
mod sweep;
mod tiers_api;
mod v1;
mod wire;

use std::collections::HashMap;

use memwasm::core::models::Embedder as _;
use memwasm::core::tiers::BackgroundSettings;
use memwasm::platform::compose::{parts, Engine};
use worker::{event, Context, Env, Method, Request, Response};

use self::error::ApiError;

#[event(fetch)]
async fn fetch(request: Request, env: Env, ctx: Context) -> worker::Result<Response> {
    let mem0_prefix = mem0_api::prefix(&env);
    if mem0_api::is_family(&request.path(), &mem0_prefix) {
        return mem0_api::serve(request, &env, &mem0_prefix).await;
    }
    if conversations_api::route::is_family(&request.path()) {
        return conversations_api::serve(request, &env).await;
    }
    match handle(request, &env, &ctx).await {
        Ok(response) => Ok(response),
        Err(error) => error.response(),
    }
}

/// The body, refused with 413 when it is larger than `MAX_BODY_BYTES` (by its header, or once read).
pub(crate) async fn body(request: &mut Request, env: &Env) -> Result<Vec<u8>, ApiError> {
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

/// The engine of one request, over `tenant`'s slice of KV (loaded scope by scope as the request needs
/// it, each scope's graph with it), and the vector length its embedder promises, when configured.
fn engine(env: &Env, tenant: &str) -> Result<(Engine, Option<usize>), ApiError> {
    let (engine, dimensions, _) = engine_with_background(env, tenant)?;
    Ok((engine, dimensions))
}

/// `engine`, with the background writer's settings of the config (its retries).
fn engine_with_background(env: &Env, tenant: &str) -> Result<(Engine, Option<usize>, BackgroundSettings), ApiError> {
    let config = settings::resolved_config(env, &auth::tenant_prefix(tenant))?;
    let live = settings::live_values(env, &config)?;
    let parts = parts(&config, &live)?;
    let dimensions = parts.embedder.dimensions();
    Ok((parts.engine(&config), dimensions, config.background))
}

async fn handle(mut request: Request, env: &Env, ctx: &Context) -> Result<Response, ApiError> {
    let path = request.path();
    let memory_api = memory_api::route::memory_segments(&path);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if memory_api.is_none() && segments.first() != Some(&"v1") {
        return Err(ApiError::not_found(format!("route {path}")));
    }
    let caller = auth::caller(&request, env)?;
    let method = request.method();
    let has_body = matches!(method, Method::Post | Method::Put);
    let body = if has_body { body(&mut request, env).await? } else { Vec::new() };
    let pairs = request.query::<HashMap<String, String>>().unwrap_or_default();
    if let Some(rest) = memory_api {
        return memory_api::handle(env, &caller, &method, &rest, pairs, &body).await;
    }
    if !caller.admin {
        return Err(ApiError::forbidden("the /v1/ routes act on the whole tenant: they take a tenant-wide token"));
    }
    if segments.get(1) == Some(&"tiers") {
        let (engine, _, background) = engine_with_background(env, &caller.tenant)?;
        return tiers_api::handle(engine, background, ctx, method, &segments[2..], pairs, &body).await;
    }
    let (engine, _) = engine(env, &caller.tenant)?;
    v1::handle(&engine, method, &segments[1..], &path, pairs, &body).await
}
