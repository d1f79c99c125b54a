//! The MCP server at `/mcp`: the Streamable HTTP transport of MCP revision 2026-07-28 (`modern`: no
//! handshake, every request carrying its revision in `_meta`) and of the handshake revisions 2025-11-25,
//! 2025-06-18 and 2025-03-26, stateless. Every `POST` carries JSON-RPC messages and gets one
//! `application/json` answer (202 with no body when it held only notifications); `GET` is 405, as there is
//! no server-sent stream, and no `Mcp-Session-Id` is issued. The desk authenticates first, with the REST
//! routes' bearer tokens: a missing or unknown token is an HTTP 401, a reader's token a 403; a user's token
//! reaches its user only (`access`). A browser page's `Origin` must be allowed (`origin`), else 403.
//!
//! Methods: `initialize`, `ping`, `tools/list`, `tools/call` (`tools`), and the notifications (ignored);
//! `server/discover`, `tools/list` and `tools/call` under 2026-07-28. A failing tool is a result with
//! `isError: true` carrying `{"error": {"code", "message"}}`; protocol errors are JSON-RPC errors with our
//! code in `data.code`. Batches run where the revision has them (`batch`), and every request's tool calls
//! share one budget of model calls (`budget`). JSON nested past what serde_json reads is cut (`nesting`), so
//! arguments nested too deep get the tool error stdio gives.

mod access;
mod batch;
mod budget;
mod check;
mod context;
mod graph_tools;
mod graph_writes;
mod headers;
mod memory_tools;
mod modern;
mod nesting;
mod origin;
mod rpc;
mod tools;

use serde_json::{json, Value};
use worker::{Method, Response};

use self::access::Access;
use self::budget::Budget;
use self::rpc::{Incoming, RpcError};
use crate::error::ApiError;
use crate::visit::Visit;

/// The handshake revisions, newest first; an `initialize` asking for another gets the newest.
const LEGACY: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/// Every revision served, newest first.
const SERVED: [&str; 4] = [modern::CURRENT, LEGACY[0], LEGACY[1], LEGACY[2]];

/// True for the path of the MCP endpoint.
pub fn is_family(path: &str) -> bool {
    path == "/mcp" || path == "/mcp/"
}

/// Answers a request to `/mcp` (admitted and read by the desk).
pub async fn handle(visit: &Visit<'_>) -> Result<Response, ApiError> {
    if let Some(refused) = origin::refusal(visit) {
        return json(403, &refused.to_anonymous_response());
    }
    if visit.method != Method::Post {
        // No body: the SDK client leaves the answer to its GET unread.
        let response = Response::empty()?.with_status(405);
        response.headers().set("allow", "POST")?;
        return Ok(response);
    }
    let asked = visit.headers.get("mcp-protocol-version")?;
    let asked = asked.as_deref().map(str::trim);
    let message: Value = match serde_json::from_slice(&nesting::flatten(&visit.body)) {
        Ok(message) => message,
        Err(error) => {
            let error = RpcError::new(rpc::PARSE_ERROR, "INVALID_JSON", format!("malformed JSON: {error}"));
            return json(400, &error.to_response(&Value::Null));
        }
    };
    if let Some(asked) = asked.filter(|asked| !SERVED.contains(asked)) {
        let id = message.get("id").filter(|id| id.is_string() || id.is_number()).unwrap_or(&Value::Null);
        return json(400, &modern::unsupported(asked, &SERVED).to_response(id));
    }
    let budget = Budget::new();
    match message {
        Value::Array(batch) if batch.is_empty() => {
            let error = RpcError::new(rpc::INVALID_REQUEST, "INVALID_REQUEST", "an empty batch");
            json(400, &error.to_response(&Value::Null))
        }
        Value::Array(batch) => {
            if let Some(refused) = batch::refusal(batch.len(), batch::revision(asked)) {
                return json(400, &refused.to_response(&Value::Null));
            }
            let mut answers = Vec::new();
            for message in &batch {
                answers.extend(answer(visit, message, &budget).await);
            }
            if answers.is_empty() {
                return accepted();
            }
            json(200, &Value::Array(answers))
        }
        message if asked == Some(modern::CURRENT) || modern::is_modern(&message) => {
            match modern::answer(visit, &message, &SERVED, &budget).await {
                (status, Some(answer)) => json(status, &answer),
                (_, None) => accepted(),
            }
        }
        message => match answer(visit, &message, &budget).await {
            Some(answer) => json(200, &answer),
            None => accepted(),
        },
    }
}

/// The answer to one message, its tool calls taken from `budget`; `None` for a notification or a response.
async fn answer(visit: &Visit<'_>, message: &Value, budget: &Budget) -> Option<Value> {
    let (id, method, params) = match rpc::sort(message) {
        Ok(Incoming::Request { id, method, params }) => (id, method, params),
        Ok(Incoming::NoAnswer) => return None,
        Err((id, error)) => return Some(error.to_response(&id)),
    };
    Some(match request(visit, method, params, budget).await {
        Ok(result) => rpc::result(id, result),
        Err(error) => error.to_response(id),
    })
}

async fn request(visit: &Visit<'_>, method: &str, params: &Value, budget: &Budget) -> Result<Value, RpcError> {
    match method {
        "initialize" => Ok(initialize(params, &Access::of(visit))),
        "ping" => Ok(json!({})),
        "tools/list" => Ok(tools::list(visit)),
        "tools/call" => tools::call(visit, params, budget).await,
        _ => Err(RpcError::new(rpc::METHOD_NOT_FOUND, "NOT_FOUND", format!("Method not found: {method}"))),
    }
}

fn initialize(params: &Value, access: &Access) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let revision = asked.filter(|asked| LEGACY.contains(asked)).unwrap_or(LEGACY[0]);
    json!({
        "protocolVersion": revision,
        "capabilities": { "tools": { "listChanged": false } },
        "serverInfo": modern::server_info(),
        "instructions": instructions(access),
    })
}

/// What the server tells the model about itself and the user its calls act as.
fn instructions(access: &Access) -> String {
    let scope = match access {
        Access::Tenant { default_user } => {
            format!("Calls without user_id, agent_id or run_id use the user {default_user:?}.")
        }
        Access::User(user) => format!(
            "Every call acts as the user {user:?} (this token's user): calls without user_id use it, and naming \
             another user is refused."
        ),
    };
    format!(
        "Long-term memory. search_memories before answering questions about the user; add_memory for facts and \
         preferences worth keeping. {scope}"
    )
}

fn json(status: u16, body: &Value) -> Result<Response, ApiError> {
    Ok(Response::from_json(body)?.with_status(status))
}

/// 202 with no body: notifications and responses only.
fn accepted() -> Result<Response, ApiError> {
    Ok(Response::empty()?.with_status(202))
}
