//! The JSON-RPC 2.0 wire of the MCP endpoint: results, protocol errors and the standard error codes.

use serde_json::{json, Value};

/// Invalid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// Not a JSON-RPC request object.
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Wrong parameters (an unknown tool, a missing name).
pub const INVALID_PARAMS: i64 = -32602;
/// A limit of this server (a server error in JSON-RPC's implementation-defined range): the code in `data.code`.
pub const LIMIT_EXCEEDED: i64 = -32000;
/// MCP 2026-07-28: the request's headers do not match its body, or one it needs is missing.
pub const HEADER_MISMATCH: i64 = -32020;
/// MCP 2026-07-28: the request names a revision this server does not serve (`data`: supported, requested).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// A protocol error: its JSON-RPC code and message, and our code in `data.code` (or the `data` MCP defines).
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data_code: &'static str,
    data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, data_code: &'static str, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), data_code, data: None }
    }

    /// This error with `data` in place of `{"code": data_code}`.
    pub fn with_data(self, data: Value) -> Self {
        Self { data: Some(data), ..self }
    }

    fn error(&self) -> Value {
        let data = self.data.clone().unwrap_or_else(|| json!({ "code": self.data_code }));
        json!({ "code": self.code, "message": self.message, "data": data })
    }

    /// The error response to request `id`.
    pub fn to_response(&self, id: &Value) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "error": self.error() })
    }

    /// The error response to a request whose id is not known (or not read): no `id` member.
    pub fn to_anonymous_response(&self) -> Value {
        json!({ "jsonrpc": "2.0", "error": self.error() })
    }
}

/// The result response to request `id`.
pub fn result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// One incoming JSON-RPC message, sorted.
pub enum Incoming<'a> {
    /// A request: it gets an answer.
    Request { id: &'a Value, method: &'a str, params: &'a Value },
    /// A notification, or a response to a request of ours (this server sends none): no answer.
    NoAnswer,
}

static NULL: Value = Value::Null;

/// What `message` is; an `INVALID_REQUEST` error (with the id to answer, when it has one) when it is none.
pub fn sort(message: &Value) -> Result<Incoming<'_>, (Value, RpcError)> {
    let invalid = |id: &Value, why: &str| (id.clone(), RpcError::new(INVALID_REQUEST, "INVALID_REQUEST", why));
    let Some(object) = message.as_object() else {
        return Err(invalid(&NULL, "a JSON-RPC message must be an object"));
    };
    let id = object.get("id");
    let usable_id = id.filter(|id| id.is_string() || id.is_number());
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid(usable_id.unwrap_or(&NULL), "\"jsonrpc\" must be \"2.0\""));
    }
    let Some(method) = object.get("method") else {
        let is_response = object.contains_key("result") || object.contains_key("error");
        return if is_response && usable_id.is_some() {
            Ok(Incoming::NoAnswer)
        } else {
            Err(invalid(usable_id.unwrap_or(&NULL), "a request needs a \"method\""))
        };
    };
    let Some(method) = method.as_str() else {
        return Err(invalid(usable_id.unwrap_or(&NULL), "\"method\" must be a string"));
    };
    let params = object.get("params").unwrap_or(&NULL);
    match (id, usable_id) {
        (None, _) => Ok(Incoming::NoAnswer),
        (Some(_), None) => Err(invalid(&NULL, "\"id\" must be a string or a number")),
        (Some(_), Some(id)) => Ok(Incoming::Request { id, method, params }),
    }
}
