//! The routes under `/api/v1/memory/` (the agent key/value entries), read from the method and the path's segments. An empty
//! agent segment (`/api/v1/memory//store`) names the agent `default`; segments are percent-decoded.

use memwasm::core::kv::keys::decode;
use memwasm::core::prompt_fence::cuts_a_line;
use worker::Method;

use crate::error::ApiError;

/// The agent a path names when its segment is empty.
pub const DEFAULT_AGENT: &str = "default";
/// Longest agent id, in characters.
pub const MAX_AGENT_CHARS: usize = 128;

/// One memory API route, its path parameters decoded and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Stats,
    Decay,
    Share,
    Store(String),
    Search(String),
    VectorSearch(String),
    List(String),
    Clear(String),
    Reflections(String),
    Get(String, String),
    Delete(String, String),
    Pin(String, String),
}

/// A percent-decoded path segment; `what` names it in the error.
fn decoded(what: &str, raw: &str) -> Result<String, ApiError> {
    decode(raw).ok_or_else(|| ApiError::invalid(format!("{what}: malformed percent-encoding in {raw:?}")))
}

/// An agent id: `default` when empty, else 1–128 characters that are not all blank, without control
/// characters or line separators.
pub fn agent_id(what: &str, text: &str) -> Result<String, ApiError> {
    if text.is_empty() {
        return Ok(DEFAULT_AGENT.to_owned());
    }
    if text.chars().count() > MAX_AGENT_CHARS {
        return Err(ApiError::invalid(format!("{what} must be at most {MAX_AGENT_CHARS} characters")));
    }
    if text.trim().is_empty() || text.chars().any(cuts_a_line) {
        return Err(ApiError::invalid(format!(
            "{what} must not be blank or hold control characters or line separators"
        )));
    }
    Ok(text.to_owned())
}

fn agent(raw: &str) -> Result<String, ApiError> {
    agent_id("agent_id", &decoded("agent_id", raw)?)
}

fn key(raw: &str) -> Result<String, ApiError> {
    decoded("key", raw)
}

impl Route {
    /// The route of `method` on the segments after `/api/v1/memory/`. Fixed names win over keys (they are
    /// matched before decoding): a key named `list` is read as `li%73t`.
    pub fn parse(method: &Method, rest: &[&str]) -> Result<Self, ApiError> {
        Ok(match (method, rest) {
            (Method::Get, ["stats"]) => Self::Stats,
            (Method::Post, ["decay"]) => Self::Decay,
            (Method::Post, ["share"]) => Self::Share,
            (Method::Post, [a, "store"]) => Self::Store(agent(a)?),
            (Method::Get, [a, "search"]) => Self::Search(agent(a)?),
            (Method::Post, [a, "vector-search"]) => Self::VectorSearch(agent(a)?),
            (Method::Get, [a, "list"]) => Self::List(agent(a)?),
            (Method::Delete, [a, "clear"]) => Self::Clear(agent(a)?),
            (Method::Get, [a, "reflections"]) => Self::Reflections(agent(a)?),
            (Method::Get, [a, k]) => Self::Get(agent(a)?, key(k)?),
            (Method::Delete, [a, k]) => Self::Delete(agent(a)?, key(k)?),
            (Method::Post, [a, k, "pin"]) => Self::Pin(agent(a)?, key(k)?),
            _ => return Err(ApiError::not_found(format!("route {method} /api/v1/memory/{}", rest.join("/")))),
        })
    }

    /// True for the routes that write or delete entries (a reader may call none of them).
    pub fn changes(&self) -> bool {
        matches!(self, Self::Store(_) | Self::Delete(..) | Self::Pin(..) | Self::Clear(_) | Self::Decay | Self::Share)
    }

    /// True for the tenant-wide routes only admins may call.
    pub fn admin_only(&self) -> bool {
        matches!(self, Self::Stats | Self::Decay | Self::Share)
    }
}

/// The segments of `path` after `/api/v1/memory/` (empty ones kept, one trailing slash dropped); `None`
/// for any other path.
pub fn memory_segments(path: &str) -> Option<Vec<&str>> {
    let rest = path.strip_prefix("/api/v1/memory")?;
    if rest.is_empty() {
        return Some(Vec::new());
    }
    let rest = rest.strip_prefix('/')?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    Some(if rest.is_empty() { Vec::new() } else { rest.split('/').collect() })
}
