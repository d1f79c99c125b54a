//! Seed 002's message-level memory API under `/api/v1/memories` (see README "The REST service"). Tenant-wide
//! tokens only, like `/v1/`; every answer is `{status: "ok", message, result}` and every error
//! `{status: "failed", code, message, timestamp, path}` (see `envelope`). Snake_case fields only.
//!
//! | route | does |
//! |---|---|
//! | `POST /api/v1/memories` | store one message → `{saved_memories, count, status_info, group_id, duplicate, episodes, pending_messages, warnings}` |
//! | `GET /api/v1/memories` | fetch one memory type of a user or group → `{memories, total_count, has_more, metadata}` |
//! | `GET /api/v1/memories/search` | search (query string or JSON body; `POST` too) → `{memories, scores, importance_scores, …, pending_messages}` |
//! | `GET` / `POST` / `PATCH /api/v1/memories/conversation-meta` | read (with the default config as fallback) / upsert / partial update |
//! | `DELETE /api/v1/memories` | soft delete by `event_id` / `user_id` / `group_id` → `{filters, count}` |
//! | `POST /api/v1/memories/batch` | a GroupChatFormat file, `?validate_only=true` to only check it |

mod batch;
mod batch_check;
mod batch_format;
mod delete;
mod envelope;
mod fetch;
mod items;
mod meta;
mod params;
mod pending;
pub mod route;
mod search;
mod store;

use std::collections::HashMap;

use worker::{Env, Request, Response};

use self::envelope::Failure;
use self::route::Route;
use crate::{auth, body, engine};

/// Answers a request to the family, its errors in the seed's envelope.
pub async fn serve(request: &mut Request, env: &Env) -> worker::Result<Response> {
    let path = request.path();
    match handle(request, env).await {
        Ok(response) => Ok(response),
        Err(failure) => failure.response(&path),
    }
}

async fn handle(request: &mut Request, env: &Env) -> Result<Response, Failure> {
    let caller = auth::caller(request, env)?;
    if !caller.admin {
        let why = "the /api/v1/memories routes act on the whole tenant: they take a tenant-wide token";
        return Err(Failure::new(403, "FORBIDDEN", why));
    }
    let route = Route::parse(&request.method(), &request.path())?;
    let body = body(request, env).await?;
    let pairs = request.query::<HashMap<String, String>>().unwrap_or_default();
    let (engine, _) = engine(env, &caller.tenant)?;
    match route {
        Route::Store => store::store(&engine, &body).await,
        Route::Fetch => fetch::fetch(&engine, pairs, &body).await,
        Route::Delete => delete::delete(&engine, pairs, &body).await,
        Route::Search => search::search(&engine, pairs, &body).await,
        Route::GetMeta => meta::get(&engine, pairs).await,
        Route::SaveMeta => meta::save(&engine, &body).await,
        Route::PatchMeta => meta::patch(&engine, &body).await,
        Route::Batch => batch::batch(&engine, pairs, &body).await,
    }
}
