//! Memory exports: `POST /v1/exports/` collects the memories a filter matches there and then (the answer
//! is 201 `{message, id}` as on the platform) and keeps them in KV; `POST /v1/exports/get/` reads an
//! export back by `memory_export_id`, or the newest one made with the same filters. The platform fills the
//! caller's `schema` with an LLM; memwasm keeps the schema with the export and returns the memories as
//! they are: `{id, schema, filters, created_at, memories}`.

use memwasm::core::filter::Filter;
use memwasm::core::identity::new_id;
use memwasm::core::read::Read;
use serde_json::{json, Value};
use worker::Response;

use super::entities::Ids;
use super::error::{Mem0Error, Result};
use super::filters::{all, translate};
use super::params::Fields;
use super::records::EXPORT;
use super::wire::memory;
use super::{json, Call};

/// The mem0 filter a body states: `filters` and top-level entity ids (the Python client's keywords).
fn stated_filter(fields: &mut Fields) -> Result<Option<Value>> {
    let mut parts: Vec<Value> = fields.take("filters").into_iter().collect();
    parts.extend(Ids::take(fields)?.filter());
    Ok((!parts.is_empty()).then(|| all(parts)))
}

/// `POST /v1/exports/`.
pub async fn create(call: &Call<'_>) -> Result<Response> {
    let mut fields = Fields::body(&call.body)?;
    let schema =
        fields.take("schema").ok_or_else(|| Mem0Error::invalid("Schema is required and must be a valid object"))?;
    let filters = stated_filter(&mut fields)?;
    fields.ignore(&["export_instructions"]);
    fields.finish()?;
    let missing = || Mem0Error::invalid("One of the filters: app_id, user_id, agent_id, run_id is required!");
    let translated = translate(filters.as_ref().ok_or_else(missing)?)?;
    if !translated.names_entity {
        return Err(missing());
    }
    let engine = call.engine()?;
    let mut read = Read::of(translated.scope, usize::MAX);
    read.filter = Some(Filter::parse(&translated.filter)?);
    let memories: Vec<Value> = engine.get_all(&read).await?.results.into_iter().map(memory).collect();
    let id = new_id();
    let record = json!({
        "id": id, "schema": schema, "filters": filters, "created_at": engine.now_iso(), "memories": memories,
    });
    call.records()?.put(EXPORT, &id, &record, None).await?;
    let message = "Memory export request received. The export will be ready in a few seconds.";
    json(201, &json!({ "message": message, "id": id }))
}

/// `POST /v1/exports/get/`.
pub async fn get(call: &Call<'_>) -> Result<Response> {
    let mut fields = Fields::body(&call.body)?;
    let id = fields.string("memory_export_id")?;
    let filters = stated_filter(&mut fields)?;
    fields.finish()?;
    let records = call.records()?;
    let found = match (id, filters) {
        (Some(id), _) => records.get(EXPORT, &id).await?,
        (None, Some(filters)) => {
            let mut same: Vec<Value> =
                records.all(EXPORT).await?.into_iter().filter(|record| record["filters"] == filters).collect();
            same.sort_by(|a, b| a["created_at"].as_str().cmp(&b["created_at"].as_str()));
            same.pop()
        }
        (None, None) => return Err(Mem0Error::invalid("Give memory_export_id, or the filters of the export")),
    };
    match found {
        Some(export) => json(200, &export),
        None => Err(Mem0Error::new(404, "No memory export request found")),
    }
}
