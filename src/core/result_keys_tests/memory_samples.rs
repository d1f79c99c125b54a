//! Results made by the engine's public calls (a scripted LLM, a letter-count embedder, a storage that keeps
//! what it is given), each filled in where one run leaves an optional field out: the fill names every field
//! of the struct, so a field added to it fails to compile here until it is filled too.

use futures_executor::block_on;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use super::{Declared::Method, Sample};
use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::engine::search::SearchResponse;
use crate::core::engine::tools::{tool_definitions, ToolFormat};
use crate::core::error::MemoryError;
use crate::core::memory_lifecycle::Stored;
use crate::core::model::graph::{Entity, GraphRecord, RelationTriple};
use crate::core::model::lifecycle::Lifecycle;
use crate::core::model::listed::Listed;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, AddWarning, MemoryEvent, MemoryItem, WarningCode};
use crate::core::provenance::MemorySource;
use crate::core::read::{ReadCall, ReadOptions};
use crate::core::testing::{KeepingStorage, Letters, ScriptedLlm};
use crate::core::upstream_error::UpstreamError;
use crate::core::value_de::from_value_path;

type Engine = MemoryEngine<ScriptedLlm, Letters, KeepingStorage>;

/// The scope every sample is in: all three ids, so records carry all of them (and mem0's names of them).
pub fn scope_json() -> Value {
    json!({"userId": "alice", "agentId": "helper", "runId": "run-1"})
}

pub fn scope() -> Scope {
    Scope { user_id: Some("alice".into()), agent_id: Some("helper".into()), run_id: Some("run-1".into()) }
}

/// `options` read as the JS binding reads a call's options (`from_js`).
pub fn options<T: DeserializeOwned>(options: Value) -> T {
    from_value_path(&options).unwrap_or_else(|(path, error)| panic!("{path}: {error}"))
}

/// The sample scope's ids with `fields`.
pub fn scoped(fields: Value) -> Value {
    let mut given = scope_json();
    given.as_object_mut().unwrap().extend(fields.as_object().cloned().unwrap_or_default());
    given
}

/// `fields` over the sample scope, as a read's options, checked for `call`.
pub fn read(call: ReadCall, fields: Value) -> crate::core::read::Read {
    options::<ReadOptions>(scoped(fields)).check(call).unwrap()
}

/// A warning caused by a model service's 429, so it has a cause and a status.
pub fn warning() -> AddWarning {
    AddWarning::caused_by(WarningCode::ExtractionFailed, &MemoryError::Llm(UpstreamError::new(Some(429), "slow")))
}

/// `item` with every optional field set.
pub fn filled_item(mut item: MemoryItem) -> MemoryItem {
    let MemoryItem {
        id: _,
        memory: _,
        hash: _,
        metadata,
        score,
        fused_score,
        created_at: _,
        updated_at: _,
        scope,
        lifecycle,
    } = &mut item;
    metadata.entry("source").or_insert(json!("chat"));
    score.get_or_insert(0.5);
    fused_score.get_or_insert(0.25);
    *scope = self::scope();
    let Lifecycle {
        memory_type: _,
        importance: _,
        pinned: _,
        expires_at,
        key,
        deleted_at,
        last_accessed_at,
        decayed_at,
        attributed_to,
    } = lifecycle;
    expires_at.get_or_insert("2030-01-01T00:00:00.000Z".into());
    key.get_or_insert("color".into());
    deleted_at.get_or_insert("2026-01-02T00:00:00.000Z".into());
    last_accessed_at.get_or_insert("2026-01-03T00:00:00.000Z".into());
    decayed_at.get_or_insert("2026-01-04T00:00:00.000Z".into());
    attributed_to.get_or_insert("user".into());
    item
}

/// `event` with every optional field set.
pub fn filled_event(mut event: MemoryEvent) -> MemoryEvent {
    let MemoryEvent { id: _, event: _, memory, old_memory, new_memory, metadata } = &mut event;
    old_memory.get_or_insert("Alice liked blue".into());
    new_memory.get_or_insert(memory.clone());
    metadata.get_or_insert_with(|| json!({"source": "chat"}).as_object().unwrap().clone());
    event
}

/// `entity` with every optional field set (an endpoint a relation named has no description).
fn filled_entity(mut entity: Entity) -> Entity {
    let Entity { name: _, entity_type: _, description, memory_ids: _, created_at: _, updated_at: _, scope: _ } =
        &mut entity;
    description.get_or_insert("a city".into());
    entity
}

/// `found` with every optional field set.
fn filled_search(mut found: SearchResponse) -> SearchResponse {
    let SearchResponse { results, method: _, total_count: _, matched: _, relations, queries, warnings } = &mut found;
    *results = results.drain(..).map(filled_item).collect();
    let triple = || RelationTriple { source: "Alice".into(), relation: "lives_in".into(), target: "Lisbon".into() };
    relations.get_or_insert_with(|| vec![triple()]);
    queries.get_or_insert_with(|| vec!["where does alice live".into()]);
    if warnings.is_empty() {
        warnings.push(warning());
    }
    found
}

