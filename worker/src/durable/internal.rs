//! The object's own routes, under `/__do/` (the front end never forwards these paths):
//!
//! - `POST /__do/cron` `{cron, max_scopes}`: the Cron Trigger's run for this tenant (see `scheduled`); under
//!   scope sharding the tenant's object passes it on to every user's object;
//! - `POST /__do/directory` `{user, put, drop}`: a user's object reports its memory writes (`directory`);
//! - with `DO_TEST_HOOKS = "true"` only (tests and benches): `GET storage/list?prefix=` and
//!   `GET storage/get?key=[&bytes]` (what is stored; `bytes`: a binary value, as numbers), `POST
//!   storage/put?key=[&bytes]` (the body stored there, as text or as a binary value),
//!   `GET memory` (`{wasmBytes}`: the isolate's wasm memory, for
//!   the bench), `GET status` (`{warm}`), `GET search-index` (`{warm, unindexed}`: the loaded texts the
//!   keyword index has yet to index, which the next search would), `GET scope-loads` (`{loads}`: how each
//!   scope the warm engine loaded was read, `image journal=N` or `full (why)`), `POST evict` (drop the warm
//!   engine now), `POST fail-next-flush` (the next commit's writes are dropped and it fails, as an object
//!   that dies before its writes are durable), and the vars `DO_TEST_DIRECTORY` (`directory::test_fault`)
//!   and `DO_TEST_IMAGE_WRITE` (`object_kv`'s `hold_images`).
//!   (`state.abort()` is not offered: in workerd it leaves the
//!   isolate's Rust futures executor stalled, so every later request of the isolate hangs.)

use serde::Deserialize;
use serde_json::json;
use wasm_bindgen::JsCast;
use worker::{ListOptions, Method, Request, Response};

use super::directory::{self, Changes};
use super::front::Target;
use super::TenantObject;
use crate::error::ApiError;
use crate::query::Query;
use crate::requests::parse;
use crate::settings::Shards;
use crate::tenant_engine::{slot_name, warm};
use crate::{scheduled, settings};

#[derive(Deserialize)]
struct CronBody {
    cron: String,
    max_scopes: Option<usize>,
}

fn json(value: serde_json::Value) -> Result<Response, ApiError> {
    Ok(Response::from_json(&value)?)
}

pub async fn serve(
    object: &TenantObject,
    request: &mut Request,
    target: &Target,
    rest: &str,
) -> Result<Response, ApiError> {
    let (tenant, user) = (target.tenant.as_str(), target.user.as_deref());
    let slot = slot_name(tenant, user);
    let method = request.method();
    if (&method, rest) == (&Method::Post, "cron") {
        let body: CronBody = parse(&request.bytes().await?)?;
        if user.is_none() && settings::shards(&object.env)? == Shards::Scope {
            directory::cron(object, tenant, &body.cron, body.max_scopes).await?;
        } else {
            scheduled::run_tenant(&object.env, &body.cron, tenant, user, body.max_scopes).await;
        }
        return json(json!({}));
    }
    if (&method, rest) == (&Method::Post, "directory") {
        let changes: Changes = parse(&request.bytes().await?)?;
        directory::test_fault(&object.env).await?;
        directory::record(object, changes).await?;
        return json(json!({}));
    }
    if !settings::flag(&object.env, "DO_TEST_HOOKS", false)? {
        return Err(ApiError::not_found(format!("route /__do/{rest}")));
    }
    let query = Query::of(&request.url()?);
    let param = |name: &str| query.get(name).unwrap_or_default().to_owned();
    match (method, rest) {
        (Method::Get, "storage/list") => {
            let prefix = param("prefix");
            let stored = object.state.storage().list_with_options(ListOptions::new().prefix(&prefix)).await?;
            let keys: Vec<String> = stored.keys().into_iter().filter_map(|key| key.ok()?.as_string()).collect();
            json(json!({ "keys": keys }))
        }
        (Method::Post, "storage/put") if query.get("bytes").is_some() => {
            let bytes = js_sys::Uint8Array::from(request.bytes().await?.as_slice());
            raw_storage(object, "put", &[param("key").into(), bytes.into()]).await?;
            json(json!({}))
        }
        (Method::Post, "storage/put") => {
            let value = request.text().await?;
            object.state.storage().put(&param("key"), value).await?;
            json(json!({}))
        }
        (Method::Get, "storage/get") if query.get("bytes").is_some() => {
            let value = raw_storage(object, "get", &[param("key").into()]).await?;
            let bytes = value.dyn_into::<js_sys::Uint8Array>().ok().map(|array| array.to_vec());
            json(json!({ "bytes": bytes }))
        }
        (Method::Get, "storage/get") => {
            let value: Option<String> = object.state.storage().get(&param("key")).await?;
            json(json!({ "value": value }))
        }
        (Method::Get, "memory") => {
            let memory: js_sys::WebAssembly::Memory =
                wasm_bindgen::memory().dyn_into().map_err(super::storage_error)?;
            let bytes = memory.buffer().dyn_into::<js_sys::ArrayBuffer>().map_err(super::storage_error)?.byte_length();
            json(json!({ "wasmBytes": bytes }))
        }
        (Method::Get, "status") => json(json!({ "warm": warm::is_warm(&slot) })),
        (Method::Get, "search-index") => {
            let unindexed = warm::built(&slot).map(|engine| engine.unindexed_keywords());
            json(json!({ "warm": unindexed.is_some(), "unindexed": unindexed }))
        }
        (Method::Get, "scope-loads") => {
            let loads = warm::built(&slot).map(|engine| engine.scope_loads()).unwrap_or_default();
            json(json!({ "loads": loads }))
        }
        (Method::Post, "evict") => json(json!({ "evicted": object.evict() })),
        (Method::Post, "fail-next-flush") => {
            let storage = warm::storage(&slot).ok_or_else(|| ApiError::not_found("the tenant's storage"))?;
            let arm = js_sys::Reflect::get(&storage, &"failNextFlush".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            arm.ok_or_else(|| ApiError::not_found("failNextFlush"))?.call0(&storage).map_err(super::storage_error)?;
            json(json!({ "armed": true }))
        }
        (_, rest) => Err(ApiError::not_found(format!("route /__do/{rest}"))),
    }
}

/// `storage[method](...args)` on the object's storage, awaited.
async fn raw_storage(
    object: &TenantObject,
    method: &str,
    args: &[wasm_bindgen::JsValue],
) -> Result<wasm_bindgen::JsValue, ApiError> {
    let storage = wasm_bindgen::JsValue::clone(object.state.storage().as_raw());
    let function: js_sys::Function =
        js_sys::Reflect::get(&storage, &method.into()).and_then(|f| f.dyn_into()).map_err(super::storage_error)?;
    let promise = function.apply(&storage, &args.iter().collect()).map_err(super::storage_error)?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&promise)).await.map_err(super::storage_error)
}
