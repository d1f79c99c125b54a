//! `GET /__routes` with `DO_TEST_HOOKS = "true"` (tests only): every route of every family, by the
//! family's own list (`listed!`), with what scope sharding needs of it, so a test can call each one.

use serde_json::{json, Value};
use worker::{Env, Method, Request, Response};

use crate::conversations_api::route::Route as ConversationsRoute;
use crate::error::ApiError;
use crate::mem0_api::route::Mem0Route;
use crate::memory_api::route::MemoryRoute;
use crate::settings;
use crate::shard_need::ShardNeed;
use crate::sync_api::route::SyncRoute;
use crate::tiers_api::route::TiersRoute;
use crate::v1::route::V1Route;

/// The listing's path.
const PATH: &str = "/__routes";

/// The listing, when `request` asks for it and the test hooks are on; `None` otherwise.
pub fn answer(request: &Request, env: &Env) -> Result<Option<Response>, ApiError> {
    if request.method() != Method::Get || request.path() != PATH || !settings::flag(env, "DO_TEST_HOOKS", false)? {
        return Ok(None);
    }
    let unsharded = ShardNeed::Unsharded.name();
    let entry = |family: &str, route: &str, shard: &str| json!({ "family": family, "route": route, "shard": shard });
    let mut routes: Vec<Value> = V1Route::ALL.iter().map(|r| entry("v1", r.name(), r.shard_need().name())).collect();
    routes.extend(TiersRoute::ALL.iter().map(|r| entry("tiers", r.name(), unsharded)));
    routes.extend(Mem0Route::ALL.iter().map(|r| entry("mem0", r.name(), unsharded)));
    routes.extend(ConversationsRoute::ALL.iter().map(|r| entry("conversations", r.name(), unsharded)));
    routes.extend(MemoryRoute::ALL.iter().map(|r| entry("memory", r.name(), unsharded)));
    routes.push(entry("mcp", "Rpc", unsharded));
    // Each user's sync log is in that user's object under scope sharding.
    routes.extend(SyncRoute::ALL.iter().map(|r| entry("sync", r.name(), "sync-user")));
    Ok(Some(Response::from_json(&json!({ "routes": routes }))?))
}
