//! Which handler answers which method and path (after the prefix; trailing slashes do not matter), and
//! the ping that the clients call when they start.

use serde_json::json;
use worker::{Method, Response};

use super::error::{Mem0Error, Result};
use super::params::Fields;
use super::{add, batch, entities, exports, feedback, json, memory, read, records, Call};

/// Answers `call`.
pub async fn dispatch(call: &Call<'_>) -> Result<Response> {
    let segments: Vec<&str> = call.segments.iter().map(String::as_str).collect();
    match (&call.method, segments.as_slice()) {
        (Method::Get, ["v1", "ping"]) => ping(call),
        (Method::Post, ["v3", "memories", "add"] | ["v1", "memories"]) => add::add(call).await,
        (Method::Get, ["v1", "event", id]) => match call.records()?.get(records::EVENT, id).await? {
            Some(event) => json(200, &event),
            None => Err(Mem0Error::new(404, "Event not found or you don't have permission to access it.")),
        },
        (Method::Post, ["v3" | "v2", "memories"]) => read::get_all(call, Fields::body(&call.body)?).await,
        (Method::Get, ["v1", "memories"]) => read::get_all(call, Fields::query(&call.query)).await,
        (Method::Post, ["v3" | "v2" | "v1", "memories", "search"]) => read::search(call).await,
        (Method::Get, ["v1", "memories", id]) => memory::get(call, id).await,
        (Method::Put, ["v1", "memories", id]) => memory::update(call, id).await,
        (Method::Delete, ["v1", "memories", id]) => memory::delete(call, id).await,
        (Method::Delete, ["v1", "memories"]) => memory::delete_all(call).await,
        (Method::Get, ["v1", "memories", id, "history"]) => memory::history(call, id).await,
        (Method::Get, ["v1", "entities"]) => entities::list(call).await,
        (Method::Delete, ["v2" | "v1", "entities", kind, name]) => entities::delete(call, kind, name).await,
        (Method::Put, ["v1", "batch"]) => batch::update(call).await,
        (Method::Delete, ["v1", "batch"]) => batch::delete(call).await,
        (Method::Post, ["v1", "exports"]) => exports::create(call).await,
        (Method::Post, ["v1", "exports", "get"]) => exports::get(call).await,
        (Method::Post, ["v1", "feedback"]) => feedback::give(call).await,
        (method, _) => Err(Mem0Error::not_implemented(method.as_ref(), &format!("/{}/", segments.join("/")))),
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
