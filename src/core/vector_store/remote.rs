//! The interface of a vector index in another process (Chroma, …): what providers implement, and the
//! object form the engine holds. The engine's use of it is in `engine/remote_index/`.

use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;

use crate::core::error::Result;
use crate::core::filter::Filter;
use crate::core::model::scope::Scope;
use crate::core::model::types::Metadata;

/// One vector as the remote index stores it: the memory's id, its unit vector, and what a `where` can
/// select on (the scope ids and the caller's metadata).
#[derive(Debug, Clone, PartialEq)]
pub struct VectorPoint {
    pub id: String,
    pub vector: Vec<f32>,
    pub scope: Scope,
    pub metadata: Metadata,
}

/// What a query must be restricted to: a scope (exact) and a filter, which the remote index may apply in
/// part or not at all; the engine applies both exactly to the hits afterwards.
#[derive(Debug, Clone, Copy)]
pub struct VectorQuery<'a> {
    pub vector: &'a [f32],
    pub limit: usize,
    pub scope: &'a Scope,
    pub filter: Option<&'a Filter>,
}

/// Vectors by memory id, as [`RemoteVectors::vectors`] returns them.
pub type IdVectors = Vec<(String, Vec<f32>)>;

/// A remote vector index. Every failure is `VECTOR_STORE_UNAVAILABLE` (after the provider's retries).
#[allow(async_fn_in_trait)]
pub trait RemoteVectors {
    /// Inserts or replaces `points` (by id).
    async fn upsert(&self, points: &[VectorPoint]) -> Result<()>;
    /// Removes these ids (unknown ones are ignored).
    async fn delete(&self, ids: &[String]) -> Result<()>;
    /// Up to `query.limit` (id, cosine similarity) pairs, most similar first.
    async fn query(&self, query: VectorQuery<'_>) -> Result<Vec<(String, f32)>>;
    /// Removes every vector.
    async fn clear(&self) -> Result<()>;
    /// The ids of `ids` the remote index holds no vector for.
    async fn missing(&self, ids: &[String]) -> Result<Vec<String>>;
    /// The vectors held for `ids` (unknown ids are left out), in any order.
    async fn vectors(&self, ids: &[String]) -> Result<IdVectors>;
}

/// [`RemoteVectors`] as an object, so the engine's type does not change with the provider.
pub(crate) trait DynRemote {
    fn upsert<'a>(&'a self, points: &'a [VectorPoint]) -> LocalBoxFuture<'a, Result<()>>;
    fn delete<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<()>>;
    fn query<'a>(&'a self, query: VectorQuery<'a>) -> LocalBoxFuture<'a, Result<Vec<(String, f32)>>>;
    fn clear(&self) -> LocalBoxFuture<'_, Result<()>>;
    fn missing<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<Vec<String>>>;
    fn vectors<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<IdVectors>>;
}

impl<T: RemoteVectors> DynRemote for T {
    fn upsert<'a>(&'a self, points: &'a [VectorPoint]) -> LocalBoxFuture<'a, Result<()>> {
        RemoteVectors::upsert(self, points).boxed_local()
    }
    fn delete<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<()>> {
        RemoteVectors::delete(self, ids).boxed_local()
    }
    fn query<'a>(&'a self, query: VectorQuery<'a>) -> LocalBoxFuture<'a, Result<Vec<(String, f32)>>> {
        RemoteVectors::query(self, query).boxed_local()
    }
    fn clear(&self) -> LocalBoxFuture<'_, Result<()>> {
        RemoteVectors::clear(self).boxed_local()
    }
    fn missing<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<Vec<String>>> {
        RemoteVectors::missing(self, ids).boxed_local()
    }
    fn vectors<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<IdVectors>> {
        RemoteVectors::vectors(self, ids).boxed_local()
    }
}
