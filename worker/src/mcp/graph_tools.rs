//! The reference memory server's knowledge-graph tools over graph memory, with the Node server's
//! semantics. An entity is `{name, entityType, observations}`: its description and the texts of the
//! memories it came from. A relation is `{from, to, relationType}`. Names match as graph memory keys them
//! (any case and spacing). With graph memory off the graph-only tools are not listed, and a call to one is
//! `NOT_SUPPORTED` naming `GRAPH_ENABLED`.

use memwasm::core::model::graph::{entity_name, relation_name, Entity};
use memwasm::core::model::scope::Scope;
use serde_json::{json, Map, Value};

use super::context::{tool_error, Args, Ctx};
use super::memory_tools::{delete_all_memories, scope_of};
use crate::error::ApiError;

/// The tools that need graph memory: unlisted when it is off (`delete_entities` stays, for mem0's form).
pub const GRAPH_ONLY: [&str; 8] = [
    "create_entities",
    "create_relations",
    "add_observations",
    "delete_observations",
    "delete_relations",
    "read_graph",
    "search_nodes",
    "open_nodes",
];

/// The error of a graph tool called with graph memory off.
pub fn graph_off(tool: &str) -> ApiError {
    let why = format!(
        "{tool} needs graph memory, which is off on this server: set the var GRAPH_ENABLED to \"true\" (or use the \
         memory tools: add_memory, search_memories, …)"
    );
    tool_error("NOT_SUPPORTED", why)
}

/// An entity name as graph memory keys it.
pub fn name_key(name: &str) -> String {
    entity_name(name).to_lowercase()
}

/// The same name, as graph memory keys it.
pub fn same(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

/// A scope of `scope_of` as the engine's `Scope`.
pub fn scope(options: &Map<String, Value>) -> Scope {
    let id = |key: &str| options.get(key).and_then(Value::as_str).map(str::to_owned);
    Scope { user_id: id("userId"), agent_id: id("agentId"), run_id: id("runId") }
}

/// An entity as the reference server has it.
pub struct Node {
    pub name: String,
    pub entity_type: String,
    pub observations: Vec<String>,
}

impl Node {
    pub fn json(&self) -> Value {
        json!({ "name": self.name, "entityType": self.entity_type, "observations": self.observations })
    }
}

/// A relation `{from, to, relationType}` as graph memory keys it.
pub fn relation_key(relation: &Value) -> (String, String, String) {
    let part = |key: &str| relation.get(key).and_then(Value::as_str).unwrap_or_default();
    (name_key(part("from")), relation_name(part("relationType")), name_key(part("to")))
}

/// An entity as the reference server has it: its description and the texts of its memories, each once.
pub async fn graph_node(ctx: &Ctx, entity: Entity) -> Result<Node, ApiError> {
    let mut observations: Vec<String> = entity.description.into_iter().filter(|text| !text.is_empty()).collect();
    for id in &entity.memory_ids {
        if let Some(item) = ctx.engine.get(id).await? {
            if !item.memory.is_empty() && !observations.contains(&item.memory) {
                observations.push(item.memory);
            }
        }
    }
    Ok(Node { name: entity.name, entity_type: entity.entity_type, observations })
}

/// The entities of `scope` that `keep` accepts, and the relations that touch them (each once).
pub async fn graph_of(
    ctx: &Ctx,
    scope: &Scope,
    keep: impl Fn(&Node) -> bool,
) -> Result<(Vec<Value>, Vec<Value>), ApiError> {
    let mut entities = Vec::new();
    for entity in ctx.engine.graph().get_entities(scope.clone()).await? {
        let node = graph_node(ctx, entity).await?;
        if keep(&node) {
            entities.push(node);
        }
    }
    let relations = relations_of(ctx, scope, entities.iter().map(|e| e.name.as_str())).await?;
    Ok((entities.iter().map(Node::json).collect(), relations))
}

/// The relations of `scope` that touch the entities named, each once.
pub async fn relations_of(ctx: &Ctx, scope: &Scope, names: impl Iterator<Item = &str>) -> Result<Vec<Value>, ApiError> {
    let mut relations: Vec<Value> = Vec::new();
    for name in names.filter(|name| !name.trim().is_empty()) {
        for relation in ctx.engine.graph().get_relations(name, scope.clone()).await? {
            let relation = json!({ "from": relation.source, "to": relation.target, "relationType": relation.relation });
            if !relations.iter().any(|seen| relation_key(seen) == relation_key(&relation)) {
                relations.push(relation);
            }
        }
    }
    Ok(relations)
}

/// The graph of a call, `{entities, relations}`.
async fn answer(ctx: &Ctx, args: &Args, keep: impl Fn(&Node) -> bool) -> Result<Value, ApiError> {
    let (entities, relations) = graph_of(ctx, &scope(&scope_of(args, ctx)?), keep).await?;
    Ok(json!({ "entities": entities, "relations": relations }))
}

pub async fn read_graph(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    answer(ctx, args, |_| true).await
}

pub async fn search_nodes(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let query = args.get("query").and_then(Value::as_str).unwrap_or_default().to_lowercase();
    let hit = |text: &str| text.to_lowercase().contains(&query);
    answer(ctx, args, |e| hit(&e.name) || hit(&e.entity_type) || e.observations.iter().any(|o| hit(o))).await
}

pub async fn open_nodes(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    let names = strings(args.get("names"));
    answer(ctx, args, |e| names.iter().any(|name| same(name, &e.name))).await
}

/// The strings of an array argument.
pub fn strings(value: Option<&Value>) -> Vec<String> {
    let items = value.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    items.iter().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// The entities `scope` holds.
pub async fn present(ctx: &Ctx, scope: &Scope) -> Result<Vec<Entity>, ApiError> {
    Ok(ctx.engine.graph().get_entities(scope.clone()).await?)
}

/// The entity of `scope` named `name`, if any.
pub async fn entity_named(ctx: &Ctx, scope: &Scope, name: &str) -> Result<Option<Entity>, ApiError> {
    Ok(present(ctx, scope).await?.into_iter().find(|e| same(&e.name, name)))
}

pub async fn delete_entities(args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    if args.get("entityNames").is_none_or(Value::is_null) {
        if ["user_id", "agent_id", "run_id", "app_id"].iter().all(|key| args.get(*key).is_none_or(Value::is_null)) {
            let why = "Provide entityNames (graph entities), or user_id, agent_id, app_id or run_id (the scope \
                       whose memories to delete).";
            return Err(tool_error("SCOPE_REQUIRED", why));
        }
        return delete_all_memories(args, ctx).await;
    }
    if !ctx.graph() {
        return Err(graph_off("delete_entities with entityNames"));
    }
    let scope = scope(&scope_of(args, ctx)?);
    let names: Vec<String> = present(ctx, &scope).await?.into_iter().map(|e| e.name).collect();
    let wanted = strings(args.get("entityNames"));
    let (mut deleted, mut not_found) = (Vec::<String>::new(), Vec::new());
    for name in &wanted {
        match names.iter().find(|present| same(present, name)) {
            None => not_found.push(name.clone()),
            Some(found) if !deleted.contains(found) => {
                ctx.engine.graph().delete_entity(found, scope.clone()).await?;
                deleted.push(found.clone());
            }
            Some(_) => {}
        }
    }
    let message = if not_found.is_empty() {
        "Entities deleted successfully".to_owned()
    } else {
        format!("Deleted {} of {} entities. Not found: {}", deleted.len(), wanted.len(), not_found.join(", "))
    };
    Ok(json!({ "success": true, "message": message, "deleted": deleted, "notFound": not_found }))
}
