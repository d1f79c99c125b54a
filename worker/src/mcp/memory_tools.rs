//! mem0's MCP tools (mem0-mcp's names and arguments) over the tenant's engine, with the Node server's
//! semantics: a call that names no user_id, agent_id or run_id is the default user's; mem0's ids inside
//! `filters` become the scope. Every scope and memory passes the token's access (`access`) first.

use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, ReadCall, ReadOptions};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use super::check::integer;
use super::context::{to_json, tool_error, Args, Ctx};
use crate::error::ApiError;

/// The scope arguments and the option names they become.
const SCOPE_KEYS: [(&str, &str); 3] = [("user_id", "userId"), ("agent_id", "agentId"), ("run_id", "runId")];

/// The call's scope as options: the ids it names, or the default user when it names none; `FORBIDDEN` when
/// the token may not reach it.
pub fn scope_of(args: &Args, ctx: &Ctx) -> Result<Map<String, Value>, ApiError> {
    let mut scope = Map::new();
    for (snake, camel) in SCOPE_KEYS {
        if let Some(id) = args.get(snake).filter(|id| !id.is_null()) {
            scope.insert(camel.into(), id.clone());
        }
    }
    ctx.access.confine(&mut scope)?;
    Ok(scope)
}

/// mem0 puts user_id / agent_id / run_id in `filters` (top level, or single-key clauses of an AND list):
/// those become the scope, the rest stays a filter.
fn split_filters(args: &Args, ctx: &Ctx) -> Result<(Map<String, Value>, Option<Value>), ApiError> {
    let mut ids = args.clone();
    let Some(Value::Object(mut filters)) = args.get("filters").cloned() else {
        return Ok((scope_of(&ids, ctx)?, None));
    };
    for (key, _) in SCOPE_KEYS {
        if let Some(Value::String(id)) = filters.remove(key) {
            ids.insert(key.into(), Value::String(id));
        }
    }
    if let Some(Value::Array(clauses)) = filters.get_mut("AND") {
        clauses.retain(|clause| {
            let Some((key, id)) = clause.as_object().filter(|clause| clause.len() == 1).and_then(|c| c.iter().next())
            else {
                return true;
            };
            if !id.is_string() || !SCOPE_KEYS.iter().any(|(snake, _)| snake == key) {
                return true;
            }
            ids.insert(key.clone(), id.clone());
            false
        });
        if clauses.is_empty() {
            filters.remove("AND");
        }
    }
    let filters = (!filters.is_empty()).then_some(Value::Object(filters));
    Ok((scope_of(&ids, ctx)?, filters))
}

/// `options` read as the library reads them; a wrong one is `INVALID_INPUT`.
fn options<T: DeserializeOwned>(options: Map<String, Value>) -> Result<T, ApiError> {
    serde_json::from_value(Value::Object(options)).map_err(|error| tool_error("INVALID_INPUT", error.to_string()))
}

fn read(options_: Map<String, Value>, call: ReadCall) -> Result<Read, ApiError> {
    Ok(options::<ReadOptions>(options_)?.check(call)?)
}

fn number(args: &Args, key: &str, default: i64) -> i64 {
    args.get(key).and_then(integer).unwrap_or(default)
}

/// Stores `messages` for `scope` through `add()` (extraction and curation, graph memory when on).
pub async fn add(messages: &Value, scope: Map<String, Value>, ctx: &Ctx) -> Result<Value, ApiError> {
    let options: AddOptions = options(scope)?;
    to_json(&ctx.engine.add(messages, &options).await?)
}

pub async fn add_memory(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let text = args.get("text").and_then(Value::as_str).unwrap_or_default();
    let messages = match args.get("messages") {
        Some(Value::Array(turns)) if !turns.is_empty() => Value::Array(turns.clone()),
        _ if text.trim().is_empty() => return Err(tool_error("INVALID_INPUT", "`text` must not be empty")),
        _ => Value::String(text.to_owned()),
    };
    let mut scope = scope_of(args, ctx)?;
    let mut metadata = args.get("metadata").and_then(Value::as_object).cloned();
    if let Some(app) = args.get("app_id").filter(|app| !app.is_null()) {
        metadata.get_or_insert_with(Map::new).insert("app_id".into(), app.clone());
    }
    if let Some(metadata) = metadata {
        scope.insert("metadata".into(), Value::Object(metadata));
    }
    add(&messages, scope, ctx).await
}

