//! The host's timers (`setTimeout` / `clearTimeout`), present in browsers, Node and workerd alike.

use js_sys::Function;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Calls `callback` once after `ms` milliseconds; returns the handle `clear_timeout` takes.
    #[wasm_bindgen(js_name = setTimeout)]
    pub fn set_timeout(callback: &Function, ms: f64) -> JsValue;
    /// Cancels a `set_timeout` that has not fired yet.
    #[wasm_bindgen(js_name = clearTimeout)]
    pub fn clear_timeout(handle: &JsValue);
}
