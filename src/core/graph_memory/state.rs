//! What graph memory keeps in the engine: the entity graph, attached when graph memory is turned on, and
//! its hooks: kept in step with the memories (a deleted memory's relations go with it), its own model call
//! in `add()`, its step of `search()`.

use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use super::search_step::graph_search;
use crate::core::engine::extensions::{EngineHooks, Staging};
use crate::core::engine::search::SearchResponse;
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::graph::{Graph, GraphChanges};
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddWarning, Message, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Graph memory's state in an engine; `None` until graph memory is turned on.
#[derive(Default)]
pub(crate) struct GraphState {
    pub(crate) graph: RefCell<Option<Graph>>,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> EngineHooks<MemoryEngine<L, E, S, V>> for GraphState {
    /// The relations of the memories `changes` delete are deleted with them.
    fn before_commit(&self, _engine: &MemoryEngine<L, E, S, V>, changes: &mut Changeset) {
        if let Some(graph) = self.graph.borrow().as_ref() {
            graph.cascade(&mut changes.graph, &changes.deletes);
        }
    }

    fn after_commit(&self, changes: &Changeset) {
        if let Some(graph) = self.graph.borrow_mut().as_mut() {
            graph.apply(&changes.graph);
        }
    }

    fn on_clear(&self) {
        if let Some(graph) = self.graph.borrow_mut().as_mut() {
            graph.clear();
        }
    }

    /// The scope's graph records, when graph memory is on.
    fn on_load_scope<'a>(
        &'a self,
        engine: &'a MemoryEngine<L, E, S, V>,
        scope: &'a Scope,
    ) -> Option<LocalBoxFuture<'a, Result<()>>> {
        self.graph.borrow().as_ref()?;
        Some(Box::pin(async move {
            let upserts = engine.storage.load_scope_graph(scope).await?;
            if let Some(graph) = self.graph.borrow_mut().as_mut() {
                graph.apply(&GraphChanges { upserts, deletes: Vec::new() });
            }
            Ok(())
        }))
    }

    /// A memory's relations reach the entities of its whole scope.
    fn needs_whole_scope(&self) -> bool {
        self.graph.borrow().is_some()
    }

    /// The graph's LLM call, alongside the vector path; its MERGE is linked to the memories the add
    /// kept, and a failed call is the add's `GRAPH_FAILED` warning.
    fn add_step<'a>(
        &self,
        engine: &'a MemoryEngine<L, E, S, V>,
        messages: &'a [Message],
    ) -> Option<LocalBoxFuture<'a, Staging<'a>>> {
        self.graph.borrow().as_ref()?;
        Some(Box::pin(async move {
            let extracted = engine.graph().extract_graph(messages).await;
            let stage: Staging<'a> = Box::new(move |scope, result, changes| match extracted {
                Ok(extracted) => engine.graph().stage_graph(&extracted, scope, result, changes),
                Err(why) => result.warnings.push(AddWarning::caused_by(WarningCode::GraphFailed, &why)),
            });
            stage
        }))
    }

    /// A search for a text (not by vector) with the graph's one-hop expansion.
    fn after_search(
        &self,
        engine: &MemoryEngine<L, E, S, V>,
        text: Option<&str>,
        read: &Read,
        response: &mut SearchResponse,
    ) {
        if let (Some(graph), Some(text)) = (self.graph.borrow().as_ref(), text) {
            graph_search(graph, engine, text, read, response);
        }
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Graph memory's state, attached with its hooks on first use (when graph memory is turned on).
    pub(crate) fn graph_state(&self) -> Rc<GraphState> {
        self.extensions.get_or_attach()
    }
}
