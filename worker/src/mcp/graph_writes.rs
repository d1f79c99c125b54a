//! The knowledge-graph tools that write: entities, relations and observations go in as sentences through
//! `add()` (graph memory's model extracts them); observations and relations go out by deletion.

use serde_json::{json, Value};

use super::graph_tools::{add_sentences, graph_of, present, same, scope};
use super::memory_tools::scope_of;
use super::tools::{tool_error, Args, Ctx};
use crate::error::ApiError;

/// `NOT_SUPPORTED` unless graph memory is on: its model writes what these tools create.
fn needs_writer(ctx: &Ctx, tool: &str) -> Result<(), ApiError> {
    if ctx.graph() {
        return Ok(());
    }
    let why = format!(
        "{tool} needs graph memory, which an LLM writes: it is off on this server (the var GRAPH_ENABLED is not \
         \"true\"). Use add_memory instead."
    );
    Err(tool_error("NOT_SUPPORTED", why))
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn items<'a>(args: &'a Args, key: &str) -> &'a [Value] {
    args.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// The events and warnings of an `add()` result, under `events_key`.
fn with_added(mut answer: Value, added: &Value, events_key: &str) -> Value {
    answer[events_key] = added.get("results").cloned().unwrap_or(json!([]));
    if let Some(warnings) = added.get("warnings") {
        answer["warnings"] = warnings.clone();
    }
    answer
}

pub async fn create_entities(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    needs_writer(ctx, "create_entities")?;
    let options = scope_of(args, ctx);
    let wanted = items(args, "entities");
    let sentences = wanted.iter().map(|entity| {
        let mut parts = vec![format!("{} is a {}.", text(entity, "name"), text(entity, "entityType"))];
        let observations = entity.get("observations").and_then(Value::as_array).into_iter().flatten();
        parts.extend(observations.filter_map(Value::as_str).map(str::to_owned));
        parts.join(" ")
    });
    let added = add_sentences(ctx, options.clone(), sentences.collect()).await?;
    let keep = |e: &super::graph_tools::Node| wanted.iter().any(|w| same(text(w, "name"), &e.name));
    let (entities, _) = graph_of(ctx, &scope(&options), keep).await?;
    Ok(with_added(json!({ "entities": entities }), &added, "results"))
}

pub async fn create_relations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    needs_writer(ctx, "create_relations")?;
    let options = scope_of(args, ctx);
    let wanted = items(args, "relations");
    let sentences = wanted
        .iter()
        .map(|r| format!("{} {} {}.", text(r, "from"), text(r, "relationType").replace('_', " "), text(r, "to")));
    let added = add_sentences(ctx, options.clone(), sentences.collect()).await?;
    let keys: Vec<(String, String, String)> = wanted
        .iter()
        .map(|r| (text(r, "from").to_lowercase(), text(r, "relationType").to_lowercase(), text(r, "to").to_lowercase()))
        .collect();
    let keep = |e: &super::graph_tools::Node| wanted.iter().any(|r| same(text(r, "from"), &e.name));
    let (_, relations) = graph_of(ctx, &scope(&options), keep).await?;
    let relations: Vec<Value> = relations
        .into_iter()
        .filter(|r| {
            let key =
                (text(r, "from").to_lowercase(), text(r, "relationType").to_owned(), text(r, "to").to_lowercase());
            keys.contains(&key)
        })
        .collect();
    Ok(with_added(json!({ "relations": relations }), &added, "results"))
}

pub async fn add_observations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    needs_writer(ctx, "add_observations")?;
    let options = scope_of(args, ctx);
    let names: Vec<String> = present(ctx, &scope(&options)).await?.into_iter().map(|e| e.name).collect();
    let mut sentences = Vec::new();
    let mut results = Vec::new();
    for observation in items(args, "observations") {
        let asked = text(observation, "entityName");
        let Some(name) = names.iter().find(|name| same(name, asked)) else {
            return Err(tool_error("NOT_FOUND", format!("Entity with name {asked} not found")));
        };
        let contents = observation.get("contents").cloned().unwrap_or(json!([]));
        let texts = contents.as_array().into_iter().flatten().filter_map(Value::as_str);
        sentences.extend(texts.map(|content| format!("{name}: {content}")));
        results.push(json!({ "entityName": asked, "addedObservations": contents }));
    }
    let added = add_sentences(ctx, options, sentences).await?;
    Ok(with_added(json!({ "results": results }), &added, "events"))
}

pub async fn delete_observations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let scope = scope(&scope_of(args, ctx));
    let entities = present(ctx, &scope).await?;
    let (mut deleted, mut requested, mut missing) = (0usize, 0usize, Vec::new());
    for deletion in items(args, "deletions") {
        let asked = text(deletion, "entityName");
        let doomed: Vec<&str> = items_of(deletion, "observations");
        requested += doomed.len();
        let Some(entity) = entities.iter().find(|e| same(&e.name, asked)) else {
            missing.push(asked.to_owned());
            continue;
        };
        for id in &entity.memory_ids {
            if ctx.engine.get(id).await?.is_some_and(|item| doomed.contains(&item.memory.as_str())) {
                ctx.engine.delete(id, false).await?;
                deleted += 1;
            }
        }
    }
    let message = if deleted == requested {
        "Observations deleted successfully".to_owned()
    } else if missing.is_empty() {
        format!("Deleted {deleted} of {requested} observations.")
    } else {
        format!("Deleted {deleted} of {requested} observations. Entities not found: {}", missing.join(", "))
    };
    Ok(json!({ "success": true, "message": message, "deletedCount": deleted, "missingEntities": missing }))
}

fn items_of<'a>(value: &'a Value, key: &str) -> Vec<&'a str> {
    value.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect()
}

/// Deletes the relations named (their entities stay); how many existed.
pub async fn delete_relations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let scope = scope(&scope_of(args, ctx));
    let wanted = items(args, "relations");
    let triples: Vec<Value> = wanted
        .iter()
        .map(|r| json!({ "source": text(r, "from"), "relation": text(r, "relationType"), "target": text(r, "to") }))
        .collect();
    let deleted = ctx.engine.graph().delete_relations(&Value::Array(triples), scope).await?;
    let message = if deleted == wanted.len() {
        "Relations deleted successfully".to_owned()
    } else {
        format!("Deleted {deleted} of {} relations (the others were not in the graph).", wanted.len())
    };
    Ok(json!({ "success": true, "message": message, "deletedCount": deleted }))
}
