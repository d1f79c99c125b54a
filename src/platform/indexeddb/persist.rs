//! `persist: true`: asks the browser to exempt the origin's storage from eviction under storage pressure
//! (`navigator.storage.persist()`). A refusal is the browser's call, not an error; it is logged.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Requests persistent storage; returns whether the browser granted it.
pub async fn request_persistence() -> bool {
    let granted = match persist_promise() {
        Some(promise) => JsFuture::from(promise).await.ok().and_then(|value| value.as_bool()).unwrap_or(false),
        None => false,
    };
    if !granted {
        web_sys::console::warn_1(&JsValue::from_str(
            "memwasm: the browser did not grant persistent storage (navigator.storage.persist()); \
             it may evict this IndexedDB database under storage pressure",
        ));
    }
    granted
}

fn persist_promise() -> Option<Promise> {
    let storage = ["navigator", "storage"]
        .iter()
        .try_fold(js_sys::global().into(), |value: JsValue, key| Reflect::get(&value, &(*key).into()).ok())
        .filter(|value| value.is_object())?;
    let persist = Reflect::get(&storage, &"persist".into()).ok()?.dyn_into::<Function>().ok()?;
    persist.call0(&storage).ok()?.dyn_into::<Promise>().ok()
}
