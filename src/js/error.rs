//! The one place core errors become JS: a `MemoryError` (a subclass of `Error` defined in
//! `memory_error.js` and exported by the package) with a stable `code`, and `status` for HTTP failures.

use wasm_bindgen::prelude::*;

use crate::core::error::MemoryError;

#[wasm_bindgen(module = "/src/js/memory_error.js")]
extern "C" {
    /// The JS class `MemoryError`.
    #[wasm_bindgen(js_name = MemoryError)]
    type JsMemoryError;

    #[wasm_bindgen(constructor, js_class = "MemoryError")]
    fn new(message: &str, code: &str, status: Option<u16>) -> JsMemoryError;

    /// The JS class `LLMError` (a `MemoryError` for an LLM that cannot be reached).
    #[wasm_bindgen(js_name = LLMError)]
    type JsLlmError;

    #[wasm_bindgen(constructor, js_class = "LLMError")]
    fn new(message: &str, code: &str, status: Option<u16>) -> JsLlmError;
}

/// Converts a core error into a JS `MemoryError` with `code` (and `status` when an HTTP status is known); an
/// LLM that cannot be reached becomes its subclass `LLMError`.
pub fn to_js_error(error: MemoryError) -> JsValue {
    if error.is_llm_transport() {
        return JsLlmError::new(&error.to_string(), error.code(), error.http_status()).into();
    }
    coded_error(&error.to_string(), error.code(), error.http_status())
}

/// A JS `MemoryError` from its parts (for errors reported in events rather than thrown).
pub fn coded_error(message: &str, code: &str, status: Option<u16>) -> JsValue {
    JsMemoryError::new(message, code, status).into()
}
