//! `PUT` / `DELETE /v1/batch/`: up to 1000 memories at once, `{memories: [{memory_id, text?, metadata?}]}`.
//! Every id is checked first, so an unknown one (404) changes nothing.

use memwasm::core::engine::update::UpdatePatch;
use serde_json::{json, Value};
use worker::Response;

use super::error::{Mem0Error, Result};
use super::memory::patch;
use super::params::Fields;
use super::{json, Call};
use crate::tenant_engine::Shared;

/// Most memories one batch may name.
const MAX_BATCH: usize = 1000;

/// The body's `memories`, each entry's fields with its `memory_id` taken.
fn entries(call: &Call<'_>, verb: &str) -> Result<Vec<(String, Fields)>> {
    Fields::query(&call.query).finish()?;
    let mut body = Fields::body(&call.body)?;
    let listed = body.take("memories");
    body.finish()?;
    let Some(Value::Array(items)) = listed else {
        return Err(Mem0Error::invalid("memories must be a list of {memory_id, …}"));
    };
    if items.is_empty() || items.len() > MAX_BATCH {
        return Err(Mem0Error::invalid(format!(
            "Between 1 and {MAX_BATCH} memories can be {verb} in a single request"
        )));
    }
    items
        .into_iter()
        .map(|item| {
            let Value::Object(map) = item else {
                return Err(Mem0Error::invalid("each entry of memories must be an object"));
            };
            let mut fields = Fields::entry(map);
            let id = fields.string("memory_id")?.ok_or_else(|| Mem0Error::invalid("each entry needs a memory_id"))?;
            Ok((id, fields))
        })
        .collect()
}

/// 404 unless every id is a live memory of the tenant.
async fn check(call: &Call<'_>, ids: impl Iterator<Item = &String>) -> Result<Shared> {
    let engine = call.engine()?;
    for id in ids {
        if engine.get(id).await?.is_none() {
            return Err(Mem0Error::memory_not_found(id));
        }
    }
    Ok(engine)
}

/// `PUT /v1/batch/`: `text`, `metadata` and `expiration_date` per entry.
pub async fn update(call: &Call<'_>) -> Result<Response> {
    let mut patches: Vec<(String, UpdatePatch)> = Vec::new();
    for (id, mut fields) in entries(call, "updated")? {
        let patch = patch(&mut fields)?;
        fields.finish()?;
        if patch.text.is_none() && patch.metadata.is_none() && patch.expiration_date.is_none() {
            return Err(Mem0Error::invalid(format!("memory {id}: give text, metadata or expiration_date")));
        }
        patches.push((id, patch));
    }
    let engine = check(call, patches.iter().map(|(id, _)| id)).await?;
    for (id, patch) in &patches {
        engine.update_with(id, patch).await?;
    }
    json(200, &json!({ "message": format!("Successfully updated {} memories", patches.len()) }))
}

/// `DELETE /v1/batch/`.
pub async fn delete(call: &Call<'_>) -> Result<Response> {
    let mut ids = Vec::new();
    for (id, fields) in entries(call, "deleted")? {
        fields.finish()?;
        ids.push(id);
    }
    let engine = check(call, ids.iter()).await?;
    for id in &ids {
        engine.delete(id, false).await?;
    }
    json(200, &json!({ "message": format!("Successfully deleted {} memories", ids.len()) }))
}
