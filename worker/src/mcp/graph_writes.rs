//! The knowledge-graph tools that write, with no LLM call: entities and relations go into graph memory
//! directly; an observation is a memory of its own, linked to its entity. Deleting an entity's last
//! observation keeps the entity, as the reference memory server does.

use serde_json::{json, Map, Value};

use super::context::{tool_error, Args, Ctx};
use super::graph_tools::{graph_of, present, same, scope, Node};
use super::memory_tools::{add, scope_of};
use crate::error::ApiError;
use memwasm::core::model::graph::GraphRecord;

/// `NOT_SUPPORTED` unless graph memory is on.
fn needs_graph(ctx: &Ctx, tool: &str) -> Result<(), ApiError> {
    if ctx.graph() {
        return Ok(());
    }
    let why = format!("{tool} needs graph memory, which is off on this server (the var GRAPH_ENABLED is not \"true\")");
    Err(tool_error("NOT_SUPPORTED", why))
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn items<'a>(args: &'a Args, key: &str) -> &'a [Value] {
    args.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// Stores each text as a memory of the scope, as it is (no LLM); their ids.
async fn store_texts(ctx: &Ctx, options: &Map<String, Value>, texts: &[&str]) -> Result<Vec<String>, ApiError> {
    let mut ids = Vec::new();
    for text in texts {
        let mut verbatim = options.clone();
        verbatim.insert("infer".into(), Value::Bool(false));
        let added = add(&Value::String((*text).to_owned()), verbatim, ctx).await?;
        let results = added.get("results").and_then(Value::as_array).into_iter().flatten();
        ids.extend(results.filter_map(|event| event.get("id").and_then(Value::as_str).map(str::to_owned)));
    }
    Ok(ids)
}

pub async fn create_entities(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    needs_graph(ctx, "create_entities")?;
    let options = scope_of(args, ctx)?;
    let wanted = items(args, "entities");
    for entity in wanted {
        let memory_ids = store_texts(ctx, &options, &items_of(entity, "observations")).await?;
        let one = json!({ "name": text(entity, "name"), "type": text(entity, "entityType") });
        let graph = json!({ "entities": [one], "memoryIds": memory_ids });
        ctx.engine.graph().write_graph(&graph, scope(&options)).await?;
    }
    let keep = |e: &Node| wanted.iter().any(|w| same(text(w, "name"), &e.name));
    let (entities, _) = graph_of(ctx, &scope(&options), keep).await?;
    Ok(json!({ "entities": entities }))
}

pub async fn create_relations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    needs_graph(ctx, "create_relations")?;
    let relations: Vec<Value> = items(args, "relations")
        .iter()
        .map(|r| json!({ "source": text(r, "from"), "relation": text(r, "relationType"), "target": text(r, "to") }))
        .collect();
    let written =
        ctx.engine.graph().write_graph(&json!({ "relations": relations }), scope(&scope_of(args, ctx)?)).await?;
    let relations: Vec<Value> = written
        .into_iter()
        .filter_map(|record| match record {
            GraphRecord::Relation(r) => Some(json!({ "from": r.source, "to": r.target, "relationType": r.relation })),
            GraphRecord::Entity(_) => None,
        })
        .collect();
    Ok(json!({ "relations": relations }))
}

pub async fn add_observations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    needs_graph(ctx, "add_observations")?;
    let options = scope_of(args, ctx)?;
    let names: Vec<String> = present(ctx, &scope(&options)).await?.into_iter().map(|e| e.name).collect();
    let mut found = Vec::new();
    for observation in items(args, "observations") {
        let asked = text(observation, "entityName");
        let Some(name) = names.iter().find(|name| same(name, asked)) else {
            return Err(tool_error("NOT_FOUND", format!("Entity with name {asked} not found")));
        };
        found.push((name, observation));
    }
    let mut results = Vec::new();
    for (name, observation) in found {
        let memory_ids = store_texts(ctx, &options, &items_of(observation, "contents")).await?;
        let graph = json!({ "entities": [{ "name": name }], "memoryIds": memory_ids });
        ctx.engine.graph().write_graph(&graph, scope(&options)).await?;
        let contents = observation.get("contents").cloned().unwrap_or(json!([]));
        results.push(json!({ "entityName": text(observation, "entityName"), "addedObservations": contents }));
    }
    Ok(json!({ "results": results }))
}

pub async fn delete_observations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let scope = scope(&scope_of(args, ctx)?);
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
        // Deleting an entity's last memory deletes the entity; the reference server keeps it.
        if !present(ctx, &scope).await?.iter().any(|e| same(&e.name, &entity.name)) {
            let mut again = json!({ "name": entity.name, "type": entity.entity_type });
            if let Some(description) = &entity.description {
                again["description"] = json!(description);
            }
            ctx.engine.graph().write_graph(&json!({ "entities": [again] }), scope.clone()).await?;
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
    let scope = scope(&scope_of(args, ctx)?);
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
