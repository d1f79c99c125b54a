//! `GET /api/v1/memories/search` (the conversation API's search), parameters in the query string or in a JSON
//! body (`POST` takes the body too, for clients that cannot send one with `GET`). Read through the
//! library's `ReadOptions`: `retrieve_method` is its `method`, `radius`, `start_time`, `end_time`,
//! `current_time` and `include_compressed` its options of those names. Hits are grouped by conversation
//! (`group_id`), in the order of each group's best hit; each group maps the conversation API's type names to its
//! memories, best first.

use memwasm::core::model::types::{AddWarning, MemoryItem};
use memwasm::core::model::MemoryType;
use memwasm::core::read::{Read, ReadCall};
use memwasm::platform::compose::Engine;
use serde::Serialize;
use serde_json::{json, Map, Value};
use worker::Response;

use super::envelope::{ok, Failure};
use super::fetch::{owners, read_options};
use super::items::{pending, MemoryOut, PendingOut};
use super::params::{carry, carry_time, count, gather, id_filter, type_name, types_of};
use super::pending::pending_of;
use crate::query::{Kinds, Query};

/// Default count.
pub const DEFAULT_TOP_K: usize = 40;
/// Largest count.
pub const MAX_TOP_K: usize = 100;

const ALLOWED: &[&str] = &[
    "query",
    "user_id",
    "group_id",
    "retrieve_method",
    "memory_types",
    "top_k",
    "start_time",
    "end_time",
    "radius",
    "include_metadata",
    "current_time",
    "include_compressed",
];
const KINDS: Kinds = Kinds {
    numbers: &["top_k", "radius"],
    booleans: &["include_metadata", "include_compressed"],
    lists: &["memory_types"],
    json: &[],
};

/// The `result` of a search.
#[derive(Serialize)]
struct Found {
    /// One object per conversation: memory type name → memories.
    memories: Vec<Map<String, Value>>,
    /// The same shape, with each memory's score.
    scores: Vec<Map<String, Value>>,
    /// Per group: the highest importance among its memories.
    importance_scores: Vec<f64>,
    /// Always empty: messages are not kept once extracted.
    original_data: Vec<Value>,
    total_count: usize,
    has_more: bool,
    query_metadata: Value,
    metadata: Value,
    /// The messages of the group (`group_id`, else `user_id`'s default group) still waiting for a boundary.
    pending_messages: Vec<PendingOut>,
    /// `agentic`: why it fell back to a hybrid search (`AGENTIC_FAILED`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<AddWarning>,
}

/// The types to search: `memory_types`, `episodic_memory` when none; `profile` is refused.
fn searched_types(fields: &Map<String, Value>) -> Result<Vec<MemoryType>, Failure> {
    let kinds = types_of(fields, "memory_types")?;
    if kinds.contains(&MemoryType::Profile) {
        return Err(Failure::invalid("memory_types: profile is not supported by search (fetch it instead)"));
    }
    Ok(if kinds.is_empty() { vec![MemoryType::Episodic] } else { kinds })
}

/// The hits grouped by conversation (`group_id`), in the order of each group's best hit.
#[derive(Default)]
struct Groups {
    keys: Vec<Option<String>>,
    memories: Vec<Map<String, Value>>,
    scores: Vec<Map<String, Value>>,
    importance: Vec<f64>,
}

impl Groups {
    fn new(hits: Vec<MemoryItem>, with_metadata: bool) -> Self {
        let mut groups = Self::default();
        for item in hits {
            let at = groups.keys.iter().position(|key| *key == item.scope.run_id).unwrap_or_else(|| {
                groups.keys.push(item.scope.run_id.clone());
                groups.memories.push(Map::new());
                groups.scores.push(Map::new());
                groups.importance.push(f64::MIN);
                groups.keys.len() - 1
            });
            let name = type_name(item.lifecycle.memory_type).to_owned();
            groups.importance[at] = groups.importance[at].max(item.lifecycle.importance);
            push(groups.scores[at].entry(name.clone()), item.score.map_or(Value::Null, |s| json!(s)));
            push(groups.memories[at].entry(name), json!(MemoryOut::new(item, with_metadata)));
        }
        groups
    }
}

