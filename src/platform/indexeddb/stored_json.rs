//! Reading a value IndexedDB (or another tab) hands back through its JSON text, with the same `serde_json`
//! reader as the stored JSON of Workers KV and SQLite. A second reader over JS objects (`serde_wasm_bindgen`)
//! compiled every record type's reading code again (11 KB of the full .wasm, gzipped). Every value the
//! library stores is JSON-compatible (plain objects, arrays, strings, numbers, booleans and null), so its
//! JSON text holds all of it; a legacy inline vector is taken out before.

use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

/// `T` read from `value`'s `JSON.stringify` text; `Err(why)` for a value without one (a BigInt, a cycle)
/// or one that does not decode.
pub fn from_stored<T: DeserializeOwned>(value: &JsValue) -> Result<T, String> {
    let text = js_sys::JSON::stringify(value).ok().and_then(|text| text.as_string());
    let text = text.ok_or("not a JSON value")?;
    serde_json::from_str(&text).map_err(|error| error.to_string())
}
