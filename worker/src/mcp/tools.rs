//! The tools: the same definitions as the Node MCP server (`pkg/mcp/tools.json`, embedded), each call's
//! arguments checked for depth and against its `inputSchema`, and its model calls against the request's
//! budget, run against the tenant's engine as far as the token reaches (`access`), and answered as a
//! `CallToolResult`: the JSON result as text and as `structuredContent` (the tool's `outputSchema` describes
//! it), or `isError: true` with `{"error": {"code", "message"}}`.

use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use super::access::Access;
use super::budget::Budget;
use super::context::{tool_error, Args, Ctx};
use super::rpc::{self, RpcError};
use super::{check, graph_tools, graph_writes, memory_tools};
use crate::error::ApiError;
use crate::visit::Visit;

/// The tool definitions, shared with the Node MCP server.
const TOOLS_JSON: &str = include_str!("../../../pkg/mcp/tools.json");

/// The tool definitions: name, title, description, inputSchema, outputSchema, annotations.
pub fn definitions() -> &'static [Value] {
    static TOOLS: OnceLock<Vec<Value>> = OnceLock::new();
    TOOLS.get_or_init(|| serde_json::from_str(TOOLS_JSON).unwrap_or_default())
}

/// `tools/list`: the tool definitions, without the graph-only ones when graph memory is off.
pub fn list(visit: &Visit<'_>) -> Value {
    let graph = graph_on(visit);
    let listed = definitions().iter().filter(|tool| graph || !is_graph_only(tool["name"].as_str().unwrap_or_default()));
    json!({ "tools": listed.collect::<Vec<_>>() })
}

/// False when the tenant's engine has graph memory off (an engine that cannot be built fails the call itself).
fn graph_on(visit: &Visit<'_>) -> bool {
    visit.engine().map_or(true, |(engine, _)| engine.graph().graph_enabled())
}

fn is_graph_only(name: &str) -> bool {
    graph_tools::GRAPH_ONLY.contains(&name)
}

/// `tools/call`: an unknown tool, a call without a name or one over what is left of `budget` is a protocol
/// error, anything else a result.
pub async fn call(visit: &Visit<'_>, params: &Value, budget: &Budget) -> Result<Value, RpcError> {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Err(RpcError::new(rpc::INVALID_PARAMS, "INVALID_INPUT", "tools/call: `name` must be a string"));
    };
    let Some(tool) = definitions().iter().find(|tool| tool.get("name").and_then(Value::as_str) == Some(name)) else {
        return Err(RpcError::new(rpc::INVALID_PARAMS, "INVALID_INPUT", format!("Unknown tool: {name}")));
    };
    if is_graph_only(name) && !graph_on(visit) {
        return Ok(failed(&graph_tools::graph_off(name)));
    }
    let args = match params.get("arguments") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(args) => args.clone(),
    };
    if let Some(problem) = args.as_object().and_then(check::too_deep) {
        return Ok(failed(&tool_error("INVALID_INPUT", problem)));
    }
    if let Some(problem) = check::check(&tool["inputSchema"], &args, "arguments") {
        return Ok(failed(&tool_error("INVALID_INPUT", format!("{name}: {problem}"))));
    }
    budget.spend(name, &args)?;
    let Value::Object(args) = args else { return Ok(failed(&tool_error("INVALID_INPUT", "arguments: not an object"))) };
    let ran = async {
        let (engine, _) = visit.engine()?;
        run(name, &args, &Ctx { engine, access: Access::of(visit) }).await
    };
    Ok(match ran.await {
        Ok(value) => succeeded(value),
        Err(error) => failed(&error),
    })
}

async fn run(name: &str, args: &Args, ctx: &Ctx) -> Result<Value, ApiError> {
    match name {
        "add_memory" => memory_tools::add_memory(args, ctx).await,
        "search_memories" => memory_tools::search_memories(args, ctx).await,
        "get_memories" => memory_tools::get_memories(args, ctx).await,
        "get_memory" => memory_tools::get_memory(args, ctx).await,
        "get_memory_sources" => memory_tools::get_memory_sources(args, ctx).await,
        "update_memory" => memory_tools::update_memory(args, ctx).await,
        "delete_memory" => memory_tools::delete_memory(args, ctx).await,
        "delete_all_memories" => memory_tools::delete_all_memories(args, ctx).await,
        "list_entities" => memory_tools::list_entities(ctx).await,
        "delete_entities" => graph_tools::delete_entities(args, ctx).await,
        "create_entities" => graph_writes::create_entities(args, ctx).await,
        "create_relations" => graph_writes::create_relations(args, ctx).await,
        "add_observations" => graph_writes::add_observations(args, ctx).await,
        "delete_observations" => graph_writes::delete_observations(args, ctx).await,
        "delete_relations" => graph_writes::delete_relations(args, ctx).await,
        "read_graph" => graph_tools::read_graph(args, ctx).await,
        "search_nodes" => graph_tools::search_nodes(args, ctx).await,
        "open_nodes" => graph_tools::open_nodes(args, ctx).await,
        _ => Err(tool_error("NOT_SUPPORTED", format!("{name} is not served by this server"))),
    }
}

fn text_content(value: &Value) -> Value {
    json!([{ "type": "text", "text": value.to_string() }])
}

fn succeeded(value: Value) -> Value {
    let mut result = json!({ "content": text_content(&value) });
    if value.is_object() {
        result["structuredContent"] = value;
    }
    result
}

fn failed(error: &ApiError) -> Value {
    let body = json!({ "error": { "code": error.code, "message": error.message } });
    json!({ "content": text_content(&body), "isError": true })
}
