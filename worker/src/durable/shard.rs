//! Scope sharding (`DO_SHARDS = "scope"`): each user of a tenant has an object of their own, so a tenant is
//! no longer bounded by one object's memory. Each route declares what it needs (`crate::shard_need`): the
//! front end sends a request that names a `user_id` where its route reads one straight to that user's
//! object; the tenant's own object keeps the directory of which user holds which memory id (`directory`)
//! and answers the rest (`tenant_routes`): by id, the whole tenant, and reads across users (`across`).

use memwasm::core::model::scope::checked_id;
use memwasm::core::model::scope_fields::ANY;
use worker::{Env, Request};

use crate::desk::body;
use crate::error::ApiError;
use crate::query::Query;
use crate::shard_need::Place;
use crate::sync_api::user;

pub use crate::tenant_engine::{slot_name as object_name, SHARD_HEADER};

/// The `user_id` a request names in `place`, as the engine files it (trimmed and checked by `checked_id`,
/// so every spelling of one user reaches the object that holds its scope; `INVALID_INPUT` for one the
/// engine refuses); `None` when it names none, or any user (`"__all__"`). A body is read once, as the desk
/// reads it (415 when not JSON, 413 past `MAX_BODY_BYTES`, never held whole), and `request` then carries
/// what was read.
pub async fn user_of(request: &mut Request, env: &Env, place: Place) -> Result<Option<String>, ApiError> {
    let named = match place {
        Place::Body => {
            let read = body::body(request, env).await?;
            *request = super::copy::request_like(request, request.method(), request.url()?.as_str(), &read)?;
            body::field(&read, "user_id").and_then(|user| user.as_str().map(str::to_owned))
        }
        Place::Query => Query::of(&request.url()?).get("user_id").map(str::to_owned),
    };
    let Some(named) = named.filter(|user| !user.trim().is_empty()) else { return Ok(None) };
    // "__all__" means any user: such a read spans users, as one naming none does (the tenant's object).
    let user = checked_id("user_id", &named)?;
    Ok((user != ANY).then_some(user))
}

/// The `userId` a sync push's JSON body names (`INVALID_JSON` when the body is not JSON), read once as the
/// desk reads it; `request` then carries what was read.
pub async fn sync_user_named(request: &mut Request, env: &Env) -> Result<Option<String>, ApiError> {
    let read = body::body(request, env).await?;
    *request = super::copy::request_like(request, request.method(), request.url()?.as_str(), &read)?;
    user::named_in(&user::object_of(&read)?)
}
