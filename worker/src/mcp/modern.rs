//! MCP revision 2026-07-28 on `/mcp`: no handshake; every request names its revision and the client's
//! capabilities in `params._meta` and mirrors its revision, method and tool name in headers (`headers`).
//! Methods: `server/discover`, `tools/list`, `tools/call`. Every result carries `resultType` and the server's
//! identity in `_meta`. Refusals are coded as the revision has them, with their HTTP status: a revision not
//! served -32022 (400), headers that disagree -32020 (400), a missing `_meta` field -32602 (400), an unknown
//! method -32601 (404).

use serde_json::{json, Value};

use super::budget::Budget;
use super::rpc::{self, RpcError};
use super::{headers, tools, Access};
use crate::visit::Visit;

/// The current revision.
pub const CURRENT: &str = "2026-07-28";

const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// How long a client may keep a `tools/list` or `server/discover` answer (the tools change with a deploy).
const TTL_MS: u64 = 300_000;

/// True for a message of this revision: one that names a revision in `_meta`, or `server/discover`.
pub fn is_modern(message: &Value) -> bool {
    message.get("method").and_then(Value::as_str) == Some("server/discover")
        || message.pointer("/params/_meta").and_then(|meta| meta.get(VERSION_KEY)).is_some()
}

/// The refusal of a request naming revision `asked`, which this server does not serve.
pub fn unsupported(asked: &str, served: &[&str]) -> RpcError {
    let data = json!({ "supported": served, "requested": asked });
    RpcError::new(rpc::UNSUPPORTED_PROTOCOL_VERSION, "UNSUPPORTED_PROTOCOL_VERSION", "Unsupported protocol version")
        .with_data(data)
}

/// The HTTP status and answer (`None`: none, a notification) to a 2026-07-28 `message`.
pub async fn answer(visit: &Visit<'_>, message: &Value, served: &[&str], budget: &Budget) -> (u16, Option<Value>) {
    let (id, method, params) = match rpc::sort(message) {
        Ok(rpc::Incoming::Request { id, method, params }) => (id, method, params),
        Ok(rpc::Incoming::NoAnswer) => return (202, None),
        Err((id, error)) => return (400, Some(error.to_response(&id))),
    };
    match served_request(visit, method, params, served, budget).await {
        Ok(mut result) => {
            result["resultType"] = json!("complete");
            result["_meta"] = json!({ SERVER_INFO_KEY: server_info() });
            (200, Some(rpc::result(id, result)))
        }
        Err(error) => (status_of(&error), Some(error.to_response(id))),
    }
}

async fn served_request(
    visit: &Visit<'_>,
    method: &str,
    params: &Value,
    served: &[&str],
    budget: &Budget,
) -> Result<Value, RpcError> {
    let meta = params.get("_meta");
    let Some(version) = meta.and_then(|meta| meta.get(VERSION_KEY)).and_then(Value::as_str) else {
        return Err(missing(VERSION_KEY, "a string such as \"2026-07-28\""));
    };
    if version != CURRENT {
        return Err(unsupported(version, served));
    }
    let name = (method == "tools/call").then(|| params.get("name").and_then(Value::as_str).unwrap_or_default());
    if let Some(mismatch) = headers::mismatch(&visit.headers, version, method, name) {
        return Err(mismatch);
    }
    if !meta.and_then(|meta| meta.get(CAPABILITIES_KEY)).is_some_and(Value::is_object) {
        return Err(missing(CAPABILITIES_KEY, "an object, {} when the client has none"));
    }
    let cached = |mut result: Value| {
        result["ttlMs"] = json!(TTL_MS);
        result["cacheScope"] = json!("private");
        result
    };
    match method {
        "server/discover" => Ok(cached(json!({
            "supportedVersions": served,
            "capabilities": { "tools": {} },
            "instructions": super::instructions(&Access::of(visit)),
        }))),
        "tools/list" => Ok(cached(tools::list(visit))),
        "tools/call" => tools::call(visit, params, budget).await,
        _ => Err(RpcError::new(rpc::METHOD_NOT_FOUND, "NOT_FOUND", format!("Method not found: {method}"))),
    }
}

fn missing(key: &str, what: &str) -> RpcError {
    let why = format!("every MCP {CURRENT} request needs params._meta[{key:?}], {what}");
    RpcError::new(rpc::INVALID_PARAMS, "INVALID_REQUEST", why)
}

/// The HTTP status MCP 2026-07-28 gives a refusal.
fn status_of(error: &RpcError) -> u16 {
    match error.code {
        rpc::METHOD_NOT_FOUND => 404,
        rpc::UNSUPPORTED_PROTOCOL_VERSION | rpc::HEADER_MISMATCH => 400,
        rpc::INVALID_PARAMS if error.data_code == "INVALID_REQUEST" => 400,
        _ => 200,
    }
}

/// The server's name and version, as MCP's `Implementation`.
pub fn server_info() -> Value {
    json!({ "name": "memwasm", "title": "memwasm memory", "version": env!("CARGO_PKG_VERSION") })
}
