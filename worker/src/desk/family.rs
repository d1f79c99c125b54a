//! Which route family a request belongs to (with its route, for the families the desk parses), and what the
//! desk asks of its callers: which tokens it admits, for which methods it reads a body, and what scope
//! sharding needs for it.

use worker::{Env, Method};

use crate::auth::Caller;
use crate::shard_need::ShardNeed;
use crate::sync_api::route::SyncRoute;
use crate::tiers_api::route::TiersRoute;
use crate::v1::route::V1Call;
use crate::{conversations_api, mcp, mem0_api, memory_api, sync_api};

/// The route families, each with its own error envelope.
pub enum Family {
    /// mem0's platform API under its prefix (`MEM0_PREFIX`); errors as `{"detail"}`.
    Mem0(String),
    /// The conversation API under `/api/v1/memories`; errors in its `{status: "failed", …}` envelope.
    Conversations,
    /// The agent key/value entries under `/api/v1/memory/`.
    Memory,
    /// The memory tiers under `/v1/tiers/`, and the route (`None`: no route of the family).
    Tiers(Option<TiersRoute>),
    /// The sync log under `/v1/sync`, and the route (`None`: no route of the family).
    Sync(Option<SyncRoute>),
    /// The mem0-style routes under `/v1/`, and the route (`None`: no route of the family).
    V1(Option<V1Call>),
    /// The MCP server at `/mcp`: JSON-RPC, its HTTP-level errors (401, 403) as `{"error": {"code", "message"}}`.
    Mcp,
}

impl Family {
    /// The family of a `method` request to `path`; `None` for a path no family serves.
    pub fn of(method: &Method, path: &str, env: &Env) -> Option<Self> {
        let mem0_prefix = mem0_api::prefix(env);
        if mem0_api::is_family(path, &mem0_prefix) {
            return Some(Self::Mem0(mem0_prefix));
        }
        if mcp::is_family(path) {
            return Some(Self::Mcp);
        }
        if conversations_api::route::is_family(path) {
            return Some(Self::Conversations);
        }
        if memory_api::route::memory_segments(path).is_some() {
            return Some(Self::Memory);
        }
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        match segments.as_slice() {
            ["v1", "tiers", rest @ ..] => Some(Self::Tiers(TiersRoute::parse(method, rest))),
            ["v1", "sync", rest @ ..] => Some(Self::Sync(SyncRoute::parse(method, rest))),
            ["v1", rest @ ..] => Some(Self::V1(V1Call::parse(method, rest))),
            _ => None,
        }
    }

    /// What scope sharding needs for the request: the `/v1/` memory routes declare it; every other route,
    /// and a path no route serves, is not sharded.
    pub fn shard_need(&self) -> ShardNeed {
        match self {
            Self::V1(Some(call)) => call.route.shard_need(),
            _ => ShardNeed::Unsharded,
        }
    }

    /// Why `caller` is refused at the door; `None` when admitted. The tenant-wide families take a tenant-wide
    /// token; the agent key/value entries' routes decide for themselves; the MCP server takes a tenant-wide
    /// token or a user's (its tools then reach that user only), never a reader's.
    pub fn refusal(&self, caller: &Caller) -> Option<&'static str> {
        match self {
            Self::Memory => None,
            Self::Mcp if caller.is_reader() => Some(
                "the MCP server takes a tenant-wide token or a user's token ({\"tenant\", \"user\"} in MEMORY_TOKENS): \
                 this token has neither a user nor admin",
            ),
            Self::Mcp => None,
            // A user's token syncs its own log, a tenant-wide one the log it names; a reader's neither
            // (`sync_api::user`).
            Self::Sync(_) if caller.is_reader() => Some(sync_api::user::READER_REFUSAL),
            Self::Sync(_) => None,
            _ if caller.admin => None,
            Self::Mem0(_) => Some("The mem0 API acts on the whole tenant: it takes a tenant-wide token"),
            Self::Conversations => {
                Some("the /api/v1/memories routes act on the whole tenant: they take a tenant-wide token")
            }
            Self::Tiers(_) | Self::V1(_) => Some("the /v1/ routes act on the whole tenant: they take a tenant-wide token"),
        }
    }

    /// True when the desk reads the body of a `method` request: always for mem0's API and the conversation
    /// API, for `POST` and `PUT` in the others.
    pub fn reads_body(&self, method: &Method) -> bool {
        match self {
            Self::Mem0(_) | Self::Conversations => true,
            Self::Memory | Self::Tiers(_) | Self::Sync(_) | Self::V1(_) | Self::Mcp => {
                matches!(method, Method::Post | Method::Put)
            }
        }
    }
}
