//! Unicode NFC by the host's `String.prototype.normalize` (every JS engine has it), for keyword search:
//! no Unicode tables in the `.wasm`. `use_host_unicode` registers it.

use js_sys::JsString;

/// `text` in normalisation form C, as the JS engine computes it.
pub fn js_nfc(text: &str) -> String {
    JsString::from(text).normalize("NFC").into()
}
