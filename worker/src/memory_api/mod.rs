//! The memory API: agent key/value entries, owned by users, under `/api/v1/memory/`.
//!
//! | route | does |
//! |---|---|
//! | `POST /api/v1/memory/:agent_id/store` | `{key, value, ttl?, embedding?}` → `{status}` |
//! | `GET` / `DELETE /api/v1/memory/:agent_id/:key` | `{key, value, created_at}` / `{status}` (404, 410, 403) |
//! | `GET /api/v1/memory/:agent_id/search?q=…&limit=20` | keyword search → `{results: [{key, value, created_at}]}` |
//! | `POST /api/v1/memory/:agent_id/vector-search` | `{text` or `embedding, threshold?, limit?}` → `{results: [{key, value, similarity}]}` |
//! | `GET /api/v1/memory/:agent_id/list?limit=50&offset=0` | `{entries, total, has_more}` |
//! | `DELETE /api/v1/memory/:agent_id/clear` | deletes the caller's entries → `{status, deleted}` |
//! | `POST /api/v1/memory/:agent_id/:key/pin` | `{pinned}` → `{status, pinned}` |
//! | `GET /api/v1/memory/:agent_id/reflections` | `{reflections: [{key, value}]}` |
//! | `GET /api/v1/memory/stats`, `POST …/decay`, `POST …/share` | admin only: tenant-wide |
//!
//! The var `MEMORY_API_ENABLED = "false"` turns every route off (503 `MEMORY_DISABLED`).

mod admin;
mod bodies;
mod entry;
mod namespace;
mod queries;
pub mod route;
mod wire;

use serde::Serialize;
use worker::Response;

use self::namespace::Namespace;
use self::route::{memory_segments, MemoryRoute, Route};
use crate::error::ApiError;
use crate::settings;
use crate::visit::Visit;

fn json<T: Serialize>(value: &T) -> Result<Response, ApiError> {
    Ok(Response::from_json(value)?)
}

/// Answers a request under `/api/v1/memory/` (admitted and read by the desk).
pub async fn handle(visit: &Visit<'_>) -> Result<Response, ApiError> {
    let (env, caller, body) = (visit.env, &visit.caller, visit.body.as_slice());
    if !settings::flag(env, "MEMORY_API_ENABLED", true)? {
        return Err(ApiError::new(503, "MEMORY_DISABLED", "the memory API is disabled (MEMORY_API_ENABLED)"));
    }
    let route = Route::parse(&visit.method, &memory_segments(&visit.path).unwrap_or_default())?;
    if route.kind.admin_only() && !caller.admin {
        return Err(ApiError::forbidden("only an admin token may call this route"));
    }
    if route.kind.changes() && caller.is_reader() {
        let why = "this token names neither a user nor an admin: it may read the system's entries, not change any";
        return Err(ApiError::forbidden(why));
    }
    let (engine, dimensions) = visit.engine()?;
    let space = |agent: &str| Namespace { agent: agent.to_owned(), caller };
    let (agent, key) = (route.agent.as_str(), route.key.as_str());
    match route.kind {
        MemoryRoute::Stats => json(&admin::stats(&engine).await?),
        MemoryRoute::Decay => json(&admin::decay(&engine, body, settings::decay_defaults(env)?).await?),
        MemoryRoute::Share => json(&admin::share(&engine, body).await?),
        MemoryRoute::Store => json(&entry::store(&engine, &space(agent), body, dimensions).await?),
        MemoryRoute::Get => json(&entry::get(&engine, &space(agent), key).await?),
        MemoryRoute::Delete => json(&entry::delete(&engine, &space(agent), key).await?),
        MemoryRoute::Pin => json(&entry::pin(&engine, &space(agent), key, body).await?),
        MemoryRoute::Search => {
            let found = queries::search(&engine, &space(agent), &visit.query).await?;
            engine.lifecycle().flush_accesses().await?; // decay counts from the last access
            json(&found)
        }
        MemoryRoute::VectorSearch => {
            let found = queries::vector_search(&engine, &space(agent), body, dimensions).await?;
            engine.lifecycle().flush_accesses().await?;
            json(&found)
        }
        MemoryRoute::List => json(&queries::list(&engine, &space(agent), &visit.query).await?),
        MemoryRoute::Clear => json(&queries::clear(&engine, &space(agent)).await?),
        MemoryRoute::Reflections => json(&queries::reflections(&engine, &space(agent)).await?),
    }
}
