//! Reading and changing memories one by one or a scope at a time: `get`, `getAll` (paginated), `update`,
//! `delete` and `deleteAll` (hard or soft), `restore`, `history`, `reset`. Expired and soft-deleted
//! memories are invisible to reads; expired ones a read comes across are purged, with history.

use serde::Serialize;

use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::limits::memory_id;
use crate::core::model::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pipeline_options::required_text;
use crate::core::read::Read;
use crate::core::storage::{Changeset, RemoteChange, Storage};
use crate::core::vector_store::{Listing, VectorStore};

/// One page of `getAll`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Page {
    pub results: Vec<MemoryItem>,
    /// How many memories match, over all pages.
    pub total_count: usize,
    /// True when a later page has more.
    pub has_more: bool,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The live memory with this id: `None` when unknown, soft-deleted or expired (an expired one is purged).
    pub async fn get(&self, id: &str) -> Result<Option<MemoryItem>> {
        let id = memory_id(id)?;
        let Some(memory) = self.find(id).await? else { return Ok(None) };
        let now = self.now_iso();
        if memory.item.lifecycle.is_expired(&now) {
            self.purge(vec![memory.item]).await?;
            return Ok(None);
        }
        Ok(Some(memory.item).filter(|item| !item.lifecycle.is_deleted()))
    }

    /// The memories of a scope that pass the read, oldest first: `read.limit` of them from `read.offset`.
    pub async fn get_all(&self, read: &Read) -> Result<Page> {
        if let Some(at) = read.window.as_of {
            return self.get_all_as_of(read, at).await;
        }
        self.load_scope(&read.scope).await?;
        let now = self.now_iso();
        let (results, total_count, expired) = {
            let index = self.index.borrow();
            let keep = |item: &MemoryItem| read.keeps(item, &now);
            let (offset, limit) = (read.offset, read.limit);
            let listing = Listing { scope: &read.scope, keep: &keep, plain: read.plain(), now: &now, offset, limit };
            let listed = index.list_page(&listing);
            let items = |memories: Vec<&StoredMemory>| memories.into_iter().map(|m| m.item.clone()).collect::<Vec<_>>();
            (items(listed.page), listed.total, items(listed.expired))
        };
        self.purge(expired).await?;
        let has_more = read.offset.saturating_add(results.len()) < total_count;
        Ok(Page { results, total_count, has_more })
    }

    /// The live memory `id`, or `NOT_FOUND`.
    pub(crate) async fn existing(&self, id: &str) -> Result<StoredMemory> {
        let id = memory_id(id)?;
        let memory = self.find(id).await?.filter(|m| m.item.lifecycle.is_live(&self.now_iso()));
        memory.ok_or_else(|| MemoryError::NotFound(id.to_owned()))
    }

    /// Replaces a memory's text (re-embedded, re-hashed) and records an UPDATE (`update_with` changes more).
    pub async fn update(&self, id: &str, text: &str) -> Result<()> {
        let text = required_text("text", Some(text))?;
        self.update_with(id, &super::update::UpdatePatch::text(text)).await.map(drop)
    }

    /// Removes a memory (or, `soft`, marks it deleted) and records a DELETE.
    pub async fn delete(&self, id: &str, soft: bool) -> Result<()> {
        let memory = self.existing(id).await?;
        self.commit(self.deletion(vec![memory], soft)).await
    }

    /// Removes (or, `read.soft`, marks deleted) every live memory of a scope that passes its filter
    /// (compressed originals included), recording a DELETE for each; returns how many.
    pub async fn delete_all(&self, read: &Read) -> Result<usize> {
        read.scope.clone().validated()?; // never "every scope", whoever built `read`
        self.load_scope(&read.scope).await?;
        let now = self.now_iso();
        let window = crate::core::retrieval::Window { include_compressed: true, ..read.window };
        let live = Read { include_deleted: false, window, ..read.clone() };
        let ids: Vec<String> = {
            let index = self.index.borrow();
            index.list(usize::MAX, &|item| live.keeps(item, &now)).into_iter().map(|m| m.item.id.clone()).collect()
        };
        let doomed: Vec<StoredMemory> = ids.iter().filter_map(|id| self.indexed(id)).collect();
        let count = doomed.len();
        self.commit(self.deletion(doomed, read.soft)).await?;
        Ok(count)
    }

    /// Brings back a soft-deleted memory, recording an ADD.
    pub async fn restore(&self, id: &str) -> Result<()> {
        let id = memory_id(id)?;
        let mut memory = self.find(id).await?.ok_or_else(|| MemoryError::NotFound(id.to_owned()))?;
        if !memory.item.lifecycle.is_deleted() {
            return Err(MemoryError::InvalidInput(format!("memory {id} is not deleted")));
        }
        if memory.item.lifecycle.is_expired(&self.now_iso()) {
            self.purge(vec![memory.item]).await?;
            return Err(MemoryError::Expired(id.to_owned()));
        }
        memory.item.lifecycle.deleted_at = None;
        memory.item.updated_at = self.now_iso();
        let record = self.record(&memory.item, EventKind::Add, None, Some(memory.item.memory.clone()));
        self.commit(Changeset { upserts: vec![memory], history: vec![record], ..Changeset::default() }).await
    }

    /// The writes that delete `memories` (soft: mark them), each with its DELETE record.
    pub(crate) fn deletion(&self, memories: Vec<StoredMemory>, soft: bool) -> Changeset {
        let mut changes = Changeset::default();
        let now = self.now_iso();
        for mut memory in memories {
            let old = Some(memory.item.memory.clone());
            changes.history.push(self.record(&memory.item, EventKind::Delete, old, None));
            if soft {
                memory.item.lifecycle.deleted_at = Some(now.clone());
                changes.upserts.push(memory);
            } else {
                changes.deletes.push(memory.item.id);
            }
        }
        changes
    }

    /// Deletes `expired` memories, each with a DELETE record (nothing to do for none).
    pub(crate) async fn purge(&self, expired: Vec<MemoryItem>) -> Result<usize> {
        let count = expired.len();
        let memories = expired.into_iter().map(|item| StoredMemory { item, embedding: None }).collect();
        self.commit(self.deletion(memories, false)).await?;
        Ok(count)
    }

    /// A memory's audit trail, oldest first.
    pub async fn history(&self, id: &str) -> Result<Vec<HistoryRecord>> {
        let id = memory_id(id)?;
        self.storage.history(id).await
    }

    /// Deletes every memory and all history.
    pub async fn reset(&self) -> Result<()> {
        self.storage.clear().await?;
        self.side.borrow_mut().clear();
        self.mirror(true, &[], Vec::new())?;
        self.tell_peers(RemoteChange { cleared: true, ..RemoteChange::default() });
        self.remote_vectors().clear_or_defer().await;
        Ok(())
    }
}
