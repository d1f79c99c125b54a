//! Moving values across the JS boundary with serde, with errors that say which field was wrong.
//! Inputs go through `serde_json::Value` first (`core::value_de`), so type errors read like JSON errors ("metadata: invalid
//! type: integer `5`, expected a map").

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsValue;

use crate::core::error::MemoryError;
use crate::core::model::scope::with_mem0_names;
use crate::core::read::{Read, ReadCall, ReadOptions};
use crate::core::value_de::from_value_path;
use crate::platform::plain::json_of;

/// Reads the argument `name` as `T`; `undefined`/`null` give `T::default()`. `wrap` makes the error.
pub fn from_js<T: DeserializeOwned + Default>(
    value: JsValue,
    name: &str,
    wrap: fn(String) -> MemoryError,
) -> Result<T, MemoryError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    let json = json_arg(&value, name, wrap)?;
    from_value_path(&json).map_err(|failed| argument_error(name, failed, wrap))
}

/// The error of argument `name` that did not read, naming the path that failed. Not generic: one copy for
/// every argument type.
#[cold]
#[inline(never)]
fn argument_error(
    name: &str,
    (path, inner): (String, serde_json::Error),
    wrap: fn(String) -> MemoryError,
) -> MemoryError {
    wrap(if path == "." { format!("{name}: {inner}") } else { format!("{path}: {inner}") })
}

/// The argument `name` as JSON, read without recursion (`platform::plain`): a value nested too deep, one
/// that contains itself, or one with a `NaN`, BigInt or function inside is `wrap`ped, naming where.
pub fn json_arg(value: &JsValue, name: &str, wrap: fn(String) -> MemoryError) -> Result<Value, MemoryError> {
    json_of(value, name).map_err(|(path, why)| wrap(format!("{path} {why}")))
}

/// A read's options (`undefined` is `{}`), checked for `call`.
pub fn read_options(value: JsValue, call: ReadCall) -> Result<Read, MemoryError> {
    from_js::<ReadOptions>(value, "options", MemoryError::InvalidInput)?.check(call)
}

/// A string argument, or `INVALID_INPUT` naming it.
pub fn string_arg(value: &JsValue, name: &str) -> Result<String, MemoryError> {
    value.as_string().ok_or_else(|| MemoryError::InvalidInput(format!("{name} must be a string")))
}

/// Plain JS objects and arrays (never `Map`s), with absent optionals left out; scopes carry mem0's
/// snake_case ids (`user_id`, …) beside the camelCase ones.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, MemoryError> {
    with_mem0_names(|| value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()))
        .map_err(|error| MemoryError::InvalidInput(format!("cannot convert result: {error}")))
}

/// Like [`to_js`], as one JSON text that JS parses: several times faster for many records (a page of
/// memories), whose every field and string would otherwise cross the boundary one by one. Only for values
/// whose numbers JSON keeps exactly (no `f32`, no NaN).
pub fn to_js_by_json<T: Serialize>(value: &T) -> Result<JsValue, MemoryError> {
    let text = with_mem0_names(|| serde_json::to_string(value))
        .map_err(|error| MemoryError::InvalidInput(format!("cannot convert result: {error}")))?;
    js_sys::JSON::parse(&text).map_err(|_| MemoryError::InvalidInput("cannot convert result: not JSON".into()))
}
