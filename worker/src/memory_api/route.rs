//! The routes under `/api/v1/memory/` (the agent key/value entries), read from the method and the path's segments. An empty
//! agent segment (`/api/v1/memory//store`) names the agent `default`; segments are percent-decoded.

use memwasm::core::kv::keys::decode;
use memwasm::core::prompt_fence::cuts_a_line;
use worker::Method;

use crate::error::ApiError;
use crate::listed::listed;

/// The agent a path names when its segment is empty.
pub const DEFAULT_AGENT: &str = "default";
/// Longest agent id, in characters.
pub const MAX_AGENT_CHARS: usize = 128;

listed! {
    /// One memory API route.
    pub enum MemoryRoute {
        /// `GET /api/v1/memory/stats`.
        Stats,
        /// `POST /api/v1/memory/decay`.
        Decay,
        /// `POST /api/v1/memory/share`.
        Share,
        /// `POST /api/v1/memory/{agent}/store`.
        Store,
        /// `GET /api/v1/memory/{agent}/search`.
        Search,
        /// `POST /api/v1/memory/{agent}/vector-search`.
        VectorSearch,
        /// `GET /api/v1/memory/{agent}/list`.
        List,
        /// `DELETE /api/v1/memory/{agent}/clear`.
        Clear,
        /// `GET /api/v1/memory/{agent}/reflections`.
        Reflections,
        /// `GET /api/v1/memory/{agent}/{key}`.
        Get,
        /// `DELETE /api/v1/memory/{agent}/{key}`.
        Delete,
        /// `POST /api/v1/memory/{agent}/{key}/pin`.
        Pin,
    }
}

/// One memory API request: its route and path parameters, decoded and checked (empty where the route
/// names none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub kind: MemoryRoute,
    pub agent: String,
    pub key: String,
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
        let tenant_wide = |kind| Ok(Self { kind, agent: String::new(), key: String::new() });
        let of_agent = |kind, a: &str| Ok(Self { kind, agent: agent(a)?, key: String::new() });
        let of_key = |kind, a: &str, k: &str| Ok(Self { kind, agent: agent(a)?, key: key(k)? });
        match (method, rest) {
            (Method::Get, ["stats"]) => tenant_wide(MemoryRoute::Stats),
            (Method::Post, ["decay"]) => tenant_wide(MemoryRoute::Decay),
            (Method::Post, ["share"]) => tenant_wide(MemoryRoute::Share),
            (Method::Post, [a, "store"]) => of_agent(MemoryRoute::Store, a),
            (Method::Get, [a, "search"]) => of_agent(MemoryRoute::Search, a),
            (Method::Post, [a, "vector-search"]) => of_agent(MemoryRoute::VectorSearch, a),
            (Method::Get, [a, "list"]) => of_agent(MemoryRoute::List, a),
            (Method::Delete, [a, "clear"]) => of_agent(MemoryRoute::Clear, a),
            (Method::Get, [a, "reflections"]) => of_agent(MemoryRoute::Reflections, a),
            (Method::Get, [a, k]) => of_key(MemoryRoute::Get, a, k),
            (Method::Delete, [a, k]) => of_key(MemoryRoute::Delete, a, k),
            (Method::Post, [a, k, "pin"]) => of_key(MemoryRoute::Pin, a, k),
            _ => Err(ApiError::not_found(format!("route {method} /api/v1/memory/{}", rest.join("/")))),
        }
    }
}

impl MemoryRoute {
    /// True for the routes that write or delete entries (a reader may call none of them).
    pub fn changes(self) -> bool {
        matches!(self, Self::Store | Self::Delete | Self::Pin | Self::Clear | Self::Decay | Self::Share)
    }

    /// True for the tenant-wide routes only admins may call.
    pub fn admin_only(self) -> bool {
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
