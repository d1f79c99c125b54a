//! What goes over the wire: the REST API's snake_case shapes (memwasm's own types are camelCase, for JS).

use memwasm::core::graph::{Entity, Relation, RelationTriple};
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::{AddResult, AddWarning, EventKind, HistoryRecord, MemoryEvent, MemoryItem, Metadata};
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
    #[serde(flatten)]
    scope: ScopeIds,
}

impl From<MemoryItem> for Item {
    fn from(item: MemoryItem) -> Self {
        Self {
            id: item.id,
            memory: item.memory,
            hash: item.hash,
            metadata: item.metadata.into_map(),
            score: item.score,
            created_at: item.created_at,
            updated_at: item.updated_at,
            scope: ScopeIds::from(item.scope),
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
    /// True when an earlier add with the same `idempotency_key` made this result (left out otherwise).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    replayed: bool,
}

impl From<AddResult> for Added {
    fn from(result: AddResult) -> Self {
        let results = result.results.into_iter().map(Event::from).collect();
        Self { results, warnings: result.warnings, replayed: result.replayed }
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
    #[serde(flatten)]
    scope: ScopeIds,
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
            scope: ScopeIds::from(record.scope),
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

/// Search results, with the relations a graph-enhanced search walked (when graph memory is on).
#[derive(Serialize)]
pub struct Found {
    pub results: Vec<Item>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relations: Option<Vec<RelationTriple>>,
}

/// A graph memory entity.
#[derive(Serialize)]
pub struct EntityItem {
    name: String,
    #[serde(rename = "type")]
    entity_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    memory_ids: Vec<String>,
    created_at: String,
    updated_at: String,
    #[serde(flatten)]
    scope: ScopeIds,
}

impl From<Entity> for EntityItem {
    fn from(entity: Entity) -> Self {
        Self {
            name: entity.name,
            entity_type: entity.entity_type,
            description: entity.description,
            memory_ids: entity.memory_ids,
            created_at: entity.created_at,
            updated_at: entity.updated_at,
            scope: ScopeIds::from(entity.scope),
        }
    }
}

/// A graph memory relation `source —relation→ target`.
#[derive(Serialize)]
pub struct RelationItem {
    source: String,
    relation: String,
    target: String,
    memory_ids: Vec<String>,
    created_at: String,
    updated_at: String,
    #[serde(flatten)]
    scope: ScopeIds,
}

impl From<Relation> for RelationItem {
    fn from(relation: Relation) -> Self {
        Self {
            source: relation.source,
            relation: relation.relation,
            target: relation.target,
            memory_ids: relation.memory_ids,
            created_at: relation.created_at,
            updated_at: relation.updated_at,
            scope: ScopeIds::from(relation.scope),
        }
    }
}

/// `user_id`, `agent_id`, `run_id`, each only when set.
#[derive(Serialize)]
pub struct ScopeIds {
    #[serde(skip_serializing_if = "Option::is_none")]
    user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<String>,
}

impl From<Scope> for ScopeIds {
    fn from(scope: Scope) -> Self {
        Self { user_id: scope.user_id, agent_id: scope.agent_id, run_id: scope.run_id }
    }
}
