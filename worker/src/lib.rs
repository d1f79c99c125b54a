//! memwasm's REST API on Cloudflare Workers: one tenant per bearer token, any of the library's LLMs and
//! embedders from vars and secrets (see `settings`). JSON is snake_case on the wire and every error is
//! `{"error": {"code", "message"}}`.
//!
//! Storage (`STORAGE`): `do` (default) forwards each authenticated request to its tenant's Durable Object,
//! which runs the same handlers over a warm engine and its SQLite-backed storage (`durable`); `kv` runs them
//! here, over a fresh engine on Workers KV for every request.
//!
//! Every request to a route family passes the front desk (`desk`): it authenticates, reads the body and the
//! query string once, and answers errors in the family's envelope.
//!
//! - `/v1/…` (`v1`): the mem0-style routes (add, search, list, get, update, delete, history, reset, graph
//!   entities); tenant-wide tokens only.
//! - `/api/v1/memory/…` (`memory_api`): the agent key/value entries, owned by users.
//! - `/api/v1/memories…` (`conversations_api`): the conversation API's message-level memory (store a
//!   message, fetch by type, search, conversation metadata, delete by filter, GroupChatFormat batches);
//!   tenant-wide tokens only; answers and errors in its envelopes.
//! - `/v1/tiers/…` (`tiers_api`): the memory tiers — background flush (202, the add runs in `waitUntil`),
//!   context window, daily journals, dream consolidation, core profile, dream diary, prompt injection;
//!   tenant-wide tokens only.
//! - `/v1/sync…` (`sync_api`): local-first sync, end-to-end encrypted: each user's server-ordered log of
//!   opaque entries, in the user's Durable Object (`STORAGE = "do"` only); a user's token, or a tenant-wide
//!   one naming `userId`.
//! - `/mem0/…` (`mem0_api`, prefix from the var `MEM0_PREFIX`): mem0's hosted-platform API, so the
//!   official `MemoryClient`s (npm and PyPI `mem0ai`) work unmodified with `host` set to
//!   `https://<worker>/mem0`; `Authorization: Token <key>`, errors as `{"detail"}`; tenant-wide tokens only.
//! - `/mcp` (`mcp`): an MCP server (Streamable HTTP, stateless) with mem0's MCP tools and the reference
//!   memory server's knowledge-graph tools; tenant-wide tokens only.
//! - A Cron Trigger (`scheduled`) purges expired memories and decays importance in every tenant, then
//!   dreams over the scopes with new journal turns (`dreams`, at most `DREAM_MAX_SCOPES` per tenant).
//!
//! Graph memory is on when the var `GRAPH_ENABLED` is `"true"`; search then also returns `relations`.

mod auth;
mod conversations_api;
mod cors;
mod desk;
mod dreams;
mod durable;
mod error;
mod later;
mod listed;
mod mcp;
mod mem0_api;
mod memory_api;
mod query;
mod requests;
mod scheduled;
mod settings;
mod settle;
mod shard_need;
mod sweep;
mod sync_api;
mod tenant_engine;
mod tiers_api;
mod v1;
mod visit;
mod wire;
mod wire_names;
mod wire_source;

use worker::{console_error, event, Context, Env, Request, Response, ScheduleContext, ScheduledEvent};

use self::later::Later;

#[event(fetch)]
async fn fetch(request: Request, env: Env, ctx: Context) -> worker::Result<Response> {
    if let Some(preflight) = cors::preflight(&request)? {
        return Ok(preflight);
    }
    let path = request.path();
    cors::allowed(&path, answer(request, env, ctx).await)
}

/// The answer to `request`: a listing, its object's (`STORAGE = "do"`), or the desk's.
async fn answer(mut request: Request, env: Env, ctx: Context) -> worker::Result<Response> {
    match desk::listing::answer(&request, &env) {
        Ok(Some(listing)) => return Ok(listing),
        Ok(None) => {}
        Err(error) => return error.response(),
    }
    // The request's family and route, parsed once for the front end of the objects and the desk.
    let family = desk::Family::of(&request.method(), &request.path(), &env);
    match durable::front::route(&mut request, &env, family.as_ref()).await {
        // The object drains what its answer left of the body; a body that never reached it is drained here.
        Ok(Some(target)) => {
            let response = durable::front::forward(&request, &env, &target).await;
            return settle::settle(&mut request, &env, response).await;
        }
        Ok(None) => {}
        Err(error) => return settle::settle(&mut request, &env, error.response()).await,
    }
    desk::dispatch(&mut request, &env, &Later::Request(&ctx), family).await
}

/// The Cron Trigger: each tenant's run (see `scheduled`), in the tenant's object with `STORAGE = "do"`.
#[event(scheduled)]
async fn cron(event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    let cron = event.cron();
    let tenants = match auth::tenants(&env) {
        Ok(tenants) => tenants,
        Err(error) => return console_error!("memwasm cron ({cron}): {}: {}", error.code, error.message),
    };
    // A bad DREAM_MAX_SCOPES skips the dreams, not the sweep.
    let max_scopes = settings::dream_max_scopes(&env)
        .map_err(|error| console_error!("memwasm dream ({cron}): {}: {}", error.code, error.message))
        .ok();
    let in_objects = match durable::front::cron_in_objects(&env) {
        Ok(in_objects) => in_objects,
        Err(error) => return console_error!("memwasm cron ({cron}): {}: {}", error.code, error.message),
    };
    for tenant in tenants {
        if !in_objects {
            scheduled::run_tenant(&env, &cron, &tenant, None, max_scopes).await;
        } else if let Err(error) = durable::front::cron(
            &env,
            &durable::front::Target { tenant: tenant.clone(), user: None },
            &cron,
            max_scopes,
        )
        .await
        {
            console_error!("memwasm cron ({cron}): tenant {tenant:?}: {}: {}", error.code, error.message);
        }
    }
}
