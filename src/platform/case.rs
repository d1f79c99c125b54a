//! Unicode lower and upper case by the host's `String.prototype.toLowerCase` / `toUpperCase`: no case
//! tables in the `.wasm`. Register it with `core::case::set_case_mapping(JS_CASE)`.

use js_sys::JsString;

use crate::core::case::CaseMapping;

/// The JS engine's case mapping.
pub const JS_CASE: CaseMapping = (lower, upper);

fn lower(text: &str) -> String {
    JsString::from(text).to_lower_case().into()
}

fn upper(text: &str) -> String {
    JsString::from(text).to_upper_case().into()
}
