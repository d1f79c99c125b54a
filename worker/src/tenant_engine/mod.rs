//! A tenant's memory engine: the warm one of the tenant's object when this isolate holds it (`warm`), else
//! a fresh one over the tenant's slice of Workers KV, built for the request.

pub mod warm;

use std::rc::Rc;

use memwasm::core::model_traits::Embedder as _;
use memwasm::platform::compose::parts;
use wasm_bindgen::JsValue;
use worker::Env;

pub use self::warm::{Built, Shared};
use crate::auth;
use crate::error::ApiError;
use crate::settings::{self, Backend};

/// The engine of `tenant` (its memories loaded scope by scope as requests need them, each scope's graph
/// with it), and the vector length its embedder promises, when configured.
pub fn engine(env: &Env, tenant: &str) -> Result<(Shared, Option<usize>), ApiError> {
    let (engine, dimensions, _) = engine_with_background(env, tenant)?;
    Ok((engine, dimensions))
}

/// `engine`, with the background writer's settings of the config (its retries).
pub fn engine_with_background(env: &Env, tenant: &str) -> Result<Built, ApiError> {
    if let Some(built) = warm::engine(tenant, |storage| build(env, tenant, storage))? {
        return Ok(built);
    }
    if settings::backend(env)? == Backend::Objects {
        let why = "STORAGE is \"do\": the tenant's engine lives in its object, and this request did not reach it";
        return Err(ApiError::new(503, "OBJECT_UNAVAILABLE", why));
    }
    build(env, tenant, settings::binding(env, settings::KV_BINDING)?)
}

/// An engine over `storage` (a KV binding, or an object's storage dressed as one) under the tenant's prefix.
fn build(env: &Env, tenant: &str, storage: JsValue) -> Result<Built, ApiError> {
    memwasm::platform::use_host_unicode();
    let config = settings::resolved_config(env, &auth::tenant_prefix(tenant))?;
    let live = settings::live_values(env, &config, storage)?;
    let parts = parts(&config, &live)?;
    let dimensions = parts.embedder.dimensions();
    Ok((Rc::new(parts.engine(&config)), dimensions, config.engine.background))
}
