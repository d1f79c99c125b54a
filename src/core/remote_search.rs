//! The engine's side of a remote vector index (see `remote_vectors`): mirroring commits to it and
//! asking it for vector rankings, over-fetching until enough hits pass the exact local checks.

use super::error::Result;
use super::filter::Filter;
use super::fusion::Method;
use super::memory::MemoryEngine;
use super::models::{Embedder, Llm};
use super::read::Read;
use super::remote_vectors::{RemoteSlot, RemoteVectors, VectorPoint, VectorQuery};
use super::retrieve::{Ranked, OVERFETCH};
use super::scope::Scope;
use super::storage::{Changeset, Storage};
use super::types::MemoryItem;
use super::vector_store::{Predicate, VectorStore};

/// The most hits one remote query asks for while over-fetching.
const MAX_ASKED: usize = 100_000;

/// How many hits to ask for first when `wanted` must pass the local checks.
pub(crate) fn first_ask(wanted: usize) -> usize {
    wanted.saturating_mul(2).saturating_add(10).min(MAX_ASKED)
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Moves vector storage and search to `remote` (the in-RAM index keeps every memory for the rest).
    pub fn set_remote_vectors(&mut self, remote: impl RemoteVectors + 'static) {
        self.remote = RemoteSlot::new(remote);
    }

    /// True when vectors are searched remotely.
    pub fn has_remote_vectors(&self) -> bool {
        self.remote.index.is_some()
    }

    /// Uploads the vectors of the indexed memories passing `keep` that the remote index does not hold:
    /// memories stored before the switch to it (called as storage is loaded). Returns how many.
    pub async fn backfill_remote(&self, keep: Predicate<'_>) -> Result<usize> {
        let Some(remote) = &self.remote.index else { return Ok(0) };
        let points: Vec<VectorPoint> = {
            let index = self.index.borrow();
            let point = |item: &MemoryItem| {
                let vector = index.vector(&item.id)?;
                let (scope, metadata) = (item.scope.clone(), item.metadata.clone());
                Some(VectorPoint { id: item.id.clone(), vector, scope, metadata })
            };
            index.list(usize::MAX, keep).into_iter().filter_map(|memory| point(&memory.item)).collect()
        };
        if points.is_empty() {
            return Ok(0);
        }
        let ids: Vec<String> = points.iter().map(|point| point.id.clone()).collect();
        let missing = remote.missing(&ids).await?;
        let upload: Vec<VectorPoint> = points.into_iter().filter(|point| missing.contains(&point.id)).collect();
        remote.upsert(&upload).await?;
        Ok(upload.len())
    }

    /// Before storage is written: upserts every vector `changes` writes whose vector, scope or metadata
    /// differ from the index's, after replaying pending deletes. A failure fails the commit (nothing kept).
    pub(crate) async fn remote_before_commit(&self, changes: &Changeset) -> Result<()> {
        let Some(remote) = &self.remote.index else { return Ok(()) };
        let points: Vec<VectorPoint> = {
            let index = self.index.borrow();
            changes
                .upserts
                .iter()
                .filter_map(|memory| {
                    let vector = memory.embedding.as_ref()?;
                    let same = index.get(&memory.item.id).is_some_and(|old| {
                        old.item.scope == memory.item.scope
                            && old.item.metadata == memory.item.metadata
                            && index.vector(&memory.item.id).as_ref() == Some(vector)
                    });
                    let item = &memory.item;
                    let point = || VectorPoint {
                        id: item.id.clone(),
                        vector: vector.clone(),
                        scope: item.scope.clone(),
                        metadata: item.metadata.clone(),
                    };
                    (!same).then(point)
                })
                .collect()
        };
        if points.is_empty() {
            return Ok(()); // a delete or a write-back: nothing Chroma must hold first
        }
        self.remote.replay().await?;
        remote.upsert(&points).await
    }

    /// After storage was written: removes the vectors of deleted memories and of memories now without one
    /// (pending on failure, replayed later). `vectorless` lists the upserted ids that carry no vector.
    pub(crate) async fn remote_after_commit(&self, deletes: &[String], vectorless: Vec<String>) {
        if self.remote.index.is_some() {
            self.remote.delete_or_defer(deletes.iter().cloned().chain(vectorless).collect()).await;
        }
    }

    /// The vector ranking `method` needs from the remote index (`None` without one, or without `vector`).
    pub(crate) async fn remote_ranking(
        &self,
        vector: Option<&[f32]>,
        method: Method,
        read: &Read,
    ) -> Result<Option<Ranked>> {
        let (Some(vector), true) = (vector, method != Method::Keyword) else { return Ok(None) };
        let wanted = match method {
            Method::Vector => read.limit,
            _ => read.limit.saturating_mul(OVERFETCH),
        };
        let now = self.now_iso();
        let keep = |item: &MemoryItem| read.scope.contains(&item.scope) && read.keeps(item, &now);
        self.remote_hits(vector, wanted, &read.scope, read.filter.as_ref(), &keep).await
    }

    /// Up to `wanted` (cosine, id) of memories passing `keep`, best first, from the remote index: asks for
    /// more (×4) while too few of its hits pass and it had more to give. `None` without a remote index.
    pub(crate) async fn remote_hits(
        &self,
        vector: &[f32],
        wanted: usize,
        scope: &Scope,
        filter: Option<&Filter>,
        keep: Predicate<'_>,
    ) -> Result<Option<Ranked>> {
        let Some(remote) = &self.remote.index else { return Ok(None) };
        if wanted == 0 {
            return Ok(Some(Vec::new()));
        }
        let mut asked = first_ask(wanted);
        loop {
            let hits = remote.query(VectorQuery { vector, limit: asked, scope, filter }).await?;
            let complete = hits.len() < asked || asked >= MAX_ASKED;
            let index = self.index.borrow();
            let mut kept: Ranked = hits
                .into_iter()
                .filter(|(id, _)| index.get(id).is_some_and(|memory| keep(&memory.item)))
                .map(|(id, score)| (f64::from(score), id))
                .collect();
            if kept.len() >= wanted || complete {
                kept.truncate(wanted);
                return Ok(Some(kept));
            }
            asked = asked.saturating_mul(4).min(MAX_ASKED);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_ask;

    #[test]
    fn first_ask_over_fetches_and_is_bounded() {
        assert_eq!(first_ask(1), 12);
        assert_eq!(first_ask(100), 210);
        assert_eq!(first_ask(usize::MAX), 100_000);
    }
}
