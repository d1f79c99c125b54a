//! mem0's hosted-platform REST API, so the official clients (`MemoryClient` of npm `mem0ai` and of PyPI
//! `mem0ai`, sync and async) work unmodified: give them `host: "https://<worker>/mem0"` and a token of
//! `MEMORY_TOKENS` as the API key. Served under the var `MEM0_PREFIX` (default `/mem0`). Keys come as
//! `Authorization: Token <key>` (or `Bearer`); tenant-wide tokens only. Errors are `{"detail": "…"}`.
//!
//! | route | does |
//! |---|---|
//! | `GET /v1/ping/` | `{status: "ok", org_id, project_id, user_email}` (401 for a wrong key) |
//! | `POST /v3/memories/add/` (also `/v1/memories/`) | add, synchronously → `{status: "SUCCEEDED", event_id, results}` |
//! | `GET /v1/event/:event_id/` | the add's event record |
//! | `POST /v3/memories/` (also `/v2/memories/`, `GET /v1/memories/`) | list by `filters`, `page`, `page_size` → `{count, next, previous, results}` |
//! | `POST /v3/memories/search/` (also `/v2/…`, `/v1/…`) | search: `query`, `filters`, `top_k` (10), `threshold` (0.1) → `{results}` with `score` |
//! | `GET` / `PUT` / `DELETE /v1/memories/:id/` | get / update (`text`, `metadata`, `expiration_date`) / delete |
//! | `GET /v1/memories/:id/history/` | the memory's history |
//! | `DELETE /v1/memories/?user_id=…` | delete an entity's memories (`agent_id`, `app_id`, `run_id`, `filters`) |
//! | `GET /v1/entities/` | users, agents, apps and runs with memory counts |
//! | `DELETE /v2/entities/:type/:name/` (also `/v1/…`) | delete an entity's memories |
//! | `PUT` / `DELETE /v1/batch/` | update / delete up to 1000 memories |
//! | `POST /v1/exports/`, `POST /v1/exports/get/` | export the memories a filter matches; read it back |
//! | `POST /v1/feedback/` | store feedback on a memory (kept, no effect) |
//! | anything else | 501: platform-only (organisations, projects, webhooks, profiles, summaries) |

mod add;
mod batch;
mod entities;
mod error;
mod exports;
mod feedback;
mod filters;
mod memory;
mod params;
mod read;
mod records;
mod route;
mod wire;

use serde::Serialize;
use worker::{Env, Method, Request, Response, Url};

use self::error::{Mem0Error, Result};
use self::records::Records;
use crate::settings::text;

/// Where the routes live unless `MEM0_PREFIX` says otherwise.
const DEFAULT_PREFIX: &str = "/mem0";

/// The prefix of the family: `MEM0_PREFIX` without a trailing slash, `/mem0` by default.
pub fn prefix(env: &Env) -> String {
    let prefix = text(env, "MEM0_PREFIX").unwrap_or_else(|| DEFAULT_PREFIX.to_owned());
    format!("/{}", prefix.trim().trim_matches('/'))
}

/// True for `prefix` and every path under it.
pub fn is_family(path: &str, prefix: &str) -> bool {
    prefix != "/" && path.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// One request to the family, authenticated.
pub struct Call<'a> {
    pub env: &'a Env,
    pub tenant: String,
    pub method: Method,
    /// The path after the prefix, split at `/` and percent-decoded.
    pub segments: Vec<String>,
    pub query: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub url: Url,
}

impl Call<'_> {
    /// The tenant's memory engine.
    pub fn engine(&self) -> Result<crate::Shared> {
        Ok(crate::engine(self.env, &self.tenant)?.0)
    }

    /// The tenant's platform records (events, exports, feedback).
    pub fn records(&self) -> Result<Records> {
        Records::new(self.env, &self.tenant)
    }
}

/// A JSON answer.
pub fn json<T: Serialize>(status: u16, value: &T) -> Result<Response> {
    Ok(Response::from_json(value)?.with_status(status))
}

/// Answers a request under `prefix`, every error in mem0's shape.
pub async fn serve(request: &mut Request, env: &Env, prefix: &str) -> worker::Result<Response> {
    match handle(request, env, prefix).await {
        Ok(response) => Ok(response),
        Err(error) => error.response(),
    }
}

async fn handle(request: &mut Request, env: &Env, prefix: &str) -> Result<Response> {
    let caller = crate::auth::caller(request, env)?;
    if !caller.admin {
        return Err(Mem0Error::new(403, "The mem0 API acts on the whole tenant: it takes a tenant-wide token"));
    }
    let path = request.path();
    let rest = path.strip_prefix(prefix).unwrap_or_default();
    let segments = rest.split('/').filter(|s| !s.is_empty()).map(route::decoded).collect();
    let url = request.url()?;
    let query = url.query_pairs().map(|(name, value)| (name.into_owned(), value.into_owned())).collect();
    let body = crate::body(request, env).await?;
    let call = Call { env, tenant: caller.tenant, method: request.method(), segments, query, body, url };
    route::dispatch(&call).await
}