/// An engine with graph memory on, holding a keyed memory (and what storing it returned), an added one and
/// a graph of the sample scope.
pub fn engine() -> (Engine, Stored) {
    let engine = MemoryEngine::new(ScriptedLlm::new(), Letters::new(26), KeepingStorage::new(), Prompts::default());
    engine.graph().set_graph(Vec::new());
    let write = crate::core::lifecycle::write::LifecycleInput {
        ttl: Some(3_600_000.0),
        pinned: Some(true),
        ..Default::default()
    };
    let metadata = json!({"source": "chat"}).as_object().unwrap().clone();
    let write = write.check(engine.now_ms()).unwrap();
    let stored = block_on(engine.lifecycle().store("color", "Alice likes teal", &scope(), None, metadata, &write));
    let stored = stored.unwrap();
    let reflection = json!({"source": "dream"}).as_object().unwrap().clone();
    block_on(engine.lifecycle().store("reflection:week", "Alice was busy", &scope(), None, reflection, &write))
        .unwrap();
    block_on(engine.add(&json!("Alice lives in Lisbon"), &options(scoped(json!({"infer": false}))))).unwrap();
    let graph = json!({
        "entities": [{"name": "Alice", "type": "person", "description": "the user"}],
        "relations": [{"source": "Alice", "relation": "lives in", "target": "Lisbon"}],
        "memoryIds": [stored.id],
    });
    block_on(engine.graph().write_graph(&graph, scope())).unwrap();
    (engine, stored)
}

/// The results of the calls on memories, the lifecycle calls, graph memory and the agent tools.
pub fn samples() -> Vec<Sample> {
    let (engine, mut stored) = engine();
    let id = stored.id.clone();
    stored.warnings.push(warning());
    let cat = json!([{"role": "user", "name": "Alice", "content": "Alice owns a cat", "id": "m1",
        "conversationId": "c1", "createdAt": "2024-05-01T10:00:00Z"}]);
    let added = block_on(engine.add(&cat, &options(scoped(json!({"infer": false}))))).unwrap();
    let cat_id = added.results[0].id.clone();
    let results = added.results.into_iter().map(filled_event).collect();
    let added = AddResult { results, warnings: vec![warning()], replayed: true };
    let sources: Vec<MemorySource> = (block_on(engine.provenance().sources(&cat_id)).unwrap().into_iter())
        .map(|source| MemorySource { history_id: source.history_id.or(Some("h1".into())), ..source })
        .collect();
    let found = block_on(engine.search("Where does Alice live?", &read(ReadCall::Search, json!({})))).unwrap();
    let page = block_on(engine.get_all(&read(ReadCall::GetAll, json!({})))).unwrap();
    let page = crate::core::engine::crud::Page { results: page.results.into_iter().map(filled_item).collect(), ..page };
    let item = filled_item(block_on(engine.get(&id)).unwrap().unwrap());
    let by_key = filled_item(block_on(engine.lifecycle().get_by_key("color", &scope())).unwrap());
    let pinned = filled_item(block_on(engine.lifecycle().pin(&id, true)).unwrap());
    let reflections: Vec<MemoryItem> =
        block_on(engine.lifecycle().reflections(&scope())).unwrap().into_iter().map(filled_item).collect();
    let entities: Vec<Entity> =
        block_on(engine.graph().get_entities(scope())).unwrap().into_iter().map(filled_entity).collect();
    let relations = block_on(engine.graph().get_relations("Alice", scope())).unwrap();
    let graph = json!({
        "entities": [{"name": "Bob", "description": "a friend"}],
        "relations": [{"source": "Bob", "relation": "knows", "target": "Alice"}],
    });
    let (mut new_entities, mut new_relations) = (Vec::new(), Vec::new());
    for record in block_on(engine.graph().write_graph(&graph, scope())).unwrap() {
        match record {
            GraphRecord::Entity(entity) => new_entities.push(filled_entity(entity)),
            GraphRecord::Relation(relation) => new_relations.push(relation),
        }
    }
    let search_tool = json!({"query": "Alice"});
    let manage_tool = json!({"action": "create", "content": "Alice plays chess"});
    vec![
        Sample::of(Method("add"), &added),
        Sample::of(Method("store"), &stored),
        Sample::of(Method("search"), &filled_search(found)),
        Sample::of(Method("get"), &item),
        Sample::of(Method("getAll"), &page),
        Sample::of(Method("history"), &block_on(engine.history(&id)).unwrap()),
        Sample::of(Method("sources"), &sources),
        Sample::of(Method("getByKey"), &by_key),
        Sample::of(Method("pin"), &pinned),
        Sample::of(Method("reflections"), &Listed { results: reflections }),
        Sample::of(Method("stats"), &block_on(engine.lifecycle().stats(&Scope::default())).unwrap()),
        Sample::of(Method("getEntities"), &Listed { results: entities }),
        Sample::of(Method("getRelations"), &Listed { results: relations }),
        Sample::wrapped(
            Method("addToGraph"),
            "{entities: Vec<Entity>, relations: Vec<Relation>}",
            json!({ "entities": new_entities, "relations": new_relations }),
        ),
        Sample::of(Method("definitions"), &tool_definitions(ToolFormat::OpenAi)),
        Sample::of(Method("definitions"), &tool_definitions(ToolFormat::Anthropic)),
        Sample::of(Method("scope"), &scope()),
        Sample::of(Method("runTool"), &block_on(engine.run_tool(&scope(), "search_memory", &search_tool)).unwrap()),
        Sample::of(Method("runTool"), &block_on(engine.run_tool(&scope(), "manage_memory", &manage_tool)).unwrap()),
    ]
}
