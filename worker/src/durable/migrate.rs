//! `POST /v1/storage/migrate[?cursor=…]` (tenant-wide token, `STORAGE = "do"`): copies the tenant's keys
//! from Workers KV (`t/<tenant>/…` of `MEMORY_KV`) into its object, one KV list page (1,000 keys) per call,
//! unchanged (the object stores the same layout). Answers `{copied, cursor, done}`: call again with `cursor`
//! until `done`. Copying overwrites, so a repeated or interrupted migration converges; the warm engine is
//! dropped after each page, so the next request reads what was copied.

use js_sys::{Array, Function, Object, Promise, Reflect};
use memwasm::core::kv::{KvBackend, BULK_READ_KEYS};
use memwasm::platform::JsKv;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use worker::{Method, Request, Response};

use super::{storage_error, TenantObject};
use crate::desk::{admit_in, Family};
use crate::error::ApiError;
use crate::query::Query;
use crate::{auth, settings};

/// Keys per storage `put`.
const PUT_KEYS: usize = 128;

/// Answers `request`, of `family` (the migration's).
pub async fn serve(
    object: &TenantObject,
    request: &mut Request,
    tenant: &str,
    family: &Family,
) -> Result<Response, ApiError> {
    admit_in(request, &object.env, family, tenant)?;
    if request.method() != Method::Post {
        return Err(ApiError::new(405, "METHOD_NOT_ALLOWED", format!("{} takes POST", request.path())));
    }
    let query = Query::of(&request.url()?);
    let kv = JsKv::new(&settings::binding(&object.env, settings::KV_BINDING)?)?;
    let page = kv.list(&auth::tenant_prefix(tenant), query.get("cursor")).await?;
    let mut copied = 0;
    let storage = wasm_bindgen::JsValue::clone(object.state.storage().as_raw());
    let put: Function = Reflect::get(&storage, &"put".into()).and_then(|f| f.dyn_into()).map_err(storage_error)?;
    let mut calls = Vec::new();
    for keys in page.keys.chunks(BULK_READ_KEYS.min(PUT_KEYS)) {
        let values = kv.get_many(keys).await?;
        let entries = Object::new();
        for (key, value) in keys.iter().zip(values) {
            if let Some(value) = value {
                Reflect::set(&entries, &key.as_str().into(), &value.into()).map_err(storage_error)?;
                copied += 1;
            }
        }
        calls.push(put.call1(&storage, &entries).map_err(storage_error)?);
    }
    JsFuture::from(Promise::all(&calls.into_iter().collect::<Array>())).await.map_err(storage_error)?;
    drop_images(object, tenant).await?;
    object.evict();
    let done = page.cursor.is_none();
    Ok(Response::from_json(&json!({ "copied": copied, "cursor": page.cursor, "done": done }))?)
}

/// Deletes the tenant's open image heads: the copied memories bypassed their journals, so each scope reads
/// every memory on its next open (and writes a fresh image).
async fn drop_images(object: &TenantObject, tenant: &str) -> Result<(), ApiError> {
    let prefix = format!("{}imgh/", auth::tenant_prefix(tenant));
    let storage = object.state.storage();
    let heads = storage.list_with_options(worker::ListOptions::new().prefix(&prefix)).await?;
    let keys: Vec<String> = heads.keys().into_iter().filter_map(|key| key.ok()?.as_string()).collect();
    for chunk in keys.chunks(PUT_KEYS) {
        storage.delete_multiple(chunk.to_vec()).await?;
    }
    Ok(())
}
