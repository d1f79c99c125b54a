//! The routes under `/v1/` (the mem0-style memory routes), read from the method and the
//! path's segments, and what each needs of scope sharding. The one place their paths are matched.

use worker::Method;

use crate::listed::listed;
use crate::shard_need::{Place, ShardNeed, Unnamed};

listed! {
    /// One `/v1/` route.
    pub enum V1Route {
        /// `POST /v1/memories/`.
        Add,
        /// `GET /v1/memories/search/?q=…`.
        Search,
        /// `POST /v1/memories/search/` with a body.
        SearchBody,
        /// `GET /v1/memories/`: a scope's memories.
        List,
        /// `DELETE /v1/memories/`: a scope's memories.
        DeleteScope,
        /// `GET /v1/memories/{id}/`.
        Get,
        /// `PUT /v1/memories/{id}/`.
        Update,
        /// `DELETE /v1/memories/{id}/`.
        Delete,
        /// `GET /v1/memories/{id}/history/`.
        History,
        /// `GET /v1/memories/{id}/sources/`.
        Sources,
        /// `GET /v1/entities/`.
        Entities,
        /// `GET /v1/entities/{name}/relations/`.
        Relations,
        /// `GET /v1/export/`.
        Export,
        /// `POST /v1/reembed/`.
        Reembed,
        /// `POST /v1/reset/`.
        Reset,
        /// `/v1/storage/migrate` (any method: the route answers 405 for all but `POST`).
        Migrate,
    }
}

/// A `/v1/` route and the path segment it names: the memory id, or the entity's name (raw, as in the
/// path); empty for the routes that name none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V1Call {
    pub route: V1Route,
    pub id_or_name: String,
}

impl V1Call {
    /// The route of `method` on `segments` (the path's after `v1`, empty ones left out); `None` for a path
    /// or method no route serves.
    pub fn parse(method: &Method, segments: &[&str]) -> Option<Self> {
        let named = |route, id_or_name: &str| Some(Self { route, id_or_name: id_or_name.to_owned() });
        let plain = |route| named(route, "");
        match (method, segments) {
            (Method::Post, ["memories"]) => plain(V1Route::Add),
            (Method::Get, ["memories", "search"]) => plain(V1Route::Search),
            (Method::Post, ["memories", "search"]) => plain(V1Route::SearchBody),
            (Method::Get, ["memories"]) => plain(V1Route::List),
            (Method::Delete, ["memories"]) => plain(V1Route::DeleteScope),
            (Method::Get, ["memories", id]) => named(V1Route::Get, id),
            (Method::Put, ["memories", id]) => named(V1Route::Update, id),
            (Method::Delete, ["memories", id]) => named(V1Route::Delete, id),
            (Method::Get, ["memories", id, "history"]) => named(V1Route::History, id),
            (Method::Get, ["memories", id, "sources"]) => named(V1Route::Sources, id),
            (Method::Get, ["entities"]) => plain(V1Route::Entities),
            (Method::Get, ["entities", name, "relations"]) => named(V1Route::Relations, name),
            (Method::Get, ["export"]) => plain(V1Route::Export),
            (Method::Post, ["reembed"]) => plain(V1Route::Reembed),
            (Method::Post, ["reset"]) => plain(V1Route::Reset),
            (_, ["storage", "migrate"]) => plain(V1Route::Migrate),
            _ => None,
        }
    }
}

impl V1Route {
    /// What the route needs when each user has an object.
    pub fn shard_need(self) -> ShardNeed {
        let user = |place, unnamed| ShardNeed::User { place, unnamed };
        match self {
            Self::Add => user(Place::Body, Unnamed::Required),
            Self::SearchBody => user(Place::Body, Unnamed::Across),
            Self::Search | Self::List | Self::DeleteScope => user(Place::Query, Unnamed::Across),
            Self::Entities | Self::Relations => user(Place::Query, Unnamed::Required),
            Self::Export => user(Place::Query, Unnamed::ExportPages),
            Self::Get | Self::Update | Self::Delete | Self::History | Self::Sources => ShardNeed::ById,
            Self::Reembed | Self::Reset => ShardNeed::EveryUser,
            Self::Migrate => ShardNeed::Unsharded,
        }
    }
}
