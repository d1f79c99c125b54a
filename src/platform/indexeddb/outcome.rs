//! How IndexedDB work ends: waiting for a transaction to commit or abort, and turning browser errors
//! (`DOMException`s) into coded `MemoryError`s (`STORAGE_QUOTA`, `STORAGE_UNAVAILABLE`, `STORAGE`).
//!
//! Transactions are awaited through a Promise whose `resolve`/`reject` are the `complete`/`abort` handlers
//! themselves: no Rust closure outlives the call, however many failing requests an abort reports.

use js_sys::Promise;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DomException, IdbTransaction};

use crate::core::error::{MemoryError, Result};

/// Waits until `transaction` commits (`Ok`) or aborts (the reason, coded).
pub async fn committed(transaction: &IdbTransaction) -> Result<()> {
    let done = Promise::new(&mut |resolve, reject| {
        transaction.set_oncomplete(Some(&resolve));
        transaction.set_onabort(Some(&reject));
    });
    let outcome = JsFuture::from(done).await;
    transaction.set_oncomplete(None);
    transaction.set_onabort(None);
    match outcome {
        Ok(_) => Ok(()),
        Err(_) => Err(match transaction.error() {
            Some(reason) => from_dom(&reason, "the write was rolled back"),
            None => MemoryError::Storage("the write was aborted and rolled back".into()),
        }),
    }
}

/// Aborts `transaction` after a request could not even be issued; nothing it wrote is kept.
pub fn abandon(transaction: &IdbTransaction, error: &idb::Error) -> MemoryError {
    let _ = transaction.abort();
    from_idb(error, "the write was rolled back")
}

/// A coded error for a `DOMException`; `context` says what it means for the caller's data.
pub fn from_dom(exception: &DomException, context: &str) -> MemoryError {
    let detail = format!("{}: {} ({context})", exception.name(), exception.message());
    match exception.name().as_str() {
        "QuotaExceededError" => MemoryError::StorageQuota(detail),
        "InvalidStateError" | "SecurityError" | "NotAllowedError" | "UnknownError" => {
            MemoryError::StorageUnavailable(detail)
        }
        _ => MemoryError::Storage(detail),
    }
}

/// A coded error for whatever the `idb` crate reports.
pub fn from_idb(error: &idb::Error, context: &str) -> MemoryError {
    let exception = match error {
        idb::Error::DomException(exception) => Some(exception.clone()),
        other => thrown(other).and_then(|value| value.dyn_into::<DomException>().ok()),
    };
    match exception {
        Some(exception) => from_dom(&exception, context),
        None => MemoryError::Storage(format!("IndexedDB: {error} ({context})")),
    }
}

/// The JS value an `idb` error wraps, when it wraps one (most wrap what the browser threw).
fn thrown(error: &idb::Error) -> Option<JsValue> {
    use idb::Error::*;
    match error {
        AddFailed(v)
        | ClearFailed(v)
        | DeleteFailed(v)
        | GetFailed(v)
        | GetAllFailed(v)
        | GetAllKeysFailed(v)
        | IndexedDbOpenFailed(v)
        | IndexedDbDeleteFailed(v)
        | TransactionOpenFailed(v)
        | UpdateFailed(v)
        | IndexNotFound(v)
        | ObjectStoreNotFound(v) => Some(v.clone()),
        _ => None,
    }
}
