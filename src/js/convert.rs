//! Moving values across the JS boundary with serde, with errors that say which field was wrong.
//! Inputs go through `serde_json::Value` first (`core::value_de`), so type errors read like JSON errors ("metadata: invalid
//! type: integer `5`, expected a map").

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use crate::core::error::MemoryError;
use crate::core::read::{Read, ReadCall, ReadOptions};
use crate::core::scope::with_mem0_names;
use crate::core::value_de::from_value_path;

/// Reads the argument `name` as `T`; `undefined`/`null` give `T::default()`. `wrap` makes the error.
pub fn from_js<T: DeserializeOwned + Default>(
    value: JsValue,
    name: &str,
    wrap: fn(String) -> MemoryError,
) -> Result<T, MemoryError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    if let Some(path) = non_finite(&value, name, 0) {
        return Err(wrap(format!("{path}: must be a finite number (NaN and Infinity are not)")));
    }
    let json: serde_json::Value = serde_wasm_bindgen::from_value(value)
        .map_err(|_| wrap(format!("{name} must be plain JSON data (no functions, symbols or BigInts)")))?;
    from_value_path(&json).map_err(|(path, inner)| {
        wrap(if path == "." { format!("{name}: {inner}") } else { format!("{path}: {inner}") })
    })
}

/// A read's options (`undefined` is `{}`), checked for `call`.
pub fn read_options(value: JsValue, call: ReadCall) -> Result<Read, MemoryError> {
    from_js::<ReadOptions>(value, "options", MemoryError::InvalidInput)?.check(call)
}

/// The path of the first NaN or ±Infinity inside `value` (plain objects and arrays, 32 levels deep), which
/// the JSON conversion would otherwise turn into `null`, i.e. "not given".
fn non_finite(value: &JsValue, path: &str, depth: usize) -> Option<String> {
    if let Some(number) = value.as_f64() {
        return (!number.is_finite()).then(|| path.to_owned());
    }
    if depth > 32 || !value.is_object() || value.is_function() {
        return None;
    }
    if let Some(array) = value.dyn_ref::<js_sys::Array>() {
        return array.iter().enumerate().find_map(|(i, item)| non_finite(&item, &format!("{path}[{i}]"), depth + 1));
    }
    let object: &js_sys::Object = value.unchecked_ref();
    js_sys::Object::entries(object).iter().find_map(|entry| {
        let entry: js_sys::Array = entry.unchecked_into();
        let key = entry.get(0).as_string().unwrap_or_default();
        non_finite(&entry.get(1), &format!("{path}.{key}"), depth + 1)
    })
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
