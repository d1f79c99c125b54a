//! `strict: true`: a call whose result carries `warnings` rejects instead of resolving. The error is a
//! `MemoryError` whose `code` is the first warning's, with every warning in `err.warnings` and the result
//! the call would have resolved with in `err.result`. It is raised once the call has finished: what the call
//! wrote (its `results`, if any) is kept, and `err.result` says what that was.

use js_sys::{Array, Promise, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::error::coded_error;
use super::Memory;
use crate::core::error::MemoryError;

impl Memory {
    /// Runs `work` like `promise`, and with `strict` rejects a result that carries warnings.
    pub(crate) fn answer<T, F>(&self, work: F) -> Promise
    where
        T: Serialize,
        F: std::future::Future<Output = Result<T, MemoryError>> + 'static,
    {
        super::answered(work, self.strict)
    }
}

/// `result`, or (with `strict`) the strict error when its `warnings` is a non-empty array.
pub(super) fn checked(result: JsValue, strict: bool) -> Result<JsValue, JsValue> {
    if strict {
        rejected_if_warned(result)
    } else {
        Ok(result)
    }
}

/// `result`, or the strict error when its `warnings` is a non-empty array.
fn rejected_if_warned(result: JsValue) -> Result<JsValue, JsValue> {
    let warnings = Reflect::get(&result, &"warnings".into()).unwrap_or(JsValue::UNDEFINED);
    let Some(warnings) = warnings.dyn_ref::<Array>().filter(|list| list.length() > 0) else {
        return Ok(result);
    };
    let first = warnings.get(0);
    let field = |name: &str| Reflect::get(&first, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let code = field("code").as_string().unwrap_or_default();
    let status = field("status").as_f64().map(|status| status as u16);
    let more = match warnings.length() {
        1 => String::new(),
        n => format!(" (and {} more in err.warnings)", n - 1),
    };
    let message = format!(
        "{}{more}. strict: true turns this warning into an error; anything the call wrote is kept (err.result)",
        field("message").as_string().unwrap_or_default().trim_end_matches('.'),
    );
    let error = coded_error(&message, &code, status);
    // Setting a property of a fresh Error object cannot fail.
    let _ = Reflect::set(&error, &"warnings".into(), warnings);
    let _ = Reflect::set(&error, &"result".into(), &result);
    Err(error)
}
