//! The front desk: every request to a route family comes in here. Its family and route are parsed once
//! (`family`, each family's routes by its own `route` parser, the `/v1/` ones each declaring what scope
//! sharding needs of it: `crate::shard_need`), before the front end of `STORAGE = "do"` routes it; the desk
//! authenticates the caller and admits them (the tokens the family takes), reads the body
//! (`body`) and the query string (`crate::query`) once, hands the family a `Visit`, marks its answer when the
//! tenant's embedding model changed (`tenant_engine::model_check`), and answers every error in the family's
//! envelope. Whatever of the body the answer left unread is drained (`crate::settle`).

pub mod body;
mod family;
pub mod listing;

use worker::{Env, Request, Response};

pub use self::family::Family;
use crate::auth::{self, Caller};
use memwasm::core::kv::keys::decode_lenient;

use crate::conversations_api::{self, route::Route, Failure};
use crate::error::ApiError;
use crate::later::Later;
use crate::mem0_api::{self, Mem0Error};
use crate::query::Query;
use crate::tenant_engine::{model_check, SHARD_HEADER};
use crate::visit::Visit;
use crate::{mcp, memory_api, settle, sync_api, tiers_api, v1};

/// Answers `request` with the handlers of its route family (in the Worker for `STORAGE = "kv"`, in the
/// tenant's object for `"do"`), draining whatever of its body the answer left unread.
/// `family` is the request's (`Family::of`).
pub async fn dispatch(
    request: &mut Request,
    env: &Env,
    later: &Later<'_>,
    family: Option<Family>,
) -> worker::Result<Response> {
    let response = answer(request, env, later, family).await;
    settle::settle(request, env, response).await
}

async fn answer(
    request: &mut Request,
    env: &Env,
    later: &Later<'_>,
    family: Option<Family>,
) -> worker::Result<Response> {
    let path = request.path();
    let Some(family) = family else {
        return ApiError::not_found(format!("route {path}")).response();
    };
    match &family {
        Family::Mem0(prefix) => enveloped(mem0(request, env, later, &family, prefix).await, &path),
        Family::Conversations => enveloped(conversations(request, env, later, &family).await, &path),
        _ => enveloped(plain(request, env, later, &family).await, &path),
    }
}

/// An error in its family's envelope.
trait Envelope {
    fn response(&self, path: &str) -> worker::Result<Response>;
}

impl Envelope for ApiError {
    fn response(&self, _: &str) -> worker::Result<Response> {
        ApiError::response(self)
    }
}

impl Envelope for Mem0Error {
    fn response(&self, _: &str) -> worker::Result<Response> {
        Mem0Error::response(self)
    }
}

impl Envelope for Failure {
    fn response(&self, path: &str) -> worker::Result<Response> {
        Failure::response(self, path)
    }
}

fn enveloped<E: Envelope>(answer: Result<Response, E>, path: &str) -> worker::Result<Response> {
    match answer {
        Ok(response) => Ok(response),
        Err(error) => error.response(path),
    }
}

/// The caller whose token authorises `request`, when `family` admits them: the one admission check.
pub fn admit(request: &Request, env: &Env, family: &Family) -> Result<Caller, ApiError> {
    let caller = auth::caller(request, env)?;
    match family.refusal(&caller) {
        Some(why) => Err(ApiError::forbidden(why)),
        None => Ok(caller),
    }
}

/// `admit`, in `tenant`'s own object: the token must also name that tenant.
pub fn admit_in(request: &Request, env: &Env, family: &Family, tenant: &str) -> Result<Caller, ApiError> {
    let caller = admit(request, env, family)?;
    if caller.tenant != tenant {
        return Err(ApiError::forbidden(format!("this token is not one of tenant {tenant:?}")));
    }
    Ok(caller)
}

/// `request` read for `family`: its body (when the family reads one for its method) and query string.
async fn read<'a>(
    request: &mut Request,
    env: &'a Env,
    later: &'a Later<'a>,
    family: &Family,
    caller: Caller,
) -> Result<Visit<'a>, ApiError> {
    let method = request.method();
    let body = if family.reads_body(&method) { body::body(request, env).await? } else { Vec::new() };
    let url = request.url()?;
    let headers = request.headers().clone();
    // Only an object is told its user (by the front end, which sets or removes the header).
    let shard = match later {
        Later::Object(_) => headers.get(SHARD_HEADER)?.map(|user| decode_lenient(&user)),
        Later::Request(_) => None,
    };
    Ok(Visit { env, caller, method, path: request.path(), query: Query::of(&url), url, headers, body, later, shard })
}

async fn mem0(
    request: &mut Request,
    env: &Env,
    later: &Later<'_>,
    family: &Family,
    prefix: &str,
) -> Result<Response, Mem0Error> {
    let caller = admit(request, env, family)?;
    let visit = read(request, env, later, family, caller).await?;
    let response = mem0_api::handle(&visit, prefix).await?;
    Ok(model_check::mark(response, visit.env, &visit.caller.tenant, visit.shard.as_deref(), true).await?)
}

/// The conversation API names an unknown route (404) before it reads the body.
async fn conversations(
    request: &mut Request,
    env: &Env,
    later: &Later<'_>,
    family: &Family,
) -> Result<Response, Failure> {
    let caller = admit(request, env, family)?;
    let route = Route::parse(&request.method(), &request.path())?;
    let visit = read(request, env, later, family, caller).await?;
    let response = conversations_api::handle(&visit, route).await?;
    Ok(model_check::mark(response, visit.env, &visit.caller.tenant, visit.shard.as_deref(), true).await?)
}

/// The families whose errors are `{"error": {"code", "message"}}`.
async fn plain(request: &mut Request, env: &Env, later: &Later<'_>, family: &Family) -> Result<Response, ApiError> {
    let caller = admit(request, env, family)?;
    let visit = read(request, env, later, family, caller).await?;
    // The sync log is not memories: its answers say nothing of the embedding model.
    if let Family::Sync(route) = family {
        return sync_api::handle(&visit, *route).await;
    }
    let response = match family {
        Family::Memory => memory_api::handle(&visit).await,
        Family::Tiers(route) => tiers_api::handle(&visit, *route).await,
        Family::Mcp => mcp::handle(&visit).await,
        Family::V1(call) => v1::handle(&visit, call.as_ref()).await,
        // Answered in their own envelopes (`answer`).
        Family::Mem0(_) | Family::Conversations | Family::Sync(_) => {
            Err(ApiError::not_found(format!("route {}", visit.path)))
        }
    }?;
    // A JSON-RPC answer keeps its shape: MCP clients see the header only.
    model_check::mark(response, visit.env, &visit.caller.tenant, visit.shard.as_deref(), !matches!(family, Family::Mcp))
        .await
}
