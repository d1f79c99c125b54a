//! The knowledge-graph tools that write, with no LLM call, answering as the reference memory server does:
//! entities and relations go into graph memory directly, an observation is a memory of its own linked to its
//! entity, what exists is not written again, and each answer lists what was new. Deleting an entity's last
//! observation keeps the entity, as the reference memory server does.

use serde_json::{json, Map, Value};

use super::context::{tool_error, Args, Ctx};
use super::graph_tools::{entity_named, graph_node, name_key, present, relation_key, relations_of, scope};
use super::memory_tools::{add, scope_of};
use crate::error::ApiError;
use memwasm::core::model::graph::GraphRecord;

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn items<'a>(args: &'a Args, key: &str) -> &'a [Value] {
    args.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// The strings of `value[key]`, each once, in order.
fn unique_texts<'a>(value: &'a Value, key: &str) -> Vec<&'a str> {
    let mut texts: Vec<&str> = Vec::new();
    for text in value.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        if !texts.contains(&text) {
            texts.push(text);
        }
    }
    texts
}

/// A relation argument `{from, to, relationType}` as graph memory takes it.
fn triple(relation: &Value) -> Value {
    json!({ "source": text(relation, "from"), "relation": text(relation, "relationType"), "target": text(relation, "to") })
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

/// Creates the entities whose names the scope does not hold yet (an existing one is left as it is); those.
pub async fn create_entities(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let options = scope_of(args, ctx)?;
    let mut taken: Vec<String> = present(ctx, &scope(&options)).await?.iter().map(|e| name_key(&e.name)).collect();
    let mut created = Vec::new();
    for entity in items(args, "entities") {
        if taken.contains(&name_key(text(entity, "name"))) {
            continue;
        }
        taken.push(name_key(text(entity, "name")));
        let memory_ids = store_texts(ctx, &options, &unique_texts(entity, "observations")).await?;
        let one = json!({ "name": text(entity, "name"), "type": text(entity, "entityType") });
        let graph = json!({ "entities": [one], "memoryIds": memory_ids });
        for record in ctx.engine.graph().write_graph(&graph, scope(&options)).await? {
            if let GraphRecord::Entity(written) = record {
                created.push(graph_node(ctx, written).await?.json());
            }
        }
    }
    Ok(json!({ "entities": created }))
}

/// Creates the relations the scope does not hold yet; those, in the order asked.
pub async fn create_relations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let scope = scope(&scope_of(args, ctx)?);
    let asked = items(args, "relations");
    let mut taken: Vec<_> =
        relations_of(ctx, &scope, asked.iter().map(|r| text(r, "from"))).await?.iter().map(relation_key).collect();
    let mut fresh = Vec::new();
    for relation in asked {
        if !taken.contains(&relation_key(relation)) {
            taken.push(relation_key(relation));
            fresh.push(relation);
        }
    }
    if fresh.is_empty() {
        return Ok(json!({ "relations": [] }));
    }
    let graph = json!({ "relations": fresh.iter().map(|r| triple(r)).collect::<Vec<_>>() });
    let written: Vec<Value> = (ctx.engine.graph().write_graph(&graph, scope).await?.into_iter())
        .filter_map(|record| match record {
            GraphRecord::Relation(r) => Some(json!({ "from": r.source, "to": r.target, "relationType": r.relation })),
            GraphRecord::Entity(_) => None,
        })
        .collect();
    let ordered = fresh.iter().filter_map(|r| written.iter().find(|w| relation_key(w) == relation_key(r)).cloned());
    Ok(json!({ "relations": ordered.collect::<Vec<_>>() }))
}

/// Adds to each entity the observations it does not have yet; those. An unknown entity fails the call, adding
/// nothing.
pub async fn add_observations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let options = scope_of(args, ctx)?;
    for observation in items(args, "observations") {
        let asked = text(observation, "entityName");
        if entity_named(ctx, &scope(&options), asked).await?.is_none() {
            return Err(tool_error("NOT_FOUND", format!("Entity with name {asked} not found")));
        }
    }
    let mut results = Vec::new();
    for observation in items(args, "observations") {
        let asked = text(observation, "entityName");
        let Some(entity) = entity_named(ctx, &scope(&options), asked).await? else { continue };
        let name = entity.name.clone();
        let had = graph_node(ctx, entity).await?.observations;
        let added: Vec<&str> =
            unique_texts(observation, "contents").into_iter().filter(|t| !had.iter().any(|h| h == t)).collect();
        if !added.is_empty() {
            let memory_ids = store_texts(ctx, &options, &added).await?;
            let graph = json!({ "entities": [{ "name": name }], "memoryIds": memory_ids });
            ctx.engine.graph().write_graph(&graph, scope(&options)).await?;
        }
        results.push(json!({ "entityName": asked, "addedObservations": added }));
    }
    Ok(json!({ "results": results }))
}

/// Deletes the observations named (every memory carrying one); counts the observations, not the memories.
pub async fn delete_observations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let scope = scope(&scope_of(args, ctx)?);
    let (mut deleted, mut requested, mut missing) = (0usize, 0usize, Vec::new());
    for deletion in items(args, "deletions") {
        let asked = text(deletion, "entityName");
        let doomed = unique_texts(deletion, "observations");
        requested += doomed.len();
        let Some(entity) = entity_named(ctx, &scope, asked).await? else {
            missing.push(asked.to_owned());
            continue;
        };
        let mut gone: Vec<String> = Vec::new();
        for id in &entity.memory_ids {
            let Some(item) = ctx.engine.get(id).await? else { continue };
            if doomed.contains(&item.memory.as_str()) {
                ctx.engine.delete(id, false).await?;
                if !gone.contains(&item.memory) {
                    gone.push(item.memory);
                }
            }
        }
        deleted += gone.len();
        // Deleting an entity's last memory deletes the entity; the reference server keeps it.
        if entity_named(ctx, &scope, &entity.name).await?.is_none() {
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

/// Deletes the relations named (their entities stay); how many existed.
pub async fn delete_relations(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let scope = scope(&scope_of(args, ctx)?);
    let wanted = items(args, "relations");
    let triples: Vec<Value> = wanted.iter().map(triple).collect();
    let deleted = ctx.engine.graph().delete_relations(&Value::Array(triples), scope).await?;
    let message = if deleted == wanted.len() {
        "Relations deleted successfully".to_owned()
    } else {
        format!("Deleted {deleted} of {} relations (the others were not in the graph).", wanted.len())
    };
    Ok(json!({ "success": true, "message": message, "deletedCount": deleted }))
}
