//! `POST /v3/memories/add/`: memwasm's add (one extraction call, one decision call) runs before the
//! answer, so the status is final (`SUCCEEDED`, or `FAILED` when the model's reply was unusable) and the
//! results come with it. mem0 v3 extraction only adds; memwasm's also updates and deletes the memories
//! the new facts contradict, and reports those events too. The event record stays in KV (30 days) for
//! `GET /v1/event/:event_id/`.

use memwasm::core::identity::new_id;
use memwasm::core::model::types::WarningCode;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::time::iso_from_millis;
use serde_json::{json, Value};
use worker::Response;

use super::entities::Ids;
use super::error::{Mem0Error, Result};
use super::filters::translate;
use super::params::Fields;
use super::records::{EVENT, EVENT_TTL_SECONDS};
use super::wire::{self, APP_KEY};
use super::{json, Call};

/// Fields of the platform's add that memwasm accepts without acting on them.
const IGNORED: [&str; 18] = [
    "custom_categories",
    "custom_instructions",
    "agent_custom_instructions",
    "timestamp",
    "structured_data_schema",
    "immutable",
    "includes",
    "excludes",
    "enable_graph",
    "output_format",
    "prompt_profile_id",
    "temporal_reasoning",
    "timezone",
    "observation_datetime",
    "observation_date",
    "async_mode",
    "version",
    "source",
];

/// Adds `messages` for the entity the body names.
pub async fn add(call: &Call<'_>) -> Result<Response> {
    let payload: Value = serde_json::from_slice(&call.body).unwrap_or(Value::Null);
    let mut fields = Fields::body(&call.body)?;
    let messages = fields.take("messages").ok_or_else(|| Mem0Error::invalid("messages is required"))?;
    let mut ids = Ids::take(&mut fields)?;
    if let Some(filters) = fields.take("filters") {
        ids.merge(&translate(&filters)?)?;
    }
    let mut metadata = fields.object("metadata")?.unwrap_or_default();
    metadata.remove(APP_KEY);
    if let Some(app_id) = &ids.app_id {
        metadata.insert(APP_KEY.to_owned(), json!(app_id));
    }
    let infer = fields.boolean("infer")?;
    let expiration_date = fields.string("expiration_date")?;
    fields.ignore(&IGNORED);
    fields.finish()?;
    if ids.is_empty() {
        return Err(Mem0Error::invalid("At least one of user_id, agent_id, app_id or run_id is required"));
    }
    if ids.scope.clone().validated().is_err() {
        return Err(Mem0Error::invalid("memwasm files memories under user_id, agent_id or run_id: give one of them"));
    }
    let options = AddOptions {
        scope: ids.scope.into(),
        metadata: Some(metadata),
        infer,
        expiration_date,
        ..AddOptions::default()
    };
    let engine = call.engine()?;
    let started = engine.now_ms();
    let added = engine.add(&messages, &options).await?;
    let failed =
        added.warnings.iter().find(|w| matches!(w.code, WarningCode::ExtractionFailed | WarningCode::DecisionFailed));
    let status = if failed.is_some() { "FAILED" } else { "SUCCEEDED" };
    let results: Vec<Value> = added.results.into_iter().filter_map(wire::event).collect();
    let (event_id, done) = (new_id(), engine.now_ms());
    let record = json!({
        "id": event_id, "event_type": "ADD", "status": status, "payload": payload, "metadata": null,
        "results": results, "created_at": iso_from_millis(started), "updated_at": iso_from_millis(done),
        "started_at": iso_from_millis(started), "completed_at": iso_from_millis(done), "latency": done - started,
        "graph_status": null, "error": failed.map(|warning| warning.message.clone()),
    });
    call.records()?.put(EVENT, &event_id, &record, Some(EVENT_TTL_SECONDS)).await?;
    json(200, &json!({ "status": status, "event_id": event_id, "results": results }))
}
