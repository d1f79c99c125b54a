//! What goes over the wire: seed 000's snake_case shapes (memwasm's own types are camelCase, for JS).

use memwasm::core::types::{AddResult, AddWarning, EventKind, HistoryRecord, MemoryEvent, MemoryItem, Metadata};
use serde::Serialize;

/// A memory.
#[derive(Serialize)]
pub struct Item {
    id: String,
    memory: String,
    hash: String,
    metadata: Metadata,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    created_at: String,
    updated_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<String>,
}

impl From<MemoryItem> for Item {
    fn from(item: MemoryItem) -> Self {
        Self {
            id: item.id,
            memory: item.memory,
            hash: item.hash,
            metadata: item.metadata,
            score: item.score,
            created_at: item.created_at,
            updated_at: item.updated_at,
            user_id: item.scope.user_id,
            agent_id: item.scope.agent_id,
            run_id: item.scope.run_id,
        }
    }
}

/// One outcome of an add.
#[derive(Serialize)]
pub struct Event {
    id: String,
    event: EventKind,
    memory: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_memory: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    new_memory: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Metadata>,
}

impl From<MemoryEvent> for Event {
    fn from(event: MemoryEvent) -> Self {
        Self {
            id: event.id,
            event: event.event,
            memory: event.memory,
            old_memory: event.old_memory,
            new_memory: event.new_memory,
            metadata: event.metadata,
        }
    }
}

/// The result of an add.
#[derive(Serialize)]
pub struct Added {
    results: Vec<Event>,
    warnings: Vec<AddWarning>,
}

impl From<AddResult> for Added {
    fn from(result: AddResult) -> Self {
        Self { results: result.results.into_iter().map(Event::from).collect(), warnings: result.warnings }
    }
}

/// One history record.
#[derive(Serialize)]
pub struct History {
    id: String,
    memory_id: String,
    event: EventKind,
    old_value: Option<String>,
    new_value: Option<String>,
    timestamp: String,
    is_deleted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<String>,
}

impl From<HistoryRecord> for History {
    fn from(record: HistoryRecord) -> Self {
        Self {
            id: record.id,
            memory_id: record.memory_id,
            event: record.event,
            old_value: record.old_value,
            new_value: record.new_value,
            timestamp: record.timestamp,
            is_deleted: record.is_deleted,
            user_id: record.scope.user_id,
            agent_id: record.scope.agent_id,
            run_id: record.scope.run_id,
        }
    }
}

/// `{results: [...]}`.
#[derive(Serialize)]
pub struct Results<T> {
    pub results: Vec<T>,
}

/// `{message}`.
#[derive(Serialize)]
pub struct Message {
    pub message: &'static str,
}
