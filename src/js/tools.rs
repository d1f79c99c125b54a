//! `memory.recall(query, options)` and `memory.tools(scope, options)`: memory for agent loops. The tools
//! object holds the scope it was made for; `runTool` has no way to name another.

use std::rc::Rc;

use js_sys::Promise;
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, read_options, string_arg, to_js};
use super::error::to_js_error;
use super::{promise, Memory};
use crate::core::engine::tools::{tool_definitions, ToolFormat};
use crate::core::error::MemoryError;
use crate::core::model::scope::Scope;
use crate::core::read::ReadCall;
use crate::platform::compose::Engine;

/// `tools()`'s second argument.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsOptions {
    format: Option<ToolFormat>,
}

#[wasm_bindgen]
impl Memory {
    /// The memories worth putting in a prompt for `query`, as a `<memory>` block within a token budget.
    #[wasm_bindgen(unchecked_return_type = "Promise<RecallResult>")]
    pub fn recall(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RecallOptions")] options: JsValue,
    ) -> Promise {
        let engine = self.engine.clone();
        self.answer(async move {
            let query = string_arg(&query, "query")?;
            engine.recall(&query, &read_options(options, ReadCall::Recall)?).await
        })
    }

    /// Agent tools bound to `scope`: their definitions, and `runTool` to execute a call. Throws
    /// `SCOPE_REQUIRED` (synchronously, like the constructor) without a userId, agentId or runId.
    pub fn tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ToolsOptions")] options: JsValue,
    ) -> Result<MemoryTools, JsValue> {
        let scope = read_options(scope, ReadCall::ScopeOnly).map_err(to_js_error)?.scope;
        let options: ToolsOptions = from_js(options, "options", MemoryError::InvalidInput).map_err(to_js_error)?;
        Ok(MemoryTools { engine: self.engine.clone(), scope, format: options.format.unwrap_or_default() })
    }
}

/// `search_memory` and `manage_memory` for one scope, fixed when `memory.tools(scope)` made them.
#[wasm_bindgen]
pub struct MemoryTools {
    engine: Rc<Engine>,
    scope: Scope,
    format: ToolFormat,
}

#[wasm_bindgen]
impl MemoryTools {
    /// The tool definitions, ready for the `tools` field of a chat request.
    #[wasm_bindgen(getter, unchecked_return_type = "ToolDefinition[]")]
    pub fn definitions(&self) -> Result<JsValue, JsValue> {
        to_js(&tool_definitions(self.format)).map_err(to_js_error)
    }

    /// The scope every call of these tools reads and writes.
    #[wasm_bindgen(getter, unchecked_return_type = "Scope")]
    pub fn scope(&self) -> Result<JsValue, JsValue> {
        to_js(&self.scope).map_err(to_js_error)
    }

    /// Runs one tool call (`args` as an object or the model's JSON string) and resolves with a
    /// JSON-serialisable result. Rejects with a coded error: `INVALID_INPUT` for an unknown tool or bad
    /// arguments, `NOT_FOUND` for an id that does not exist in this scope.
    #[wasm_bindgen(js_name = runTool, unchecked_return_type = "Promise<ToolResult>")]
    pub fn run_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Record<string, JsonValue>")] args: JsValue,
    ) -> Promise {
        let (engine, scope) = (self.engine.clone(), self.scope.clone());
        promise(async move {
            let name = string_arg(&name, "name")?;
            let args: Value = from_js(args, "args", MemoryError::InvalidInput)?;
            engine.run_tool(&scope, &name, &args).await
        })
    }
}
