//! The routes under `/v1/tiers/` (the memory tiers), read from the method and the
//! path's segments. The one place their paths are matched.

use worker::Method;

use crate::listed::listed;

listed! {
    /// One `/v1/tiers/` route.
    pub enum TiersRoute {
        /// `POST /v1/tiers/flush`.
        Flush,
        /// `POST /v1/tiers/context`.
        Context,
        /// `GET /v1/tiers/journal`.
        Journal,
        /// `GET /v1/tiers/journals`.
        Journals,
        /// `POST /v1/tiers/dream`.
        Dream,
        /// `GET /v1/tiers/profile`.
        Profile,
        /// `GET /v1/tiers/diary`.
        Diary,
        /// `GET /v1/tiers/inject`.
        Inject,
    }
}

impl TiersRoute {
    /// The route of `method` on `segments` (the path's after `v1/tiers`, empty ones left out); `None` for a
    /// path or method no route serves.
    pub fn parse(method: &Method, segments: &[&str]) -> Option<Self> {
        Some(match (method, segments) {
            (Method::Post, ["flush"]) => Self::Flush,
            (Method::Post, ["context"]) => Self::Context,
            (Method::Get, ["journal"]) => Self::Journal,
            (Method::Get, ["journals"]) => Self::Journals,
            (Method::Post, ["dream"]) => Self::Dream,
            (Method::Get, ["profile"]) => Self::Profile,
            (Method::Get, ["diary"]) => Self::Diary,
            (Method::Get, ["inject"]) => Self::Inject,
            _ => return None,
        })
    }
}
