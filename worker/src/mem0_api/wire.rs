//! The platform's snake_case shapes: a memory, a history record, an add's event. Entity ids the memory
//! lacks are `null`, as on the platform; `app_id` and `expiration_date` live in memwasm's metadata and are
//! shown as fields of their own; `categories` is `metadata.categories` when that is a list of strings.

use memwasm::core::model::expiration_date;
use memwasm::core::model::types::{EventKind, HistoryRecord, MemoryEvent, MemoryItem};
use serde_json::{json, Value};

/// The metadata key memwasm files mem0's `app_id` under.
pub const APP_KEY: &str = "app_id";

/// A memory, with `score` on search results (in [0, 1], as on the platform).
pub fn memory(item: MemoryItem) -> Value {
    let mut metadata = item.metadata;
    let app_id = metadata.remove(APP_KEY).unwrap_or(Value::Null);
    let expires = metadata.remove(expiration_date::KEY).unwrap_or(Value::Null);
    let categories = match metadata.get("categories") {
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => Value::Array(items.clone()),
        _ => json!([]),
    };
    let mut shown = json!({
        "id": item.id,
        "memory": item.memory,
        "hash": item.hash,
        "user_id": item.scope.user_id,
        "agent_id": item.scope.agent_id,
        "app_id": app_id,
        "run_id": item.scope.run_id,
        "session_id": item.scope.run_id,
        "metadata": metadata,
        "categories": categories,
        "created_at": item.created_at,
        "updated_at": item.updated_at,
        "expiration_date": expires,
    });
    if let Some(score) = item.score {
        shown["score"] = json!(score.clamp(0.0, 1.0));
    }
    shown
}

/// `shown` with only the `fields` asked for (all of them when none are).
pub fn only(shown: Value, fields: &Option<Vec<String>>) -> Value {
    match (shown, fields) {
        (Value::Object(mut map), Some(fields)) if !fields.is_empty() => {
            map.retain(|key, _| fields.iter().any(|field| field == key));
            Value::Object(map)
        }
        (shown, _) => shown,
    }
}

/// One record of a memory's history (`input` is empty: memwasm keeps no messages with it).
pub fn history(record: HistoryRecord) -> Value {
    json!({
        "id": record.id,
        "memory_id": record.memory_id,
        "input": [],
        "old_memory": record.old_value,
        "new_memory": record.new_value,
        "event": record.event,
        "user_id": record.scope.user_id,
        "agent_id": record.scope.agent_id,
        "app_id": null,
        "run_id": record.scope.run_id,
        "session_id": record.scope.run_id,
        "categories": [],
        "metadata": null,
        "is_deleted": record.is_deleted,
        "created_at": record.timestamp,
        "updated_at": record.timestamp,
    })
}

/// One outcome of an add (`None` for NONE: a fact already known changes nothing). An UPDATE carries
/// `previous_memory`; a DELETE's `memory` is the text it removed.
pub fn event(event: MemoryEvent) -> Option<Value> {
    if event.event == EventKind::None {
        return None;
    }
    let mut shown = json!({
        "id": event.id,
        "event": event.event,
        "memory": event.memory,
        "data": { "memory": event.memory },
    });
    if event.event == EventKind::Update {
        shown["previous_memory"] = json!(event.old_memory);
    }
    Some(shown)
}
