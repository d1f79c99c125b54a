//! Unicode lower and upper case by the host's `String.prototype.toLowerCase` / `toUpperCase`: no case
//! tables in the `.wasm`. `use_host_unicode` registers it.

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
