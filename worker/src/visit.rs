//! What the front desk (`desk`) hands a route family: the caller it authenticated, the request's method,
//! path, query string and body as it read them, and the way to the tenant's engine.

use worker::{Env, Headers, Method, Url};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::later::Later;
use crate::query::Query;
use crate::tenant_engine::{self, Built, Shared};

/// One authenticated request, read.
pub struct Visit<'a> {
    pub env: &'a Env,
    pub caller: Caller,
    pub method: Method,
    pub path: String,
    pub url: Url,
    pub query: Query,
    pub headers: Headers,
    /// The body (empty for a family that reads none for this method).
    pub body: Vec<u8>,
    /// Where work that outlives the answer runs.
    pub later: &'a Later<'a>,
    /// The user whose object serves the request under scope sharding (`None`: the tenant's).
    pub shard: Option<String>,
}

impl Visit<'_> {
    /// The tenant's engine and the vector length its embedder promises, when configured.
    pub fn engine(&self) -> Result<(Shared, Option<usize>), ApiError> {
        tenant_engine::engine(self.env, &self.caller.tenant, self.shard.as_deref())
    }

    /// `engine`, with the background writer's settings.
    pub fn engine_with_background(&self) -> Result<Built, ApiError> {
        tenant_engine::engine_with_background(self.env, &self.caller.tenant, self.shard.as_deref())
    }
}
