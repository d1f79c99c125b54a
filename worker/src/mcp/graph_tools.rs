//! The reference memory server's knowledge-graph tools over graph memory, with the Node server's
//! semantics. An entity is `{name, entityType, observations}`: its description and the texts of the
//! memories it came from. A relation is `{from, to, relationType}`. Graph memory is written by `add()` and
//! its model, so the tools that create store sentences through `add()` and return what the model extracted.

use memwasm::core::model::graph::Entity;
use memwasm::core::model::scope::Scope;
use serde_json::{json, Map, Value};

use super::context::{tool_error, Args, Ctx};
use super::memory_tools::{delete_all_memories, scope_of};
use crate::error::ApiError;

/// The same name, whatever its case and surrounding blanks.
pub fn same(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
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
    fn json(&self) -> Value {
        json!({ "name": self.name, "entityType": self.entity_type, "observations": self.observations })
    }
}

/// A relation's key: its ends in lowercase, its type as given.
fn triple_key(relation: &Value) -> (String, String, String) {
    let part = |key: &str| relation.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    (part("from").to_lowercase(), part("relationType"), part("to").to_lowercase())
}

async fn node(ctx: &Ctx, entity: Entity) -> Result<Node, ApiError> {
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
        let node = node(ctx, entity).await?;
        if keep(&node) {
            entities.push(node);
        }
    }
    let mut relations: Vec<Value> = Vec::new();
    for entity in &entities {
        for relation in ctx.engine.graph().get_relations(&entity.name, scope.clone()).await? {
            let relation = json!({ "from": relation.source, "to": relation.target, "relationType": relation.relation });
            match relations.iter_mut().find(|seen| triple_key(seen) == triple_key(&relation)) {
                Some(seen) => *seen = relation,
                None => relations.push(relation),
            }
        }
    }
    Ok((entities.iter().map(Node::json).collect(), relations))
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

/// The names of the entities `scope` holds.
pub async fn present(ctx: &Ctx, scope: &Scope) -> Result<Vec<Entity>, ApiError> {
    Ok(ctx.engine.graph().get_entities(scope.clone()).await?)
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
