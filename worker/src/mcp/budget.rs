//! The model-call budget of one `/mcp` request: what each tool can cost in model calls (LLM and embedder
//! requests), read from `pkg/mcp/costs.json` (the stdio server reads the same table), and what is left of
//! the budget while a request's messages run in order. A call that would go over it is refused before it
//! runs. The costs count the requests of a call that succeeds; retries of a failed request
//! (`MAX_RETRIES`) and the fallback of a failed batch embedding (one request per text) come on top.

use std::cell::Cell;
use std::sync::OnceLock;

use serde_json::Value;

use super::rpc::{self, RpcError};

/// The cost table, shared with the stdio server.
const COSTS_JSON: &str = include_str!("../../../pkg/mcp/costs.json");

fn costs() -> &'static Value {
    static COSTS: OnceLock<Value> = OnceLock::new();
    COSTS.get_or_init(|| serde_json::from_str(COSTS_JSON).unwrap_or(Value::Null))
}

/// Most model calls one request may cause (`budget` in the table).
pub fn model_call_budget() -> u64 {
    costs()["budget"].as_u64().unwrap_or(0)
}

/// The model calls a call of `tool` with (checked) `args` can make: the tool's `calls`, plus one per item
/// at its `each` path (`["entities", "observations"]`: every observation of every entity).
pub fn cost(tool: &str, args: &Value) -> u64 {
    let Some(rule) = costs()["tools"].get(tool) else { return 0 };
    let fixed = rule.get("calls").and_then(Value::as_u64).unwrap_or(0);
    let path: Vec<&str> =
        rule.get("each").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    fixed + if path.is_empty() { 0 } else { items(args, &path) }
}

fn items(value: &Value, path: &[&str]) -> u64 {
    match path.split_first() {
        None => 1,
        Some((key, rest)) => {
            value.get(*key).and_then(Value::as_array).map_or(0, |all| all.iter().map(|v| items(v, rest)).sum())
        }
    }
}

/// What is left of one request's budget.
pub struct Budget {
    left: Cell<u64>,
}

impl Budget {
    /// A request's whole budget.
    pub fn new() -> Self {
        Self { left: Cell::new(model_call_budget()) }
    }

    /// Takes the cost of a call of `tool` with `args`, or refuses it (`MODEL_BUDGET_EXCEEDED`) when that is
    /// more than is left; a refused call takes nothing.
    pub fn spend(&self, tool: &str, args: &Value) -> Result<(), RpcError> {
        let (cost, left, whole) = (cost(tool, args), self.left.get(), model_call_budget());
        if cost <= left {
            self.left.set(left - cost);
            return Ok(());
        }
        let why = if cost > whole {
            format!("{tool} would make {cost} model calls; one request may make at most {whole} model calls: split it into smaller calls")
        } else {
            format!("{tool} would make up to {cost} model calls, and this request has {left} of its {whole} model calls left: send it in another request")
        };
        Err(RpcError::new(rpc::LIMIT_EXCEEDED, "MODEL_BUDGET_EXCEEDED", why))
    }
}