pub async fn search_memories(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let (mut options, filters) = split_filters(args, ctx)?;
    options.insert("limit".into(), json!(number(args, "limit", 10)));
    options.extend(filters.map(|filters| ("filters".to_owned(), filters)));
    if let (Some(graph @ Value::Bool(_)), true) = (args.get("enable_graph"), ctx.graph()) {
        options.insert("graph".into(), graph.clone());
    }
    let query = args.get("query").and_then(Value::as_str).unwrap_or_default();
    let mut found = ctx.engine.search(query, &read(options, ReadCall::Search)?).await?;
    memwasm::core::recency::newest_first_at_equal_score(&mut found.results);
    to_json(&found)
}

pub async fn get_memories(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let (mut options, filters) = split_filters(args, ctx)?;
    let size = number(args, "page_size", 10);
    options.insert("limit".into(), json!(size));
    options.insert("offset".into(), json!((number(args, "page", 1) - 1).saturating_mul(size)));
    options.extend(filters.map(|filters| ("filters".to_owned(), filters)));
    to_json(&ctx.engine.get_all(&read(options, ReadCall::GetAll)?).await?)
}

fn memory_id(args: &Args) -> &str {
    args.get("memory_id").and_then(Value::as_str).unwrap_or_default()
}

pub async fn get_memory(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let id = memory_id(args);
    match ctx.engine.get(id).await? {
        Some(found) => {
            ctx.access.may_touch(&found)?;
            to_json(&found)
        }
        None => Err(tool_error("NOT_FOUND", format!("No memory with id {}", Value::String(id.into())))),
    }
}

/// `{results}`: the messages memory `memory_id` came from, oldest first. A user's token reaches only the
/// sources of its own memories that still exist.
pub async fn get_memory_sources(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let id = memory_id(args);
    if ctx.access.is_user() {
        let Some(found) = ctx.engine.get(id).await? else {
            return Err(tool_error("NOT_FOUND", format!("No memory with id {}", Value::String(id.into()))));
        };
        ctx.access.may_touch(&found)?;
    }
    let results = ctx.engine.provenance().sources(id).await?;
    Ok(json!({ "results": serde_json::to_value(results).unwrap_or_default() }))
}

/// `FORBIDDEN` when the memory `id` exists and the token may not touch it (a user's token: another
/// user's memory); checked before a change by id.
async fn may_change(id: &str, ctx: &Ctx) -> Result<(), ApiError> {
    if !ctx.access.is_user() {
        return Ok(());
    }
    match ctx.engine.get(id).await? {
        Some(item) => ctx.access.may_touch(&item),
        None => Ok(()),
    }
}

pub async fn update_memory(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let text = args.get("text").and_then(Value::as_str).unwrap_or_default();
    may_change(memory_id(args), ctx).await?;
    ctx.engine.update(memory_id(args), text).await?;
    Ok(json!({ "message": "Memory updated successfully!" }))
}

pub async fn delete_memory(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    may_change(memory_id(args), ctx).await?;
    ctx.engine.delete(memory_id(args), false).await?;
    Ok(json!({ "message": "Memory deleted successfully!" }))
}

pub async fn delete_all_memories(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let mut options = scope_of(args, ctx)?;
    if let Some(app) = args.get("app_id").filter(|app| !app.is_null()) {
        options.insert("filters".into(), json!({ "app_id": app }));
    }
    ctx.engine.delete_all(&read(options, ReadCall::DeleteAll)?).await?;
    Ok(json!({ "message": "Memories deleted successfully!" }))
}

pub async fn list_entities(ctx: &Ctx) -> Result<Value, ApiError> {
    let stats = ctx.engine.lifecycle().stats(&ctx.access.listed()).await?;
    let results: Vec<Value> = stats
        .by_scope
        .into_iter()
        .map(|counted| {
            let mut entry = Map::new();
            let ids = [("user_id", counted.scope.user_id), ("agent_id", counted.scope.agent_id)];
            for (key, id) in ids.into_iter().chain([("run_id", counted.scope.run_id)]) {
                entry.extend(id.map(|id| (key.to_owned(), Value::String(id))));
            }
            entry.insert("total_memories".into(), json!(counted.count));
            Value::Object(entry)
        })
        .collect();
    Ok(json!({ "results": results }))
}
