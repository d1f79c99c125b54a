//! The graph memory methods of `Memory`: `getEntities`, `getRelations`, `deleteEntity`, and the app's own
//! writes `addToGraph`, `deleteRelations`.

use js_sys::Promise;
use serde_json::json;
use wasm_bindgen::prelude::*;

use super::convert::{json_arg, read_options, string_arg};
use super::{promise, Memory};
use crate::core::error::MemoryError;
use crate::core::model::graph::GraphRecord;
use crate::core::model::listed::Listed;
use crate::core::model::scope::Scope;
use crate::core::read::ReadCall;

fn scope_of(options: JsValue) -> Result<Scope, MemoryError> {
    Ok(read_options(options, ReadCall::ScopeOnly)?.scope)
}

#[wasm_bindgen]
impl Memory {
    /// The graph entities the scope can see, by name.
    #[wasm_bindgen(js_name = getEntities, unchecked_return_type = "Promise<{ results: Entity[] }>")]
    pub fn get_entities(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move { Ok(Listed { results: engine.graph().get_entities(scope_of(options)?).await? }) })
    }

    /// The relations that start or end at the entity `name`.
    #[wasm_bindgen(js_name = getRelations, unchecked_return_type = "Promise<{ results: Relation[] }>")]
    pub fn get_relations(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let name = string_arg(&name, "name")?;
            Ok(Listed { results: engine.graph().get_relations(&name, scope_of(options)?).await? })
        })
    }

    /// Deletes the entity `name` and its relations.
    #[wasm_bindgen(js_name = deleteEntity, unchecked_return_type = "Promise<{ message: string, deleted: number }>")]
    pub fn delete_entity(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let name = string_arg(&name, "name")?;
            let deleted = engine.graph().delete_entity(&name, scope_of(options)?).await?;
            Ok(json!({ "message": "Entity deleted successfully!", "deleted": deleted }))
        })
    }

    /// Writes entities and relations into the scope's graph without an LLM, merged as `add()`'s extraction
    /// is, linked to the memories `graph.memoryIds` names; resolves with the records written.
    #[wasm_bindgen(js_name = addToGraph, unchecked_return_type = "Promise<{ entities: Entity[], relations: Relation[] }>")]
    pub fn add_to_graph(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GraphInput")] graph: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let graph = json_arg(&graph, "graph", MemoryError::InvalidInput)?;
            let written = engine.graph().write_graph(&graph, scope_of(options)?).await?;
            let (mut entities, mut relations) = (Vec::new(), Vec::new());
            for record in written {
                match record {
                    GraphRecord::Entity(entity) => entities.push(entity),
                    GraphRecord::Relation(relation) => relations.push(relation),
                }
            }
            Ok(json!({ "entities": entities, "relations": relations }))
        })
    }

    /// Deletes the relations named (`[{source, relation, target}]`) from the scope's graph; their entities stay.
    #[wasm_bindgen(js_name = deleteRelations, unchecked_return_type = "Promise<{ message: string, deleted: number }>")]
    pub fn delete_relations(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GraphRelationInput[]")] relations: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Scope")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let relations = json_arg(&relations, "relations", MemoryError::InvalidInput)?;
            let deleted = engine.graph().delete_relations(&relations, scope_of(options)?).await?;
            Ok(json!({ "message": "Relations deleted successfully!", "deleted": deleted }))
        })
    }
}
