//! The warm engines of the tenants' objects living in this isolate, one slot per tenant. An object claims
//! its tenant's slot on every request (`enter`); the handlers, which ask for an engine by tenant
//! (`tenant_engine::engine`), get the slot's engine, built on first use over the object's storage and kept
//! until the object evicts it (`evict`, when idle). A slot claimed by another instance of the object (the runtime
//! replaced it) is dropped: its engine was over the old instance's storage.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use memwasm::core::tiers::BackgroundSettings;
use memwasm::platform::compose::Engine;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::ApiError;

/// An engine shared by the requests that use it (a Durable Object keeps one across requests).
pub type Shared = Rc<Engine>;
/// An engine, the vector length its embedder promises (when configured), and its background settings.
pub type Built = (Shared, Option<usize>, BackgroundSettings);

struct Slot {
    /// The object instance that holds the slot.
    owner: u64,
    /// Its storage, as a KV binding (`object_kv`).
    storage: JsValue,
    built: Option<Built>,
}

thread_local! {
    static SLOTS: RefCell<HashMap<String, Slot>> = RefCell::default();
}

/// Makes instance `owner` the holder of `tenant`'s slot; `storage` makes its KV binding when the slot is new.
pub fn enter(tenant: &str, owner: u64, storage: impl FnOnce() -> Result<JsValue, ApiError>) -> Result<(), ApiError> {
    if SLOTS.with_borrow(|slots| slots.get(tenant).is_some_and(|slot| slot.owner == owner)) {
        return Ok(());
    }
    let slot = Slot { owner, storage: storage()?, built: None };
    SLOTS.with_borrow_mut(|slots| slots.insert(tenant.to_owned(), slot));
    Ok(())
}

/// `tenant`'s warm engine, `build` over the object's storage on first use; `None` when no object holds
/// the tenant in this isolate (the caller is the stateless front end, or the KV backend).
pub fn engine(tenant: &str, build: impl FnOnce(JsValue) -> Result<Built, ApiError>) -> Result<Option<Built>, ApiError> {
    let (storage, built) =
        match SLOTS.with_borrow(|slots| slots.get(tenant).map(|s| (s.storage.clone(), s.built.clone()))) {
            None => return Ok(None),
            Some(found) => found,
        };
    if let Some(built) = built {
        return Ok(Some(built));
    }
    let built = build(storage)?;
    SLOTS.with_borrow_mut(|slots| {
        if let Some(slot) = slots.get_mut(tenant) {
            slot.built.get_or_insert_with(|| built.clone());
        }
    });
    Ok(Some(built))
}

/// Drops `tenant`'s engine if instance `owner` holds it; true when there was one.
pub fn evict(tenant: &str, owner: u64) -> bool {
    SLOTS.with_borrow_mut(|slots| match slots.get_mut(tenant) {
        Some(slot) if slot.owner == owner => slot.built.take().is_some(),
        _ => false,
    })
}

/// `tenant`'s engine when it is built (never builds one).
pub fn built(tenant: &str) -> Option<Shared> {
    SLOTS.with_borrow(|slots| slots.get(tenant)?.built.as_ref().map(|(engine, ..)| engine.clone()))
}

/// True while `tenant`'s engine is built.
pub fn is_warm(tenant: &str) -> bool {
    SLOTS.with_borrow(|slots| slots.get(tenant).is_some_and(|slot| slot.built.is_some()))
}

/// The storage (as a KV binding) of `tenant`'s object, when one holds the tenant in this isolate.
pub fn storage(tenant: &str) -> Option<JsValue> {
    SLOTS.with_borrow(|slots| slots.get(tenant).map(|slot| slot.storage.clone()))
}

/// True when a flush of `slot`'s storage wrote reports for the tenant's directory since the last call (a
/// user's object under scope sharding; other storage never does).
pub async fn take_reported(slot: &str) -> bool {
    let Some(storage) = storage(slot) else { return false };
    let take =
        js_sys::Reflect::get(&storage, &"takeReported".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(promise) = take.and_then(|take| take.call0(&storage).ok()?.dyn_into::<js_sys::Promise>().ok()) else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.ok().and_then(|taken| taken.as_bool()).unwrap_or(false)
}
