//! A tenant's memory engine: the warm one of the tenant's object when this isolate holds it (`warm`), else
//! a fresh one over the tenant's slice of Workers KV, built for the request and joined to the engines the
//! isolate's other requests of the tenant hold (`kv_peers`); the embedding model its vectors come from is
//! checked after each request (`model_check`).

mod kv_peers;
pub mod model_check;
pub mod warm;

use std::rc::Rc;

use memwasm::core::engine::peers::Peers;
use memwasm::core::model_traits::Embedder as _;
use memwasm::platform::compose::parts;
use wasm_bindgen::JsValue;
use worker::Env;

pub use self::warm::{Built, Shared};
use crate::auth;
use crate::error::ApiError;
use crate::settings::{self, Backend};

/// The header naming the user whose object a request is for under scope sharding (set or removed by the
/// front end, never taken from the client).
pub const SHARD_HEADER: &str = "x-memwasm-shard";

/// The name of the engine (and object) that holds `user`'s memories in `tenant` under scope sharding, or
/// the whole tenant's (`user` is `None`).
pub fn slot_name(tenant: &str, user: Option<&str>) -> String {
    match user {
        None => tenant.to_owned(),
        // Length-prefixed and NUL-separated: no tenant name or pair of names gives the same string.
        Some(user) => format!("\0{}\0{tenant}\0{user}", tenant.len()),
    }
}

/// The engine of `tenant` (its memories loaded scope by scope as requests need them, each scope's graph
/// with it), or of one `user` of it under scope sharding, and the vector length its embedder promises,
/// when configured.
pub fn engine(env: &Env, tenant: &str, user: Option<&str>) -> Result<(Shared, Option<usize>), ApiError> {
    let (engine, dimensions, _) = engine_with_background(env, tenant, user)?;
    Ok((engine, dimensions))
}

/// `engine`, with the background writer's settings of the config (its retries).
pub fn engine_with_background(env: &Env, tenant: &str, user: Option<&str>) -> Result<Built, ApiError> {
    if let Some(built) = warm::engine(&slot_name(tenant, user), |storage| build(env, tenant, storage, None))? {
        return Ok(built);
    }
    if settings::backend(env)? == Backend::Objects {
        let why = "STORAGE is \"do\": the tenant's engine lives in its object, and this request did not reach it";
        return Err(ApiError::new(503, "OBJECT_UNAVAILABLE", why));
    }
    build(env, tenant, settings::binding(env, settings::KV_BINDING)?, Some(kv_peers::of(tenant)))
}

/// An engine over `storage` (a KV binding, or an object's storage dressed as one) under the tenant's prefix,
/// joined to `peers` when given.
fn build(env: &Env, tenant: &str, storage: JsValue, peers: Option<Rc<Peers>>) -> Result<Built, ApiError> {
    memwasm::platform::use_host_unicode();
    let config = settings::resolved_config(env, &auth::tenant_prefix(tenant))?;
    let live = settings::live_values(env, &config, storage)?;
    let parts = parts(&config, &live)?;
    let dimensions = parts.embedder.dimensions();
    let engine = parts.engine(&config);
    let engine = match peers {
        Some(peers) => engine.joined(&peers),
        None => Rc::new(engine),
    };
    Ok((engine, dimensions, config.engine.background))
}
