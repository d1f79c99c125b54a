//! A vector index in another process (Chroma, …). The engine keeps its in-RAM index for everything else
//! and mirrors each committed vector here; vector rankings (search, the neighbours `add` shows the LLM,
//! search by vector) come from here. Providers implement [`RemoteVectors`]; the core sees only this.
//!
//! Consistency: vectors are written here *before* storage (a failure fails the whole call, nothing
//! kept); deletes and clears go *after* storage, and one that fails is kept pending and replayed before
//! the next write. Hits the in-RAM index does not know (stale or pending deletes) are dropped.

use std::cell::RefCell;

use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;

use super::error::Result;
use super::filter::Filter;
use super::scope::Scope;
use super::types::Metadata;

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
}

/// [`RemoteVectors`] as an object, so the engine's type does not change with the provider.
pub(crate) trait DynRemote {
    fn upsert<'a>(&'a self, points: &'a [VectorPoint]) -> LocalBoxFuture<'a, Result<()>>;
    fn delete<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<()>>;
    fn query<'a>(&'a self, query: VectorQuery<'a>) -> LocalBoxFuture<'a, Result<Vec<(String, f32)>>>;
    fn clear(&self) -> LocalBoxFuture<'_, Result<()>>;
    fn missing<'a>(&'a self, ids: &'a [String]) -> LocalBoxFuture<'a, Result<Vec<String>>>;
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
}

/// Deletes and clears that reached storage but not yet the remote index.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Pending {
    pub clear: bool,
    pub deletes: Vec<String>,
}

/// The engine's remote index, if one is configured, and what it still owes it.
#[derive(Default)]
pub(crate) struct RemoteSlot {
    pub index: Option<Box<dyn DynRemote>>,
    pub pending: RefCell<Pending>,
}

impl RemoteSlot {
    /// A slot holding `remote`.
    pub fn new(remote: impl RemoteVectors + 'static) -> Self {
        Self { index: Some(Box::new(remote)), pending: RefCell::default() }
    }

    /// Replays what is pending (a clear, then deletes); it stays pending when that fails.
    pub async fn replay(&self) -> Result<()> {
        let Some(index) = &self.index else { return Ok(()) };
        let pending = self.pending.borrow().clone();
        if pending.clear {
            index.clear().await?;
            self.pending.borrow_mut().clear = false;
        }
        if !pending.deletes.is_empty() {
            index.delete(&pending.deletes).await?;
            self.pending.borrow_mut().deletes.retain(|id| !pending.deletes.contains(id));
        }
        Ok(())
    }

    /// Deletes `ids` remotely now, or records them pending when that fails.
    pub async fn delete_or_defer(&self, ids: Vec<String>) {
        let Some(index) = &self.index else { return };
        if ids.is_empty() {
            return;
        }
        if self.replay().await.is_err() || index.delete(&ids).await.is_err() {
            self.pending.borrow_mut().deletes.extend(ids);
        }
    }

    /// Clears the remote index now, or records the clear pending when that fails.
    pub async fn clear_or_defer(&self) {
        let Some(index) = &self.index else { return };
        *self.pending.borrow_mut() = Pending { clear: true, deletes: Vec::new() };
        if index.clear().await.is_ok() {
            self.pending.borrow_mut().clear = false;
        }
    }
}
