//! The graph memory methods of `Memory`: `getEntities`, `getRelations`, `deleteEntity`.

use js_sys::Promise;
use serde_json::json;
use wasm_bindgen::prelude::*;

use super::convert::{read_options, string_arg};
use super::{promise, Memory};
use crate::core::error::MemoryError;
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
        promise(async move { Ok(json!({ "results": engine.graph().get_entities(scope_of(options)?).await? })) })
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
            Ok(json!({ "results": engine.graph().get_relations(&name, scope_of(options)?).await? }))
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
}
