//! Moving values across the JS boundary with serde, with errors that say which field was wrong.
//! Inputs go through `serde_json::Value` first, so type errors read like JSON errors ("metadata: invalid
//! type: integer `5`, expected a map").

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::core::error::MemoryError;
use crate::core::read::{Read, ReadCall, ReadOptions};

/// Reads the argument `name` as `T`; `undefined`/`null` give `T::default()`. `wrap` makes the error.
pub fn from_js<T: DeserializeOwned + Default>(
    value: JsValue,
    name: &str,
    wrap: fn(String) -> MemoryError,
) -> Result<T, MemoryError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    let json: serde_json::Value = serde_wasm_bindgen::from_value(value)
        .map_err(|_| wrap(format!("{name} must be plain JSON data (no functions, symbols or BigInts)")))?;
    serde_path_to_error::deserialize(json).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        wrap(if path == "." { format!("{name}: {inner}") } else { format!("{path}: {inner}") })
    })
}

/// A read's options (`undefined` is `{}`), checked for `call`.
pub fn read_options(value: JsValue, call: ReadCall) -> Result<Read, MemoryError> {
    from_js::<ReadOptions>(value, "options", MemoryError::InvalidInput)?.check(call)
}

/// A string argument, or `INVALID_INPUT` naming it.
pub fn string_arg(value: &JsValue, name: &str) -> Result<String, MemoryError> {
    value.as_string().ok_or_else(|| MemoryError::InvalidInput(format!("{name} must be a string")))
}

/// Plain JS objects and arrays (never `Map`s), with absent optionals left out.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, MemoryError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| MemoryError::InvalidInput(format!("cannot convert result: {error}")))
}
