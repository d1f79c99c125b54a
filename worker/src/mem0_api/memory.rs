//! One memory by id (`GET` / `PUT` / `DELETE /v1/memories/:id/`, its history), and `DELETE /v1/memories/`
//! by entity. Ids are looked up in the caller's tenant only, so another tenant's id is 404.

use memwasm::core::engine::update::UpdatePatch;
use serde_json::{json, Value};
use worker::Response;

use super::entities::{app_condition, delete_matching, Ids};
use super::error::{Mem0Error, Result};
use super::filters::{all, translate};
use super::params::Fields;
use super::wire::{self, APP_KEY};
use super::{json, Call};

/// `GET /v1/memories/:id/`.
pub async fn get(call: &Call<'_>, id: &str) -> Result<Response> {
    Fields::query(&call.query).finish()?;
    match call.engine()?.get(id).await? {
        Some(item) => json(200, &wire::memory(item)),
        None => Err(Mem0Error::memory_not_found(id)),
    }
}

/// The patch a body states (`text`, `metadata`, `expiration_date`: `null` clears it).
pub fn patch(fields: &mut Fields) -> Result<UpdatePatch> {
    let clears_date = matches!(fields.peek("expiration_date"), Some(Value::Null));
    let mut metadata = fields.object("metadata")?;
    if let Some(metadata) = metadata.as_mut() {
        metadata.remove(APP_KEY);
    }
    let date = fields.string("expiration_date")?;
    Ok(UpdatePatch {
        text: fields.string("text")?,
        data: None,
        metadata,
        expiration_date: if clears_date { Some(None) } else { date.map(Some) },
    })
}

/// `PUT /v1/memories/:id/` → the updated memory.
pub async fn update(call: &Call<'_>, id: &str) -> Result<Response> {
    Fields::query(&call.query).finish()?;
    let mut fields = Fields::body(&call.body)?;
    let patch = patch(&mut fields)?;
    fields.ignore(&["timestamp"]);
    fields.finish()?;
    let item = call.engine()?.update_with(id, &patch).await?;
    json(200, &wire::memory(item))
}

/// `DELETE /v1/memories/:id/` (`delete_linked` is accepted: memwasm keeps no superseded chain).
pub async fn delete(call: &Call<'_>, id: &str) -> Result<Response> {
    let mut query = Fields::query(&call.query);
    query.boolean("delete_linked")?;
    query.finish()?;
    call.engine()?.delete(id, false).await?;
    json(200, &json!({ "message": "Memory deleted successfully!" }))
}

/// `DELETE /v1/memories/?user_id=…`: the memories of the entities named (`user_id`, `agent_id`, `app_id`,
/// `run_id`, or a `filters` parameter: JSON, or the Python client's `str(dict)`).
pub async fn delete_all(call: &Call<'_>) -> Result<Response> {
    let mut query = Fields::query(&call.query);
    let mut ids = Ids::take(&mut query)?;
    let filters = query.string("filters")?.map(|text| python_literal(&text)).transpose()?;
    query.finish()?;
    let mut parts = Vec::new();
    if let Some(filters) = &filters {
        let translated = translate(filters)?;
        ids.merge(&translated)?;
        parts.push(translated.filter);
    }
    if ids.is_empty() {
        return Err(Mem0Error::invalid("At least one of user_id, agent_id, app_id or run_id is required"));
    }
    parts.extend(ids.app_id.as_deref().map(app_condition));
    let condition = (!parts.is_empty()).then(|| all(parts));
    let deleted = delete_matching(&*call.engine()?, ids.scope, condition).await?;
    json(200, &json!({ "message": "Memories deleted successfully!", "deleted": deleted }))
}

/// A filter parameter: JSON, or a Python dict's `str()` (`{'user_id': 'alice', 'x': True}`).
fn python_literal(text: &str) -> Result<Value> {
    if let Ok(value) = serde_json::from_str(text) {
        return Ok(value);
    }
    let swapped: String = text.chars().map(|c| if c == '\'' { '"' } else { c }).collect();
    let swapped = swapped.replace("True", "true").replace("False", "false").replace("None", "null");
    serde_json::from_str(&swapped)
        .map_err(|_| Mem0Error::invalid(format!("filters must be a JSON object, got {text:?}")))
}

/// `GET /v1/memories/:id/history/`, oldest first (404 when the tenant has no such memory, or had none).
pub async fn history(call: &Call<'_>, id: &str) -> Result<Response> {
    Fields::query(&call.query).finish()?;
    let records = call.engine()?.history(id).await?;
    if records.is_empty() {
        return Err(Mem0Error::memory_not_found(id));
    }
    json(200, &records.into_iter().map(wire::history).collect::<Vec<_>>())
}
