//! The data model (memories, the events of `add()`, history records, messages), in the camelCase shape JS callers see.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lifecycle::Lifecycle;
pub use super::memory_type::MemoryType;
use super::scope::Scope;
use super::shared_metadata::SharedMetadata;
pub use crate::core::warning::{AddWarning, WarningCode};

/// The metadata key of mem0's `expiration_date` (a memory past it is hidden unless `showExpired`).
pub const EXPIRATION_DATE_KEY: &str = "expiration_date";

/// Arbitrary JSON key/value pairs attached to a memory.
pub type Metadata = Map<String, Value>;

/// One stored fact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryItem {
    /// UUID v4.
    pub id: String,
    /// The fact text.
    pub memory: String,
    /// MD5 hex digest of `memory`.
    pub hash: String,
    /// The caller's metadata (scope ids live in `scope`, not here), shared by the record's copies.
    #[serde(default)]
    pub metadata: SharedMetadata,
    /// Similarity score; search results only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// `search(…, {rerank: true})`: the ranking's own score of a result the reranker scored (`score` is then
    /// the reranker's relevance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fused_score: Option<f64>,
    /// ISO 8601.
    pub created_at: String,
    /// ISO 8601.
    pub updated_at: String,
    /// Who the memory belongs to.
    #[serde(flatten, serialize_with = "super::scope::serialize_record_scope")]
    pub scope: Scope,
    /// Type, importance, pin, expiry, key, soft deletion, last access.
    #[serde(flatten)]
    pub lifecycle: Lifecycle,
}

impl MemoryItem {
    /// True for an original a compression summarised: `metadata.compressed: true`.
    pub fn is_compressed(&self) -> bool {
        self.metadata.get("compressed").and_then(Value::as_bool) == Some(true)
    }
}

/// A memory together with its embedding (unit length; `None` when it has no vector).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMemory {
    pub item: MemoryItem,
    pub embedding: Option<Vec<f32>>,
}

/// What happened to a memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum EventKind {
    Add,
    Update,
    Delete,
    None,
}

impl EventKind {
    /// `ADD`, `UPDATE`, `DELETE` or `NONE`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Add => "ADD",
            Self::Update => "UPDATE",
            Self::Delete => "DELETE",
            Self::None => "NONE",
        }
    }
}

/// One outcome of `add()`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryEvent {
    pub id: String,
    pub event: EventKind,
    /// The memory's text after the event (before it, for DELETE).
    pub memory: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_memory: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_memory: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// The result of `add()`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct AddResult {
    pub results: Vec<MemoryEvent>,
    pub warnings: Vec<AddWarning>,
    /// True when an earlier `add()` with the same `idempotencyKey` made this result (left out otherwise).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
}

impl AddResult {
    /// Records `event`, keeping one event per memory: a change (ADD, UPDATE, DELETE) replaces a NONE of the
    /// same memory, and a NONE for a memory that already has an event is dropped.
    pub fn record(&mut self, event: MemoryEvent) {
        match self.results.iter_mut().find(|seen| seen.id == event.id) {
            None => self.results.push(event),
            Some(_) if event.event == EventKind::None => {}
            Some(seen) => *seen = event,
        }
    }
}

/// One entry of a memory's audit trail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryRecord {
    pub id: String,
    pub memory_id: String,
    /// ADD, UPDATE or DELETE.
    pub event: EventKind,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    /// ISO 8601.
    pub timestamp: String,
    pub is_deleted: bool,
    #[serde(flatten, serialize_with = "super::scope::serialize_record_scope")]
    pub scope: Scope,
}

/// A chat message, and where it came from when the caller says (kept as a memory's sources).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    pub role: String,
    pub content: String,
    /// The message's id in its source (a chat export's message id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The conversation it belongs to, in its source.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "conversation_id")]
    pub conversation_id: Option<String>,
    /// When it was said (ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "created_at")]
    pub created_at: Option<String>,
    /// Who said it (the chat format's `name`), kept as its memories' `actor_id`, as mem0 keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Message {
    /// A message with only a role and a text.
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        Self { role: role.into(), content: content.into(), ..Self::default() }
    }
}
