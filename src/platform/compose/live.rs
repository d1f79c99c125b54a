//! Config values that are live JS objects — callbacks such as `llm.generate`, platform bindings such as
//! `storage.binding` — cannot pass through serde. They are lifted out here, by path, before the rest of
//! the config is read as JSON.

use std::collections::HashMap;

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::core::time::Clock;

/// Where live values may appear in a config, as property paths.
const LIVE_PATHS: &[&[&str]] = &[
    &["llm", "generate"],
    &["llm", "binding"],
    &["embedder", "embed"],
    &["embedder", "binding"],
    &["reranker", "rerank"],
    &["storage", "binding"],
    &["storage", "open"],
    &["now"],
    &["observe"],
    &["countTokens"],
];

/// The live values of one config, keyed by dotted path (e.g. `"storage.binding"`).
#[derive(Default)]
pub struct LiveValues(HashMap<String, JsValue>);

impl LiveValues {
    /// The live value at `path`, if the config had one.
    pub fn get(&self, path: &str) -> Option<&JsValue> {
        self.0.get(path)
    }

    /// Puts `value` at `path` (e.g. `"storage.binding"`), for hosts that hold their bindings outside the
    /// config object (the Worker's `env`).
    pub fn insert(&mut self, path: &str, value: JsValue) {
        self.0.insert(path.to_owned(), value);
    }
}

fn property(value: &JsValue, key: &str) -> Option<JsValue> {
    if !value.is_object() {
        return None;
    }
    Reflect::get(value, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined())
}

/// Whether the object at `path`'s parent has `path`'s last key, holding `undefined`.
fn holds_undefined(config: &JsValue, path: &[&str]) -> bool {
    let (last, parents) = path.split_last().expect("live paths are not empty");
    let parent = parents.iter().try_fold(config.clone(), |value, key| property(&value, key));
    parent.is_some_and(|parent| {
        parent.is_object()
            && Reflect::has(&parent, &JsValue::from_str(last)).unwrap_or(false)
            && Reflect::get(&parent, &JsValue::from_str(last)).is_ok_and(|v| v.is_undefined())
    })
}

/// A copy of `value` without `path` (only the objects along the path are copied).
fn without(value: &JsValue, path: &[&str]) -> JsValue {
    let copy: JsValue = Object::assign(&Object::new(), value.unchecked_ref()).into();
    let key = JsValue::from_str(path[0]);
    if path.len() == 1 {
        let _ = Reflect::delete_property(copy.unchecked_ref::<Object>(), &key);
    } else if let Some(child) = property(value, path[0]) {
        let _ = Reflect::set(&copy, &key, &without(&child, &path[1..]));
    }
    copy
}

/// Splits `config` into its JSON part and its live values.
pub fn split(config: &JsValue) -> (JsValue, LiveValues) {
    let mut json = config.clone();
    let mut live = LiveValues::default();
    for path in LIVE_PATHS {
        let found = path.iter().try_fold(config.clone(), |value, key| property(&value, key));
        if let Some(found) = found {
            live.0.insert(path.join("."), found);
            json = without(&json, path);
        } else if holds_undefined(config, path) {
            // `binding: env.MEMORY_KV` with no such binding: missing, as if not written (never "unknown field").
            json = without(&json, path);
        }
    }
    (json, live)
}

/// `now: () => number | Date` in the config: the clock TTL, decay and timestamps read (tests move it
/// instead of sleeping). A call that throws or returns no finite time reads the system clock instead.
pub fn js_clock(now: &JsValue) -> crate::core::error::Result<Clock> {
    let now: js_sys::Function = now
        .dyn_ref::<js_sys::Function>()
        .cloned()
        .ok_or_else(|| crate::core::config::invalid("now", "must be a function () => number (milliseconds) or Date"))?;
    Ok(Clock::from_fn(move || {
        let value = now.call0(&JsValue::NULL).unwrap_or(JsValue::UNDEFINED);
        let millis = match value.dyn_ref::<js_sys::Date>() {
            Some(date) => date.get_time(),
            None => value.as_f64().unwrap_or(f64::NAN),
        };
        if millis.is_finite() {
            millis as i64
        } else {
            Clock::default().now_ms()
        }
    }))
}

/// `countTokens: (text) => number` in the config: an exact tokenizer (e.g. `js-tiktoken`) for every budget.
/// A call that throws or returns no whole number ≥ 0 falls back to the library's estimate for that text.
pub fn js_token_counter(count: &JsValue) -> crate::core::error::Result<crate::core::tokens::TokenCounter> {
    let count: js_sys::Function = count
        .dyn_ref::<js_sys::Function>()
        .cloned()
        .ok_or_else(|| crate::core::config::invalid("countTokens", "must be a function (text: string) => number"))?;
    Ok(crate::core::tokens::TokenCounter::from_fn(move |text| {
        let counted = count.call1(&JsValue::NULL, &JsValue::from_str(text)).ok().and_then(|n| n.as_f64());
        match counted {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n.is_finite() => n as usize,
            _ => crate::core::tokens::estimate_tokens(text),
        }
    }))
}
