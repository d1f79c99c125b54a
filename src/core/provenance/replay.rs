//! `idempotencyKey`: the result of an `add()` that named a key is kept as a side record (`add-keys` kind,
//! keyed by the scope and the key), written in the same commit as the add's writes, also when it stored
//! nothing, unless a failed model call stopped it (`complete`). A later `add()` with the same key in the
//! same scope returns it, with `replayed: true`, before any model call. A process killed before that commit
//! re-runs the add; one killed after it replays.

use serde_json::{json, Value};

use crate::core::error::MemoryError;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, AddWarning, MemoryEvent, WarningCode};
use crate::core::side_records::SideWrite;

/// The side-record kind of committed idempotency keys.
pub const KEYS_KIND: &str = "add-keys";

/// The record's key: the scope's three ids and the caller's key, as a JSON array (unambiguous).
pub fn key_of(scope: &Scope, key: &str) -> String {
    json!([scope.user_id, scope.agent_id, scope.run_id, key]).to_string()
}

/// True when the add did its whole job, so that its key may be kept: no model call stopped it and no fact
/// was skipped for want of a vector. A stopped add keeps no key, and the same add later runs again (a dead
/// model host during an import leaves its chunks to do); what it stored before it stopped is then an exact
/// duplicate, which the next run does not store twice.
pub fn complete(result: &AddResult) -> bool {
    let stopped = [WarningCode::ExtractionFailed, WarningCode::DecisionFailed, WarningCode::EmbeddingFailed];
    !result.warnings.iter().any(|warning| stopped.contains(&warning.code))
}

/// The write that keeps `result` under `key`.
pub fn keep(scope: &Scope, key: &str, result: &AddResult) -> SideWrite {
    let value = serde_json::to_value(result).unwrap_or(Value::Null);
    SideWrite::put(KEYS_KIND, &key_of(scope, key), value)
}

/// A kept result, read back, marked replayed. `None` when the record is unreadable (the add then runs).
pub fn read_back(value: &Value) -> Option<AddResult> {
    let results: Vec<MemoryEvent> = serde_json::from_value(value.get("results")?.clone()).ok()?;
    let warnings = value.get("warnings").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let warnings = warnings.iter().filter_map(warning).collect();
    Some(AddResult { results, warnings, replayed: true })
}

/// A warning as serialised, read back (codes this build does not know are left out).
fn warning(value: &Value) -> Option<AddWarning> {
    let code = value.get("code")?.as_str()?;
    let code = *WarningCode::ALL.iter().find(|known| known.as_str() == code)?;
    let message = value.get("message").and_then(Value::as_str).unwrap_or_default();
    let cause = value.get("cause").and_then(Value::as_str);
    let cause = cause.and_then(|cause| MemoryError::CODES.iter().copied().find(|known| *known == cause));
    let status = value.get("status").and_then(Value::as_u64).and_then(|status| u16::try_from(status).ok());
    Some(AddWarning { code, message: message.to_owned(), cause, status })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::types::EventKind;
    use crate::core::upstream_error::UpstreamError;

    #[test]
    fn a_kept_result_reads_back_the_same_but_replayed() {
        let event = MemoryEvent {
            id: "m1".into(),
            event: EventKind::Add,
            memory: "Likes tea".into(),
            old_memory: None,
            new_memory: Some("Likes tea".into()),
            metadata: Some(Default::default()),
        };
        let limited = MemoryError::Llm(UpstreamError::new(Some(429), "slow"));
        let warnings = vec![AddWarning::caused_by(WarningCode::GraphFailed, &limited)];
        let result = AddResult { results: vec![event], warnings, replayed: false };
        let kept = keep(&Scope::default(), "k", &result);
        let back = read_back(kept.value.as_ref().unwrap()).unwrap();
        assert_eq!(back, AddResult { replayed: true, ..result });
        assert!(read_back(&json!({"nothing": 1})).is_none());
    }
}
