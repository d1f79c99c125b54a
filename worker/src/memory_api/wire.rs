//! What the memory API answers (snake_case shapes; times in epoch milliseconds).

use memwasm::core::model::types::{AddWarning, MemoryItem};
use memwasm::core::time::millis_from_iso;
use serde::Serialize;

/// The key of an entry (empty for a memory stored without one, which the routes never return).
fn key_of(item: &MemoryItem) -> String {
    item.lifecycle.key.clone().unwrap_or_default()
}

/// `{key, value, created_at}`.
#[derive(Serialize)]
pub struct Entry {
    key: String,
    value: String,
    created_at: i64,
}

impl From<MemoryItem> for Entry {
    fn from(item: MemoryItem) -> Self {
        Self { key: key_of(&item), created_at: millis_from_iso(&item.created_at).unwrap_or(0), value: item.memory }
    }
}

/// `{key, value, similarity}`.
#[derive(Serialize)]
pub struct Similar {
    key: String,
    value: String,
    similarity: f64,
}

impl From<MemoryItem> for Similar {
    fn from(item: MemoryItem) -> Self {
        Self { key: key_of(&item), similarity: item.score.unwrap_or_default(), value: item.memory }
    }
}

/// `{key, value}`.
#[derive(Serialize)]
pub struct Reflection {
    key: String,
    value: String,
}

impl From<MemoryItem> for Reflection {
    fn from(item: MemoryItem) -> Self {
        Self { key: key_of(&item), value: item.memory }
    }
}

/// `{results: [...]}`.
#[derive(Serialize)]
pub struct Results<T> {
    pub results: Vec<T>,
}

/// `{entries, total, has_more}` of `list`.
#[derive(Serialize)]
pub struct Entries {
    pub entries: Vec<Entry>,
    /// Entries the caller sees in the agent, over all pages.
    pub total: usize,
    pub has_more: bool,
}

/// `{reflections: [...]}`.
#[derive(Serialize)]
pub struct Reflections {
    pub reflections: Vec<Reflection>,
}

/// `{status: "ok"}`, with what else a route reports.
#[derive(Serialize)]
pub struct Done {
    pub status: &'static str,
    /// `pin`: the entry's pin now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
    /// `clear`: how many entries were deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted: Option<usize>,
    /// `share`: how many entries were copied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copied: Option<usize>,
    /// `store`: what stored it without a vector, for example.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}

impl Done {
    pub fn ok() -> Self {
        Self { status: "ok", pinned: None, deleted: None, copied: None, warnings: Vec::new() }
    }
}
