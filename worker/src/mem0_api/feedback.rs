//! `POST /v1/feedback/`: `{memory_id, feedback?, feedback_reason?}` on a memory of the tenant, kept in KV
//! (`mem0/feedback/<id>`) and otherwise without effect; the answer is `{id, feedback, feedback_reason}`.

use memwasm::core::identity::new_id;
use serde_json::json;
use worker::Response;

use super::error::{Mem0Error, Result};
use super::params::Fields;
use super::records::FEEDBACK;
use super::{json, Call};

/// The values `feedback` may take (or `null`).
const KINDS: [&str; 3] = ["POSITIVE", "NEGATIVE", "VERY_NEGATIVE"];

/// Stores one piece of feedback.
pub async fn give(call: &Call<'_>) -> Result<Response> {
    let mut fields = Fields::body(&call.body)?;
    let memory_id = fields.string("memory_id")?.ok_or_else(|| Mem0Error::invalid("memory_id is required"))?;
    let feedback = fields.string("feedback")?.map(|kind| kind.to_uppercase());
    let reason = fields.string("feedback_reason")?;
    fields.finish()?;
    if let Some(kind) = feedback.as_deref().filter(|kind| !KINDS.contains(kind)) {
        return Err(Mem0Error::invalid(format!("feedback must be one of {}, or null; got {kind:?}", KINDS.join(", "))));
    }
    let engine = call.engine()?;
    if engine.get(&memory_id).await?.is_none() {
        return Err(Mem0Error::memory_not_found(&memory_id));
    }
    let id = new_id();
    let record = json!({
        "id": id, "memory_id": memory_id, "feedback": feedback, "feedback_reason": reason,
        "created_at": engine.now_iso(),
    });
    call.records()?.put(FEEDBACK, &id, &record, None).await?;
    json(200, &json!({ "id": id, "feedback": feedback, "feedback_reason": reason }))
}
