//! Environment variables, where the host has them (`process.env` in Node); `None` elsewhere.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

/// `process.env[name]`, if this host has a `process`.
pub fn env_var(name: &str) -> Option<String> {
    let process = Reflect::get(&js_sys::global(), &JsValue::from_str("process")).ok().filter(|p| p.is_object())?;
    let env = Reflect::get(&process, &JsValue::from_str("env")).ok().filter(|e| e.is_object())?;
    Reflect::get(&env, &JsValue::from_str(name)).ok()?.as_string().filter(|value| !value.is_empty())
}
