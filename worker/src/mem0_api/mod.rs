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
pub mod route;
mod wire;

use std::ops::Deref;

use memwasm::core::kv::keys::decode_lenient;
use serde::Serialize;
use worker::{Env, Response};

pub use self::error::Mem0Error;
use self::error::Result;
use self::records::Records;
use crate::settings::text;
use crate::tenant_engine::Shared;
use crate::visit::Visit;

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

/// One request to the family: the desk's visit, and the path after the prefix, split at `/` and
/// percent-decoded.
pub struct Call<'a> {
    pub visit: &'a Visit<'a>,
    pub segments: Vec<String>,
}

impl<'a> Deref for Call<'a> {
    type Target = Visit<'a>;

    fn deref(&self) -> &Visit<'a> {
        self.visit
    }
}

impl Call<'_> {
    /// The tenant's memory engine.
    pub fn engine(&self) -> Result<Shared> {
        Ok(self.visit.engine()?.0)
    }

    /// The tenant's platform records (events, exports, feedback).
    pub fn records(&self) -> Result<Records> {
        Records::new(self.env, &self.caller.tenant)
    }
}

/// A JSON answer.
pub fn json<T: Serialize>(status: u16, value: &T) -> Result<Response> {
    Ok(Response::from_json(value)?.with_status(status))
}

/// Answers a request under `prefix` (admitted and read by the desk).
pub async fn handle(visit: &Visit<'_>, prefix: &str) -> Result<Response> {
    let rest = visit.path.strip_prefix(prefix).unwrap_or_default();
    let segments = rest.split('/').filter(|s| !s.is_empty()).map(decode_lenient).collect();
    route::dispatch(&Call { visit, segments }).await
}
