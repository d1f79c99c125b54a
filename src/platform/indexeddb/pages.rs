//! Reading a whole store a page at a time inside an upgrade transaction (the migrations): each page is one
//! `getAll` from just after the last key of the page before, so the work is done in bounded steps while
//! the transaction stays alive on its requests.

use idb::{KeyRange, Query};
use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbObjectStore;

use super::outcome::{from_thrown, settled};
use crate::core::error::{MemoryError, Result};

/// Hands every record of `store`, in key order, to `each` in pages of up to `limit`; `key` names the
/// records' key field and `context` says what a failure means (`each`'s error stops the walk).
pub async fn each_page(
    store: &IdbObjectStore,
    key: &str,
    limit: u32,
    context: &'static str,
    each: &mut dyn FnMut(&Array) -> Result<()>,
) -> Result<()> {
    let mut after: Option<JsValue> = None;
    loop {
        let from = match &after {
            None => JsValue::NULL,
            Some(last) => KeyRange::lower_bound(last, Some(true))
                .map(|range| JsValue::from(Query::KeyRange(range)))
                .map_err(|error| MemoryError::Storage(format!("{error} ({context})")))?,
        };
        let page: Array = settled(store.get_all_with_key_and_limit(&from, limit), context).await?.unchecked_into();
        if page.length() == 0 {
            return Ok(());
        }
        let last = Reflect::get(&page.get(page.length() - 1), &JsValue::from_str(key));
        after = Some(last.map_err(|thrown| from_thrown(thrown, context))?);
        each(&page)?;
        if page.length() < limit {
            return Ok(());
        }
    }
}
