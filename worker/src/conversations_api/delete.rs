//! `DELETE /api/v1/memories` (delete by filter): soft-deletes every memory matching all the
//! filters given (`event_id`, `user_id`, `group_id`; `__all__` or absent: any); with `user_id`, the user
//! leaves the group's shared memories instead (`left`). Filters come in a JSON body or the query string; all
//! three `__all__` is refused.

use memwasm::core::conversations::DeleteFilter;
use memwasm::platform::compose::Engine;
use serde::Serialize;
use worker::Response;

use super::envelope::{ok, Failure};
use super::params::{gather, id_filter};
use crate::query::{Kinds, Query};

/// `{filters, count, left?}`.
#[derive(Serialize)]
struct Deleted {
    /// The filters that applied, e.g. `["user_id", "group_id"]`.
    filters: Vec<&'static str>,
    count: usize,
    /// The group's shared memories the user left (kept for the others); absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    left: Option<usize>,
}

/// `DELETE /api/v1/memories`.
pub async fn delete(engine: &Engine, query: &Query, body: &[u8]) -> Result<Response, Failure> {
    let kinds = Kinds::default();
    let fields = gather(query, body, &kinds, &["event_id", "user_id", "group_id"])?;
    let filter = DeleteFilter {
        event_id: id_filter(&fields, "event_id")?,
        user_id: id_filter(&fields, "user_id")?,
        group_id: id_filter(&fields, "group_id")?,
    };
    if filter.event_id.is_none() && filter.user_id.is_none() && filter.group_id.is_none() {
        return Err(Failure::invalid("give at least one of event_id, user_id, group_id (not all __all__)"));
    }
    let outcome = engine.conversations().delete_memories(&filter).await?;
    let filters = outcome.filters.into_iter().map(|name| match name {
        "eventId" => "event_id",
        "userId" => "user_id",
        "groupId" => "group_id",
        other => other,
    });
    let message = format!("Successfully deleted {} memories", outcome.count);
    let left = Some(outcome.left).filter(|left| *left > 0);
    ok(&message, Deleted { filters: filters.collect(), count: outcome.count, left })
}
