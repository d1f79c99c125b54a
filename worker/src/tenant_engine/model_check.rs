//! The embedding model a tenant's vectors come from, recorded beside them (`memwasm::core::engine::
//! embedding_model`), checked after each request the desk answers: a tenant with nothing recorded gets the
//! configured model recorded (the model of its first writes); one recorded by another model gets
//! `EMBEDDING_MODEL_CHANGED` on every answer (`mark`: a `warnings` entry and the `x-memwasm-warning` header),
//! naming both models and the fix, logged once per isolate, until `POST /v1/reembed/` re-embeds the tenant.
//! A tenant found to agree is not checked again by this isolate (its vars do not change under it); one that
//! does not is checked on every request, so a re-embed made by any isolate ends the warning.

use std::cell::RefCell;
use std::collections::HashSet;

use memwasm::core::model::types::AddWarning;
use serde_json::Value;
use worker::{Env, Response};

use super::slot_name;
use crate::error::ApiError;

/// The response header carrying the warning (`EMBEDDING_MODEL_CHANGED: <message>`, ASCII).
pub const HEADER: &str = "x-memwasm-warning";

thread_local! {
    /// The slots (`slot_name`) whose recorded model is the configured one.
    static AGREE: RefCell<HashSet<String>> = RefCell::default();
    /// The slots whose warning this isolate has logged.
    static LOGGED: RefCell<HashSet<String>> = RefCell::default();
}

/// The warning of `tenant` (or of its `user`'s object under scope sharding), `None` when its vectors come
/// from the configured model (recorded now when nothing was).
pub async fn check(env: &Env, tenant: &str, user: Option<&str>) -> Result<Option<AddWarning>, ApiError> {
    let slot = slot_name(tenant, user);
    if AGREE.with_borrow(|agree| agree.contains(&slot)) {
        return Ok(None);
    }
    let (engine, _) = super::engine(env, tenant, user)?;
    let Some(mut warning) = engine.check_embedding_model(false).await? else {
        AGREE.with_borrow_mut(|agree| agree.insert(slot));
        return Ok(None);
    };
    warning.message = in_service_words(&warning.message);
    if LOGGED.with_borrow_mut(|logged| logged.insert(slot)) {
        worker::console_warn!("memwasm: tenant {tenant:?}: {}: {}", warning.code.as_str(), warning.message);
    }
    Ok(Some(warning))
}

/// The library's fix (`memory.reembed()`, configuring the old model) as the service's route and vars.
fn in_service_words(message: &str) -> String {
    message
        .replace("Call memory.reembed()", "Call POST /v1/reembed/ (a tenant-wide token)")
        .replace(", or configure ", ", or set EMBEDDER_PROVIDER, EMBEDDER_MODEL and EMBEDDER_DIMENSIONS to ")
}

/// `response` with the warning of `tenant`'s engine (`shard`'s, under scope sharding), when its model changed:
/// the header always, and a `warnings` entry when `in_body` and the body is a JSON object. A failed check is
/// logged, never the request's failure (the request's own work is done).
pub async fn mark(
    response: Response,
    env: &Env,
    tenant: &str,
    shard: Option<&str>,
    in_body: bool,
) -> Result<Response, ApiError> {
    let warning = match check(env, tenant, shard).await {
        Ok(Some(warning)) => warning,
        Ok(None) => return Ok(response),
        Err(error) => {
            worker::console_error!("memwasm: the embedding model check failed: {}: {}", error.code, error.message);
            return Ok(response);
        }
    };
    let (status, headers) = (response.status_code(), response.headers().clone());
    let header = format!("{}: {}", warning.code.as_str(), warning.message);
    headers.set(HEADER, &header.chars().map(|c| if c.is_ascii_graphic() { c } else { ' ' }).collect::<String>())?;
    let json = headers.get("content-type")?.is_some_and(|kind| kind.starts_with("application/json"));
    let mut response = response;
    let mut bytes = response.bytes().await?;
    if in_body && json {
        bytes = with_warning(bytes, &warning);
    }
    Ok(Response::from_bytes(bytes)?.with_status(status).with_headers(headers))
}

/// A JSON object body with `warning` added to its `warnings` (made when missing); any other body as it is.
fn with_warning(bytes: Vec<u8>, warning: &AddWarning) -> Vec<u8> {
    let Ok(Value::Object(mut body)) = serde_json::from_slice::<Value>(&bytes) else { return bytes };
    let Value::Array(warnings) = body.entry("warnings").or_insert_with(|| Value::Array(Vec::new())) else {
        return bytes;
    };
    warnings.push(serde_json::to_value(warning).unwrap_or_default());
    serde_json::to_vec(&body).unwrap_or(bytes)
}
