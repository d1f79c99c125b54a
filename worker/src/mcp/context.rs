//! What every tool shares: the call's context (the tenant's engine, what the token may reach), its
//! arguments, the coded failure, and results as JSON.

use serde::Serialize;
use serde_json::{Map, Value};

use super::access::Access;
use crate::error::ApiError;
use crate::tenant_engine::Shared;

/// What a tool runs against: the tenant's engine, and what the token may reach.
pub struct Ctx {
    pub engine: Shared,
    pub access: Access,
}

impl Ctx {
    /// True when graph memory is on (`GRAPH_ENABLED = "true"`).
    pub fn graph(&self) -> bool {
        self.engine.graph().graph_enabled()
    }
}

/// The arguments of a call, as an object.
pub type Args = Map<String, Value>;

/// A tool's failure, with our code.
pub fn tool_error(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(400, code, message)
}

/// `value` as JSON, scopes with mem0's snake_case ids beside the camelCase ones (as the Node server has them).
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, ApiError> {
    memwasm::core::model::scope::with_mem0_names(|| serde_json::to_value(value))
        .map_err(|error| ApiError::new(500, "INTERNAL", format!("cannot convert the result: {error}")))
}
