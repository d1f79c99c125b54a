//! The routes under `/v1/sync` (the end-to-end encrypted sync log), read from the method and the path's
//! segments. The one place their paths are matched.

use worker::Method;

use crate::listed::listed;
use crate::shard_need::Place;

listed! {
    /// One `/v1/sync` route.
    pub enum SyncRoute {
        /// `POST /v1/sync/push`.
        Push,
        /// `GET /v1/sync/pull`.
        Pull,
        /// `POST /v1/sync/compact`.
        Compact,
        /// `GET /v1/sync`.
        Status,
        /// `DELETE /v1/sync`.
        Wipe,
    }
}

impl SyncRoute {
    /// The route of `method` on `segments` (the path's after `v1/sync`, empty ones left out); `None` for a
    /// path or method no route serves.
    pub fn parse(method: &Method, segments: &[&str]) -> Option<Self> {
        Some(match (method, segments) {
            (Method::Post, ["push"]) => Self::Push,
            (Method::Get, ["pull"]) => Self::Pull,
            (Method::Post, ["compact"]) => Self::Compact,
            (Method::Get, []) => Self::Status,
            (Method::Delete, []) => Self::Wipe,
            _ => return None,
        })
    }

    /// Where a tenant-wide token names the user whose log the route reaches (`userId`): the push's (or compaction's) JSON
    /// body (or its query string), every other route's query string.
    pub fn user_place(self) -> Place {
        match self {
            Self::Push | Self::Compact => Place::Body,
            Self::Pull | Self::Status | Self::Wipe => Place::Query,
        }
    }
}
