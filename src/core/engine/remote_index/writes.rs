//! The engine's writes to its remote index: vectors before storage, write-backs given their vector,
//! memories stored before the switch uploaded, and vectors read back for those that need them.

use std::collections::{HashMap, HashSet};

use super::VectorPoint;
use crate::core::engine::remote_index::RemoteIndex;
use crate::core::error::Result;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// What one commit owes the remote index: vectors to write before storage, ids whose vector goes after.
#[derive(Debug, Default)]
pub(crate) struct RemoteWrite {
    pub upserts: Vec<VectorPoint>,
    pub vectorless: Vec<String>,
}

fn point(item: &MemoryItem, vector: &[f32]) -> VectorPoint {
    let (scope, metadata) = (item.scope.clone(), (*item.metadata).clone());
    VectorPoint { id: item.id.clone(), vector: vector.to_vec(), scope, metadata }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> RemoteIndex<'_, L, E, S, V> {
    /// Right after opening: uploads the vectors of the indexed memories that the remote index does not
    /// hold (stored before the switch to it), then drops every vector from the in-RAM index. Returns how
    /// many were uploaded.
    pub async fn backfill_remote(&self) -> Result<usize> {
        if !self.has_remote_vectors() {
            return Ok(0);
        }
        let memories: Vec<StoredMemory> = {
            let index = self.index.borrow();
            let listed = index.list(usize::MAX, &|_| true);
            listed
                .into_iter()
                .map(|m| StoredMemory { item: m.item.clone(), embedding: index.vector(&m.item.id) })
                .collect()
        };
        let uploaded = self.hand_over(&memories.iter().collect::<Vec<_>>()).await?;
        let mut index = self.index.borrow_mut();
        index.clear(); // and refilled without vectors: the arena's memory is given back
        index.reserve(memories.len());
        for mut memory in memories {
            self.remote.take_vector(&mut memory);
            index.upsert(memory)?;
        }
        Ok(uploaded)
    }

    /// Uploads the vectors of `memories` (loaded from storage) that the remote index does not hold yet.
    pub(crate) async fn hand_over(&self, memories: &[&StoredMemory]) -> Result<usize> {
        let Some(remote) = self.remote.index() else { return Ok(0) };
        let points: Vec<VectorPoint> =
            memories.iter().filter_map(|m| Some(point(&m.item, m.embedding.as_ref()?))).collect();
        if points.is_empty() {
            return Ok(0);
        }
        let ids: Vec<String> = points.iter().map(|point| point.id.clone()).collect();
        let missing: HashSet<String> = remote.missing(&ids).await?.into_iter().collect();
        let upload: Vec<VectorPoint> = points.into_iter().filter(|point| missing.contains(&point.id)).collect();
        remote.upsert(&upload).await?;
        Ok(upload.len())
    }

    /// The vectors of `ids` that exist: from the remote index when there is one (one batched read), else
    /// from the in-RAM index.
    pub(crate) async fn vectors_of(&self, ids: &[String]) -> Result<HashMap<String, Vec<f32>>> {
        match self.remote.index() {
            Some(_) if ids.is_empty() => Ok(HashMap::new()),
            Some(remote) => Ok(remote.vectors(ids).await?.into_iter().collect()),
            None => {
                let index = self.index.borrow();
                Ok(ids.iter().filter_map(|id| Some((id.clone(), index.vector(id)?))).collect())
            }
        }
    }

    /// Before a commit: what it owes the remote index. A write-back of an unchanged text without its vector
    /// (pin, decay, a metadata change) is given its vector, read from the remote index, when storage keeps
    /// vectors or the remote copy's scope or metadata change; a changed text without one loses its vector.
    pub(crate) async fn prepare_remote(&self, changes: &mut Changeset) -> Result<RemoteWrite> {
        let mut plan = RemoteWrite::default();
        if !self.has_remote_vectors() {
            return Ok(plan);
        }
        let keeps_vectors = self.storage.keeps_memories();
        let mut fill: Vec<(usize, bool)> = Vec::new();
        {
            let index = self.index.borrow();
            for (at, memory) in changes.upserts.iter().enumerate() {
                let (item, old) = (&memory.item, index.get(&memory.item.id).map(|old| &old.item));
                let moved = old.is_none_or(|old| old.scope != item.scope || old.metadata != item.metadata);
                match &memory.embedding {
                    Some(vector) => plan.upserts.push(point(item, vector)),
                    None if !self.remote.holds(&item.id) => {}
                    None if old.is_none_or(|old| old.memory != item.memory) => plan.vectorless.push(item.id.clone()),
                    None if keeps_vectors || moved => fill.push((at, moved)),
                    None => {}
                }
            }
        }
        let ids: Vec<String> = fill.iter().map(|(at, _)| changes.upserts[*at].item.id.clone()).collect();
        let mut found = self.vectors_of(&ids).await?;
        for (at, moved) in fill {
            let memory = &mut changes.upserts[at];
            memory.embedding = found.remove(&memory.item.id);
            match &memory.embedding {
                Some(vector) if moved => plan.upserts.push(point(&memory.item, vector)),
                Some(_) => {}
                None => plan.vectorless.push(memory.item.id.clone()),
            }
        }
        Ok(plan)
    }

    /// Before storage is written: the vectors `plan` writes, after replaying pending deletes. A failure
    /// fails the commit (nothing kept).
    pub(crate) async fn remote_before_commit(&self, plan: &RemoteWrite) -> Result<()> {
        let Some(remote) = self.remote.index() else { return Ok(()) };
        if plan.upserts.is_empty() {
            return Ok(()); // a delete or a write-back: nothing the remote index must hold first
        }
        self.replay_remote().await?;
        remote.upsert(&plan.upserts).await
    }

    /// After storage was written: removes the vectors of deleted memories and of memories now without one
    /// (kept pending on failure, replayed later).
    pub(crate) async fn remote_after_commit(&self, deletes: &[String], plan: RemoteWrite) {
        if !self.has_remote_vectors() {
            return;
        }
        plan.vectorless.iter().for_each(|id| self.remote.forget(id));
        self.delete_or_defer(deletes.iter().cloned().chain(plan.vectorless).collect()).await;
    }
}
