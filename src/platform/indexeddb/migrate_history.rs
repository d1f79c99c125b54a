//! The version 6 upgrade of a database that holds history: the old `history` store (one record per entry)
//! is renamed out of the way, the new one (one record per batch, see `history`) created under its name,
//! and every entry copied over, oldest first, a page at a time, each page one batch; then the old store is
//! deleted. It all runs inside the upgrade transaction, so the database is upgraded whole or, should
//! anything fail (the transaction is then aborted and the open fails), left at its old version untouched.
//!
//! Entries are copied as stored (`seq` aside), so one that does not decode is still skipped with a warning
//! when read, as before. One that cannot be written as JSON at all fails the upgrade instead.

use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbObjectStore;

use super::history::{batch_record, BATCH};
use super::outcome::from_thrown;
use super::pages::each_page;
use crate::core::error::{MemoryError, Result};

/// The old store's name while its entries are copied.
pub const OLD: &str = "history-v5";
const CONTEXT: &str = "the upgrade to schema version 6 was rolled back";

/// Starts copying the entries of `old` into `new`, both stores of the upgrade transaction, then deletes
/// `old` (its requests keep the transaction alive; a failure aborts it).
pub fn history_into_batches(old: IdbObjectStore, new: IdbObjectStore) {
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(error) = migrate(&old, &new).await {
            web_sys::console::warn_1(&JsValue::from_str(&format!("memwasm: {error}")));
            let _ = old.transaction().abort();
        }
    });
}

async fn migrate(old: &IdbObjectStore, new: &IdbObjectStore) -> Result<()> {
    let mut copy = |page: &Array| new.add(&batch_of(page)?).map(drop).map_err(|thrown| from_thrown(thrown, CONTEXT));
    each_page(old, "seq", BATCH as u32, CONTEXT, &mut copy).await?;
    old.transaction().db().delete_object_store(OLD).map_err(|thrown| from_thrown(thrown, CONTEXT))
}

/// One batch record holding the old records of `page`, as stored but for their `seq`.
fn batch_of(page: &Array) -> Result<JsValue> {
    let (mut memory_ids, mut texts) = (Vec::new(), Vec::new());
    for record in page.iter() {
        let field = |name: &str| Reflect::get(&record, &JsValue::from_str(name)).ok().and_then(|v| v.as_string());
        memory_ids.extend(field("memoryId"));
        if let Some(object) = record.dyn_ref::<js_sys::Object>() {
            let _ = Reflect::delete_property(object, &"seq".into());
        }
        let text = js_sys::JSON::stringify(&record).ok().and_then(|text| text.as_string());
        let id = field("id").unwrap_or_default();
        texts.push(
            text.ok_or_else(|| MemoryError::Storage(format!("history record \"{id}\" is not JSON ({CONTEXT})")))?,
        );
    }
    let records = format!("[{}]", texts.join(","));
    batch_record(memory_ids.iter().map(String::as_str), records)
}
