//! `importMemories`' arguments: the text, copied in turns, and the options (`onProgress`, `signal`), read into
//! the pace the import runs at (`reembed` takes the same options).

use js_sys::{Function, JsString, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::AbortSignal;

use crate::core::error::MemoryError;
use crate::platform::pace::JsPace;
use crate::platform::paced_text::paced_string;

const KNOWN: &str = "onProgress, signal";

/// The JSON Lines text, or `INVALID_INPUT`; copied in turns of `pace`.
pub async fn import_text(jsonl: &JsValue, pace: &JsPace) -> Result<String, MemoryError> {
    let text = jsonl.dyn_ref::<JsString>().ok_or_else(|| MemoryError::InvalidInput("jsonl must be a string".into()))?;
    paced_string(text, pace).await
}

/// `{onProgress?, signal?}` (or `undefined`/`null`) as a pace; anything else is `INVALID_INPUT` naming
/// `method`'s options.
pub fn import_pace(options: &JsValue, method: &str) -> Result<JsPace, MemoryError> {
    if options.is_undefined() || options.is_null() {
        return Ok(JsPace::new(None, None));
    }
    let bad = |why: String| MemoryError::InvalidInput(format!("{method} options: {why}"));
    if !options.is_object() || options.is_function() || js_sys::Array::is_array(options) {
        return Err(bad(format!("expected an object {{{KNOWN}}}, or nothing")));
    }
    for key in Object::keys(options.unchecked_ref::<Object>()).iter().filter_map(|key| key.as_string()) {
        if !["onProgress", "signal"].contains(&key.as_str()) {
            return Err(bad(format!("`{key}` is not an option (the options are {KNOWN})")));
        }
    }
    let field = |name: &str| Reflect::get(options, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let given = |value: &JsValue| !value.is_undefined() && !value.is_null();
    let on_progress = field("onProgress");
    let on_progress = match given(&on_progress) {
        false => None,
        true => Some(
            on_progress
                .dyn_into::<Function>()
                .map_err(|_| bad("`onProgress` must be a function, called with {phase, done, total}".into()))?,
        ),
    };
    let signal = field("signal");
    let signal = match given(&signal) {
        false => None,
        true => Some(signal.dyn_into::<AbortSignal>().map_err(|_| bad("`signal` must be an AbortSignal".into()))?),
    };
    Ok(JsPace::new(on_progress, signal))
}
