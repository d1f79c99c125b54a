//! `GET /api/v1/memories` (fetch by type): one memory type of a user or a group, oldest first,
//! a page at a time. Read through the library's `ReadOptions`, so its checks (and its time range) apply.

use memwasm::core::read::{ReadCall, ReadOptions};
use memwasm::platform::compose::Engine;
use serde::Serialize;
use serde_json::{json, Map, Value};
use worker::Response;

use super::envelope::{ok, Failure};
use super::items::MemoryOut;
use super::params::{carry, carry_time, count, gather, id_filter, type_name, type_named, version_range};
use crate::query::{Kinds, Query};

/// Default page size.
pub const DEFAULT_LIMIT: usize = 40;
/// Largest page.
pub const MAX_LIMIT: usize = 500;

const ALLOWED: &[&str] = &[
    "user_id",
    "group_id",
    "memory_type",
    "limit",
    "offset",
    "start_time",
    "end_time",
    "include_compressed",
    "version_range",
];
const KINDS: Kinds = Kinds { numbers: &["limit", "offset"], booleans: &["include_compressed"], lists: &[], json: &[] };

/// `{memories, total_count, has_more, metadata}`.
#[derive(Serialize)]
struct Fetched {
    memories: Vec<MemoryOut>,
    /// Matching memories over all pages.
    total_count: usize,
    has_more: bool,
    metadata: Value,
}

/// Who a read is about: `user_id` and / or `group_id` (at least one, not `__all__`), as the library's
/// `userId` / `groupId` (the group's run scope).
pub fn owners(fields: &Map<String, Value>, options: &mut Map<String, Value>) -> Result<Value, Failure> {
    let (user, group) = (id_filter(fields, "user_id")?, id_filter(fields, "group_id")?);
    if user.is_none() && group.is_none() {
        return Err(Failure::invalid("give user_id or group_id (they cannot both be __all__)"));
    }
    if let Some(user) = &user {
        options.insert("user_id".into(), json!(user));
    }
    if let Some(group) = &group {
        options.insert("group_id".into(), json!(group));
    }
    Ok(json!({ "user_id": user, "group_id": group }))
}

/// The library's options from `options`; a key it refuses is the caller's mistake.
pub fn read_options(options: Map<String, Value>) -> Result<ReadOptions, Failure> {
    serde_json::from_value(Value::Object(options)).map_err(|e| Failure::invalid(e.to_string()))
}

/// `GET /api/v1/memories?user_id=…&group_id=…&memory_type=episodic_memory&limit=40&offset=0&start_time=…`.
pub async fn fetch(engine: &Engine, query: &Query, body: &[u8]) -> Result<Response, Failure> {
    let fields = gather(query, body, &KINDS, ALLOWED)?;
    // Memories here keep no version numbers: a well-formed range is accepted and keeps every memory.
    version_range(&fields)?;
    let mut options = Map::new();
    let who = owners(&fields, &mut options)?;
    let kind = match fields.get("memory_type").filter(|v| !v.is_null()) {
        None => type_named("episodic_memory")?,
        Some(Value::String(name)) => type_named(name)?,
        Some(other) => return Err(Failure::invalid(format!("memory_type must be a string, got {other}"))),
    };
    options.insert("memory_type".into(), json!(kind.as_str()));
    options.insert("limit".into(), json!(count(&fields, "limit", DEFAULT_LIMIT, MAX_LIMIT)?));
    carry(&fields, "offset", &mut options, "offset");
    carry_time(&fields, "start_time", &mut options)?;
    carry_time(&fields, "end_time", &mut options)?;
    carry(&fields, "include_compressed", &mut options, "include_compressed");
    let read = read_options(options)?.check(ReadCall::GetAll)?;
    let page = engine.get_all(&read).await?;
    let memories: Vec<MemoryOut> = page.results.into_iter().map(|item| MemoryOut::new(item, true)).collect();
    let message = format!("Memory retrieval successful, retrieved {} memories", memories.len());
    let metadata = json!({
        "source": "fetch_mem_service",
        "user_id": who["user_id"],
        "group_id": who["group_id"],
        "memory_type": type_name(kind),
    });
    ok(&message, Fetched { memories, total_count: page.total_count, has_more: page.has_more, metadata })
}
