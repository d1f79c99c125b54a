//! How IndexedDB work ends: waiting for a transaction to commit or abort, and turning browser errors
//! (`DOMException`s) into coded `MemoryError`s (`STORAGE_QUOTA`, `STORAGE_UNAVAILABLE`, `STORAGE`).
//!
//! Transactions (and raw requests) are awaited through a Promise whose `resolve`/`reject` are the
//! `complete`/`abort` (`success`/`error`) handlers themselves: no Rust closure outlives the call, however
//! many failing requests an abort reports. The awaiting code resumes in the microtasks that follow the
//! event, while the transaction is still active, so it may issue further requests in it.

use js_sys::Promise;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DomException, IdbRequest, IdbTransaction};

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

/// The result of `request` once it succeeds (a raw request: its result stays one JS value, e.g. a whole
/// `getAll` array), or its error, coded; `context` says what a failure means for the caller's data. The
/// handlers are attached at once (not when first polled), and a request already done is read as it is, so
/// requests issued together may be awaited in any order.
pub fn settled(
    request: std::result::Result<IdbRequest, JsValue>,
    context: &'static str,
) -> impl std::future::Future<Output = Result<JsValue>> {
    let waiting = request.map(|request| {
        let state = js_sys::Reflect::get(&request, &"readyState".into()).ok().and_then(|state| state.as_string());
        let done = (state.as_deref() != Some("done")).then(|| {
            JsFuture::from(Promise::new(&mut |resolve, reject| {
                request.set_onsuccess(Some(&resolve));
                request.set_onerror(Some(&reject));
            }))
        });
        (request, done)
    });
    async move {
        let (request, done) = waiting.map_err(|thrown| from_thrown(thrown, context))?;
        if let Some(done) = done {
            let _ = done.await;
            request.set_onsuccess(None);
            request.set_onerror(None);
        }
        match request.error() {
            Ok(None) => request.result().map_err(|thrown| from_thrown(thrown, context)),
            Ok(Some(reason)) => Err(from_dom(&reason, context)),
            Err(thrown) => Err(from_thrown(thrown, context)),
        }
    }
}

/// A coded error for what a browser call threw.
pub fn from_thrown(thrown: JsValue, context: &str) -> MemoryError {
    match thrown.dyn_into::<DomException>() {
        Ok(exception) => from_dom(&exception, context),
        Err(other) => MemoryError::Storage(format!("IndexedDB: {other:?} ({context})")),
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
