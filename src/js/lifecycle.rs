//! The lifecycle calls of `Memory`: keys (`store`, `getByKey`, `deleteByKey`, `reflections`, `share`,
//! `stats`), and forgetting (`pin`, `decay`, `purgeExpired`, `restore`).

use js_sys::Promise;
use serde_json::json;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, read_options, string_arg};
use super::{message, promise, Memory};
use crate::core::error::MemoryError;
use crate::core::lifecycle::options::{DecayRequest, ShareOptions, StoreOptions};
use crate::core::model::listed::Listed;
use crate::core::model::scope::Scope;
use crate::core::read::{ReadCall, ReadOptions};

fn invalid_input(why: String) -> MemoryError {
    MemoryError::InvalidInput(why)
}

/// A scope and nothing else; it may be empty (every memory held).
fn any_scope(options: JsValue) -> Result<Scope, MemoryError> {
    from_js::<ReadOptions>(options, "options", invalid_input)?.any_scope()
}

#[wasm_bindgen]
impl Memory {
    /// Stores `value` under `key` in the scope, without an LLM (an UPDATE when the key exists).
    #[wasm_bindgen(unchecked_return_type = "Promise<StoreResult>")]
    pub fn store(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] value: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StoreOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        self.answer(async move {
            let (key, value) = (string_arg(&key, "key")?, string_arg(&value, "value")?);
            let options: StoreOptions = from_js(options, "options", invalid_input)?;
            let write = options.lifecycle().check(engine.now_ms())?;
            let metadata = options.metadata.clone().unwrap_or_default();
            engine
                .lifecycle()
                .store(&key, &value, &options.scope.scope()?, options.embedding.clone(), metadata, &write)
                .await
        })
    }

    /// The memory stored under `key`; rejects with `NOT_FOUND`, or `EXPIRED` once its TTL has run out.
    #[wasm_bindgen(js_name = getByKey, unchecked_return_type = "Promise<MemoryItem>")]
    pub fn get_by_key(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let key = string_arg(&key, "key")?;
            engine.lifecycle().get_by_key(&key, &read_options(scope, ReadCall::ScopeOnly)?.scope).await
        })
    }

    /// Deletes the memory stored under `key`; rejects with `NOT_FOUND` when there is none.
    #[wasm_bindgen(js_name = deleteByKey, unchecked_return_type = "Promise<{ message: string }>")]
    pub fn delete_by_key(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let key = string_arg(&key, "key")?;
            engine.lifecycle().delete_by_key(&key, &read_options(scope, ReadCall::ScopeOnly)?.scope).await?;
            Ok(message("Memory deleted successfully!"))
        })
    }

    /// The scope's memories whose key starts with `reflection:`.
    #[wasm_bindgen(unchecked_return_type = "Promise<{ results: MemoryItem[] }>")]
    pub fn reflections(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let results = engine.lifecycle().reflections(&read_options(scope, ReadCall::ScopeOnly)?.scope).await?;
            Ok(Listed { results })
        })
    }

    /// Copies the keyed memories of `from` whose key matches `pattern` (`*`, `?`) into `to`.
    #[wasm_bindgen(unchecked_return_type = "Promise<{ copied: number }>")]
    pub fn share(&self, #[wasm_bindgen(unchecked_param_type = "ShareOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let options: ShareOptions = from_js(options, "options", invalid_input)?;
            Ok(json!({"copied": engine.lifecycle().share(&options.from, &options.to, &options.pattern).await?}))
        })
    }

    /// Counts of the memories of a scope (`{}`: every memory held).
    #[wasm_bindgen(unchecked_return_type = "Promise<MemoryStats>")]
    pub fn stats(&self, #[wasm_bindgen(unchecked_optional_param_type = "Scope")] scope: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move { engine.lifecycle().stats(&any_scope(scope)?).await })
    }

    /// Pins (`pinned = true`, the default) or unpins a memory.
    #[wasm_bindgen(unchecked_return_type = "Promise<MemoryItem>")]
    pub fn pin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = memoryId)] memory_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "boolean")] pinned: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let pinned = match pinned.as_bool() {
                Some(pinned) => pinned,
                None if pinned.is_undefined() => true,
                None => return Err(invalid_input("pinned must be a boolean".into())),
            };
            engine.lifecycle().pin(&string_arg(&memory_id, "memoryId")?, pinned).await
        })
    }

    /// Lowers the importance of unpinned memories by their time since last access and forgets those that
    /// fall below `forgetBelow`. Never runs by itself.
    #[wasm_bindgen(unchecked_return_type = "Promise<{ decayed: number, forgotten: number }>")]
    pub fn decay(&self, #[wasm_bindgen(unchecked_optional_param_type = "DecayOptions")] options: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            let request: DecayRequest = from_js(options, "options", invalid_input)?;
            engine.lifecycle().decay(&request.scope.scope()?, request.options().plan()?).await
        })
    }

    /// Deletes the scope's expired memories (`{}`: every memory held), with history.
    #[wasm_bindgen(js_name = purgeExpired, unchecked_return_type = "Promise<{ purged: number }>")]
    pub fn purge_expired(&self, #[wasm_bindgen(unchecked_optional_param_type = "Scope")] scope: JsValue) -> Promise {
        let engine = self.engine.clone();
        promise(async move { Ok(json!({"purged": engine.lifecycle().purge_expired(&any_scope(scope)?).await?})) })
    }

    /// Brings back a soft-deleted memory.
    #[wasm_bindgen(unchecked_return_type = "Promise<{ message: string }>")]
    pub fn restore(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string", js_name = memoryId)] memory_id: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        promise(async move {
            engine.restore(&string_arg(&memory_id, "memoryId")?).await?;
            Ok(message("Memory restored successfully!"))
        })
    }
}
