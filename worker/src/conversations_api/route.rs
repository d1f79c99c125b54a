//! The routes under `/api/v1/memories` (the conversation API), read from the method and the path. One trailing slash
//! is ignored; any other path under the prefix is an unknown route (404 `RESOURCE_NOT_FOUND`).

use worker::Method;

use super::envelope::Failure;
use crate::listed::listed;

/// The prefix of the route family.
pub const PREFIX: &str = "/api/v1/memories";

listed! {
    /// One route of the family.
    pub enum Route {
        /// `POST /api/v1/memories`: store one message.
        Store,
        /// `GET /api/v1/memories`: fetch memories by type.
        Fetch,
        /// `DELETE /api/v1/memories`: soft delete by filter.
        Delete,
        /// `GET` (or `POST`) `/api/v1/memories/search`.
        Search,
        /// `GET /api/v1/memories/conversation-meta`.
        GetMeta,
        /// `POST /api/v1/memories/conversation-meta`: upsert.
        SaveMeta,
        /// `PATCH /api/v1/memories/conversation-meta`: partial update.
        PatchMeta,
        /// `POST /api/v1/memories/batch`: a GroupChatFormat file.
        Batch,
    }
}

/// True for `/api/v1/memories` and every path under it (not `/api/v1/memory/…`, the agent key/value entries).
pub fn is_family(path: &str) -> bool {
    path.strip_prefix(PREFIX).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

impl Route {
    /// The route of `method` on `path` (one of the family's).
    pub fn parse(method: &Method, path: &str) -> Result<Self, Failure> {
        let rest = path.strip_prefix(PREFIX).unwrap_or(path);
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        Ok(match (method, rest) {
            (Method::Post, "") => Self::Store,
            (Method::Get, "") => Self::Fetch,
            (Method::Delete, "") => Self::Delete,
            (Method::Get | Method::Post, "/search") => Self::Search,
            (Method::Get, "/conversation-meta") => Self::GetMeta,
            (Method::Post, "/conversation-meta") => Self::SaveMeta,
            (Method::Patch, "/conversation-meta") => Self::PatchMeta,
            (Method::Post, "/batch") => Self::Batch,
            _ => return Err(Failure::not_found(format!("route {method} {path} not found"))),
        })
    }
}
