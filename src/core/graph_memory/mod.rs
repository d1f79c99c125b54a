//! Graph memory's operations, reached with `engine.graph()`: enabling it, the graph call of `add()`, staging its MERGE, reading and
//! deleting entities (its hooks, the add step and the one-hop expansion of `search()`, are in `state` and `search_step`).

#[cfg(all(test, not(feature = "extras")))]
mod off_tests;
mod search_step;
#[cfg(all(test, feature = "extras"))]
mod search_step_tests;
mod state;

crate::core::engine::handle::feature_handle!(
    /// Graph memory, reached with `engine.graph()`.
    GraphMemory,
    /// Graph memory: entities and relations.
    graph
);
use crate::core::error::{MemoryError, Result};
use serde_json::Value;

use crate::core::graph::extract::{parse_graph, Extracted, GRAPH_EXTRACTION_PROMPT};
use crate::core::graph::input::{graph_input, relations as graph_relations, GraphInput};
use crate::core::graph::store::Graph;
use crate::core::model::graph::{Entity, GraphRecord, Relation};
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, EventKind, Message};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::pipeline_options::required_text;
use crate::core::prompts::extraction_input;
use crate::core::reply_schema;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> GraphMemory<'_, L, E, S, V> {
    /// Turns graph memory on, holding `records` (what storage has). The in-memory storage starts empty.
    /// Nothing in a build without `extras`, where graph memory stays off (its state never attaches, so
    /// its hooks compile away).
    pub fn set_graph(&self, records: Vec<GraphRecord>) {
        if cfg!(feature = "extras") {
            *self.graph_state().graph.borrow_mut() = Some(Graph::from_records(records));
        }
    }

    /// Turns graph memory on, loading the graph from storage; `INVALID_CONFIG` when the storage cannot keep it,
    /// `NOT_IN_MODULE` in a build without `extras`.
    pub async fn enable_graph(&self) -> Result<()> {
        if !cfg!(feature = "extras") {
            return Err(MemoryError::NotInModule("graph memory (graph.enabled)".into()));
        }
        let records = self.storage.load_graph().await?.ok_or_else(|| {
            MemoryError::InvalidConfig("graph.enabled: this storage does not persist the graph yet".into())
        })?;
        self.set_graph(records);
        Ok(())
    }

    /// True when `graph: {enabled: true}`. Always false in a build without the `extras` feature, which
    /// leaves the graph code out of the module.
    pub fn graph_enabled(&self) -> bool {
        cfg!(feature = "extras")
            && self.extensions.get::<state::GraphState>().is_some_and(|state| state.graph.borrow().is_some())
    }

    /// The one graph LLM call of `add()`.
    pub(crate) async fn extract_graph(&self, messages: &[Message]) -> Result<Extracted> {
        let (input, shape) = (extraction_input(messages), reply_schema::graph());
        let reply = self.llm.generate(&LlmRequest::json(GRAPH_EXTRACTION_PROMPT, &input, &shape)).await?;
        parse_graph(&reply)
    }

    /// Stages the MERGE of `extracted` into `changes`, linked to the memories `result` added, updated or kept.
    pub(crate) fn stage_graph(
        &self,
        extracted: &Extracted,
        scope: &Scope,
        result: &AddResult,
        changes: &mut Changeset,
    ) {
        let ids: Vec<String> =
            result.results.iter().filter(|e| e.event != EventKind::Delete).map(|e| e.id.clone()).collect();
        let Ok(Some(staged)) =
            self.read_graph(|graph| (!ids.is_empty()).then(|| graph.merge(extracted, scope, &ids, &self.now_iso())))
        else {
            return;
        };
        changes.graph.upserts.extend(staged.upserts);
    }

    /// What `read` finds in the graph; `INVALID_INPUT` while graph memory is off.
    fn read_graph<R>(&self, read: impl FnOnce(&Graph) -> R) -> Result<R> {
        let state = self.extensions.get::<state::GraphState>();
        let graph = state.as_ref().map(|state| state.graph.borrow());
        graph.as_ref().and_then(|graph| graph.as_ref()).map(read).ok_or_else(graph_off)
    }

    /// `scope` checked, once graph memory is known to be on and the scope is loaded (storages that load on demand).
    async fn graph_scope(&self, scope: Scope) -> Result<Scope> {
        let scope = scope.validated()?;
        self.read_graph(|_| ())?;
        self.load_scope(&scope).await?;
        Ok(scope)
    }

    /// The entities `scope` can see, by name.
    pub async fn get_entities(&self, scope: Scope) -> Result<Vec<Entity>> {
        let scope = self.graph_scope(scope).await?;
        self.read_graph(|graph| graph.entities(&scope).into_iter().cloned().collect())
    }

    /// The relations `scope` can see that start or end at the entity `name`.
    pub async fn get_relations(&self, name: &str, scope: Scope) -> Result<Vec<Relation>> {
        let name = required_text("name", Some(name))?;
        let scope = self.graph_scope(scope).await?;
        self.read_graph(|graph| graph.relations_of(&scope, name).into_iter().cloned().collect())
    }

    /// Writes `graph` (`{entities?, relations?, memoryIds?}`, read strictly) into `scope`'s graph, merged as
    /// `add()`'s extraction is, each record linked to the memories `memoryIds` names (memories the scope
    /// holds, else `NOT_FOUND`; a record goes when the last memory linked to it is deleted, and one linked
    /// to none stays until deleted itself). Returns the records written, as stored.
    pub async fn write_graph(&self, graph: &Value, scope: Scope) -> Result<Vec<GraphRecord>> {
        let GraphInput { extracted, memory_ids } = graph_input(graph)?;
        let scope = self.graph_scope(scope).await?;
        for id in &memory_ids {
            if !self.get(id).await?.is_some_and(|item| scope.contains(&item.scope)) {
                return Err(MemoryError::NotFound(format!("memoryIds: no memory {id} in this scope")));
            }
        }
        let changes = self.read_graph(|graph| graph.merge(&extracted, &scope, &memory_ids, &self.now_iso()))?;
        let written = changes.upserts.clone();
        self.commit(Changeset { graph: changes, ..Changeset::default() }).await?;
        Ok(written)
    }

    /// Deletes the relations `relations` (`[{source, relation, target}]`) names in `scope`; returns how many
    /// existed. Their entities stay.
    pub async fn delete_relations(&self, relations: &Value, scope: Scope) -> Result<usize> {
        let items =
            relations.as_array().ok_or_else(|| MemoryError::InvalidInput("relations: must be an array".into()))?;
        let wanted = graph_relations(items, "relations")?;
        let scope = self.graph_scope(scope).await?;
        let graph = self.read_graph(|graph| graph.delete_relations(&scope, &wanted))?;
        let count = graph.deletes.len();
        if count > 0 {
            self.commit(Changeset { graph, ..Changeset::default() }).await?;
        }
        Ok(count)
    }

    /// Deletes the entity `name` and its relations; returns how many records went.
    pub async fn delete_entity(&self, name: &str, scope: Scope) -> Result<usize> {
        let name = required_text("name", Some(name))?;
        let scope = self.graph_scope(scope).await?;
        let graph = self.read_graph(|graph| graph.delete_entity(&scope, name))?;
        let count = graph.deletes.len();
        self.commit(Changeset { graph, ..Changeset::default() }).await?;
        Ok(count)
    }
}

/// `INVALID_INPUT`: graph memory is off (one function, not one per `read_graph` caller).
fn graph_off() -> MemoryError {
    MemoryError::InvalidInput("graph memory is off; enable it with graph: {enabled: true}".into())
}
