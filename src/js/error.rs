//! The one place core errors become JS: an `Error` named `MemoryError` with a stable `code`
//! (and `status` for HTTP failures).

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::core::error::MemoryError;

/// Converts a core error into a JS `Error` with `code` (and `status` when an HTTP status is known).
pub fn to_js_error(error: MemoryError) -> JsValue {
    let js_error = js_sys::Error::new(&error.to_string());
    js_error.set_name("MemoryError");
    let _ = Reflect::set(&js_error, &"code".into(), &error.code().into());
    if let Some(status) = error.http_status() {
        let _ = Reflect::set(&js_error, &"status".into(), &JsValue::from(status));
    }
    js_error.into()
}
