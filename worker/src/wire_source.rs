//! A memory's source over REST (`GET /v1/memories/{id}/sources/`): the library's `MemorySource` in the
//! wire's snake_case, as every other `/v1/` answer.

use memwasm::core::model::types::EventKind;
use memwasm::core::provenance::MemorySource;
use serde::Serialize;

/// One message a memory came from.
#[derive(Serialize)]
pub struct Source {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    conversation_id: Option<String>,
    role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    created_at: Option<String>,
    excerpt: String,
    event: EventKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    history_id: Option<String>,
    recorded_at: String,
}

impl From<MemorySource> for Source {
    fn from(source: MemorySource) -> Self {
        Self {
            id: source.id,
            conversation_id: source.conversation_id,
            role: source.role,
            name: source.name,
            created_at: source.created_at,
            excerpt: source.excerpt,
            event: source.event,
            history_id: source.history_id,
            recorded_at: source.recorded_at,
        }
    }
}