fn push(entry: serde_json::map::Entry, value: Value) {
    if let Value::Array(items) = entry.or_insert_with(|| Value::Array(Vec::new())) {
        items.push(value);
    }
}

/// `GET /api/v1/memories/search`.
pub async fn search(engine: &Engine, query: &Query, body: &[u8]) -> Result<Response, Failure> {
    let fields = gather(query, body, &KINDS, ALLOWED)?;
    let mut options = Map::new();
    let who = owners(&fields, &mut options)?;
    // Always the conversation form, so a user's search sees the group memories that involve them.
    options.entry("group_id").or_insert(json!("__all__"));
    let kinds = searched_types(&fields)?;
    options.insert("memory_types".into(), json!(kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>()));
    let top_k = count(&fields, "top_k", DEFAULT_TOP_K, MAX_TOP_K)?;
    options.insert("top_k".into(), json!(top_k));
    carry_time(&fields, "start_time", &mut options)?;
    carry_time(&fields, "end_time", &mut options)?;
    carry(&fields, "include_compressed", &mut options, "include_compressed");
    let with_metadata = match fields.get("include_metadata") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(flag)) => *flag,
        Some(other) => return Err(Failure::invalid(format!("include_metadata must be true or false, got {other}"))),
    };
    let query = match fields.get("query") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.trim().to_owned(),
        Some(other) => return Err(Failure::invalid(format!("query must be a string, got {other}"))),
    };
    let method = id_filter(&fields, "retrieve_method")?.unwrap_or_else(|| "keyword".to_owned());
    let (mut queries, mut warnings) = (None, Vec::new());
    // How many memories were found, whatever top_k.
    let total_count;
    let mut hits = if query.is_empty() {
        // No query: the newest memories of the types asked for. `current_time` still drops foresight that
        // has ended; `radius` has no ranking to floor and changes nothing.
        carry_time(&fields, "current_time", &mut options)?;
        let read = read_options(options)?.check(ReadCall::GetAll)?;
        let total = engine.get_all(&read).await?.total_count;
        total_count = total;
        // One more than asked (when there is one) tells whether there is more.
        let limit = (read.limit + 1).min(total);
        let newest = Read { offset: total - limit, limit, ..read };
        let mut page = engine.get_all(&newest).await?.results;
        page.reverse();
        page
    } else {
        options.insert("method".into(), json!(method));
        carry(&fields, "radius", &mut options, "radius");
        carry_time(&fields, "current_time", &mut options)?;
        let read = read_options(options)?.check(ReadCall::Search)?;
        // One more than asked tells whether there is more, past the library's cap of 100 with a group.
        let found = engine.search(&query, &Read { limit: top_k + 1, count_matches: true, ..read }).await?;
        (queries, warnings) = (found.queries, found.warnings);
        total_count = found.matched.max(found.results.len());
        found.results
    };
    let has_more = hits.len() > top_k;
    hits.truncate(top_k);
    let groups = Groups::new(hits, with_metadata);
    let group = who["group_id"].as_str().map(str::to_owned);
    let waiting = pending_of(engine, group.as_deref(), who["user_id"].as_str()).await?;
    let mut about = json!({
        "source": "memwasm",
        "user_id": who["user_id"],
        "group_id": who["group_id"],
        "memory_type": "retrieve",
        "retrieve_method": method,
        "query": query,
    });
    if let Some(queries) = queries {
        about["queries"] = json!(queries); // agentic: every query that ran, the caller's first
    }
    let message = format!("Memory search successful, retrieved {} groups", groups.memories.len());
    let found = Found {
        memories: groups.memories,
        scores: groups.scores,
        importance_scores: groups.importance,
        original_data: Vec::new(),
        total_count,
        has_more,
        query_metadata: about.clone(),
        metadata: about,
        pending_messages: pending(waiting),
        warnings,
    };
    ok(&message, found)
}
