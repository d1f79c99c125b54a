//! The conversation API: message-level memory under `/api/v1/memories` (see README "The REST service").
//! Tenant-wide tokens only, like `/v1/`; every answer is `{status: "ok", message, result}` and every error
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

use worker::Response;

pub use self::envelope::Failure;
use self::route::Route;
use crate::visit::Visit;

/// Answers `route` (admitted and read by the desk), its errors in the conversation API's envelope.
pub async fn handle(visit: &Visit<'_>, route: Route) -> Result<Response, Failure> {
    let (engine, _) = visit.engine()?;
    let (query, body) = (&visit.query, visit.body.as_slice());
    match route {
        Route::Store => store::store(&engine, body).await,
        Route::Fetch => fetch::fetch(&engine, query, body).await,
        Route::Delete => delete::delete(&engine, query, body).await,
        Route::Search => search::search(&engine, query, body).await,
        Route::GetMeta => meta::get(&engine, query).await,
        Route::SaveMeta => meta::save(&engine, body).await,
        Route::PatchMeta => meta::patch(&engine, body).await,
        Route::Batch => batch::batch(&engine, query, body).await,
    }
}
