//! Which handler answers which method and path (after the prefix; trailing slashes do not matter), and
//! the ping that the clients call when they start.

use serde_json::json;
use worker::{Method, Response};

use super::error::{Mem0Error, Result};
use super::params::Fields;
use super::{add, batch, entities, exports, feedback, json, memory, read, records, Call};
use crate::listed::listed;

listed! {
    /// One route of mem0's platform API (its paths after the prefix).
    pub enum Mem0Route {
        /// `GET /v1/ping/`.
        Ping,
        /// `POST /v3/memories/add/` or `/v1/memories/`.
        Add,
        /// `GET /v1/event/{id}/`.
        Event,
        /// `POST /v3/memories/` or `/v2/memories/`: a filtered list.
        ListBody,
        /// `GET /v1/memories/`.
        List,
        /// `POST /v3/memories/search/`, `/v2/…` or `/v1/…`.
        Search,
        /// `GET /v1/memories/{id}/`.
        Get,
        /// `PUT /v1/memories/{id}/`.
        Update,
        /// `DELETE /v1/memories/{id}/`.
        Delete,
        /// `DELETE /v1/memories/`.
        DeleteAll,
        /// `GET /v1/memories/{id}/history/`.
        History,
        /// `GET /v1/entities/`.
        Entities,
        /// `DELETE /v2/entities/{kind}/{name}/` or `/v1/…`.
        DeleteEntity,
        /// `PUT /v1/batch/`.
        BatchUpdate,
        /// `DELETE /v1/batch/`.
        BatchDelete,
        /// `POST /v1/exports/`.
        CreateExport,
        /// `POST /v1/exports/get/`.
        GetExport,
        /// `POST /v1/feedback/`.
        Feedback,
    }
}

impl Mem0Route {
    /// The route of `method` on `segments` (the path's after the prefix) and the segments it names (an id,
    /// or an entity's kind and name); `None` for a route memwasm does not serve.
    pub fn parse<'a>(method: &Method, segments: &[&'a str]) -> Option<(Self, Vec<&'a str>)> {
        Some(match (method, segments) {
            (Method::Get, ["v1", "ping"]) => (Self::Ping, vec![]),
            (Method::Post, ["v3", "memories", "add"] | ["v1", "memories"]) => (Self::Add, vec![]),
            (Method::Get, ["v1", "event", id]) => (Self::Event, vec![*id]),
            (Method::Post, ["v3" | "v2", "memories"]) => (Self::ListBody, vec![]),
            (Method::Get, ["v1", "memories"]) => (Self::List, vec![]),
            (Method::Post, ["v3" | "v2" | "v1", "memories", "search"]) => (Self::Search, vec![]),
            (Method::Get, ["v1", "memories", id]) => (Self::Get, vec![*id]),
            (Method::Put, ["v1", "memories", id]) => (Self::Update, vec![*id]),
            (Method::Delete, ["v1", "memories", id]) => (Self::Delete, vec![*id]),
            (Method::Delete, ["v1", "memories"]) => (Self::DeleteAll, vec![]),
            (Method::Get, ["v1", "memories", id, "history"]) => (Self::History, vec![*id]),
            (Method::Get, ["v1", "entities"]) => (Self::Entities, vec![]),
            (Method::Delete, ["v2" | "v1", "entities", kind, name]) => (Self::DeleteEntity, vec![*kind, *name]),
            (Method::Put, ["v1", "batch"]) => (Self::BatchUpdate, vec![]),
            (Method::Delete, ["v1", "batch"]) => (Self::BatchDelete, vec![]),
            (Method::Post, ["v1", "exports"]) => (Self::CreateExport, vec![]),
            (Method::Post, ["v1", "exports", "get"]) => (Self::GetExport, vec![]),
            (Method::Post, ["v1", "feedback"]) => (Self::Feedback, vec![]),
            _ => return None,
        })
    }
}

/// Answers `call`.
pub async fn dispatch(call: &Call<'_>) -> Result<Response> {
    let segments: Vec<&str> = call.segments.iter().map(String::as_str).collect();
    let Some((route, named)) = Mem0Route::parse(&call.method, &segments) else {
        return Err(Mem0Error::not_implemented(call.method.as_ref(), &format!("/{}/", segments.join("/"))));
    };
    let (first, second) = (named.first().copied().unwrap_or_default(), named.get(1).copied().unwrap_or_default());
    match route {
        Mem0Route::Ping => ping(call),
        Mem0Route::Add => add::add(call).await,
        Mem0Route::Event => match call.records()?.get(records::EVENT, first).await? {
            Some(event) => json(200, &event),
            None => Err(Mem0Error::new(404, "Event not found or you don't have permission to access it.")),
        },
        Mem0Route::ListBody => read::get_all(call, Fields::body(&call.body)?).await,
        Mem0Route::List => read::get_all(call, Fields::query(&call.query)).await,
        Mem0Route::Search => read::search(call).await,
        Mem0Route::Get => memory::get(call, first).await,
        Mem0Route::Update => memory::update(call, first).await,
        Mem0Route::Delete => memory::delete(call, first).await,
        Mem0Route::DeleteAll => memory::delete_all(call).await,
        Mem0Route::History => memory::history(call, first).await,
        Mem0Route::Entities => entities::list(call).await,
        Mem0Route::DeleteEntity => entities::delete(call, first, second).await,
        Mem0Route::BatchUpdate => batch::update(call).await,
        Mem0Route::BatchDelete => batch::delete(call).await,
        Mem0Route::CreateExport => exports::create(call).await,
        Mem0Route::GetExport => exports::get(call).await,
        Mem0Route::Feedback => feedback::give(call).await,
    }
}

/// `GET /v1/ping/`: the key is good. The tenant is the organisation; `user_email` stays `null`, so the
/// clients have no address to send telemetry about.
fn ping(call: &Call) -> Result<Response> {
    Fields::query(&call.query).finish()?;
    json(
        200,
        &json!({ "status": "ok", "org_id": call.caller.tenant, "project_id": call.caller.tenant, "user_email": null }),
    )
}
