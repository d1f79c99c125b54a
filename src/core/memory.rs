//! The memory engine: an in-RAM search index in front of a `Storage`, plus the model providers.
//! Every write goes to storage first (all or nothing) and only then into the index.

use std::cell::RefCell;

use super::config::Prompts;
use super::error::{MemoryError, Result};
use super::graph::Graph;
use super::identity::{content_hash, new_id, now_iso};
use super::keyword::KeywordIndex;
use super::models::{Embedder, Llm};
use super::options::required_text;
use super::read::Read;
use super::storage::{Changeset, Storage};
use super::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use super::vector_store::{normalized, InMemoryVectorStore, VectorStore};

/// Fact-based memory over an LLM `L`, an embedder `E`, persistence `S` and a search index `V`.
pub struct MemoryEngine<L, E, S, V = InMemoryVectorStore> {
    pub(crate) llm: L,
    pub(crate) embedder: E,
    pub(crate) storage: S,
    pub(crate) index: RefCell<V>,
    /// BM25 over the same memories' texts, kept in step with `index`.
    pub(crate) keywords: RefCell<KeywordIndex>,
    pub(crate) prompts: Prompts,
    /// The entity graph; `None` while graph memory is off.
    pub(crate) graph: RefCell<Option<Graph>>,
}

/// A history record for `item`.
pub(crate) fn history_record(
    item: &MemoryItem,
    event: EventKind,
    old_value: Option<String>,
    new_value: Option<String>,
) -> HistoryRecord {
    HistoryRecord {
        id: new_id(),
        memory_id: item.id.clone(),
        event,
        old_value,
        new_value,
        timestamp: now_iso(),
        is_deleted: event == EventKind::Delete,
        scope: item.scope.clone(),
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// A memory with an empty index, for storage that holds nothing yet (the in-memory default).
    pub fn new(llm: L, embedder: E, storage: S, prompts: Prompts) -> Self {
        Self::new_with_index(llm, embedder, storage, prompts, V::default())
    }

    /// Like `new`, with a configured empty search index (e.g. an int8 one).
    pub fn new_with_index(llm: L, embedder: E, storage: S, prompts: Prompts, index: V) -> Self {
        Self {
            llm,
            embedder,
            storage,
            index: RefCell::new(index),
            keywords: RefCell::default(),
            prompts,
            graph: RefCell::new(None),
        }
    }

    /// Opens the memory: loads every stored memory into the search index.
    pub async fn open(llm: L, embedder: E, storage: S, prompts: Prompts) -> Result<Self> {
        Self::open_with_index(llm, embedder, storage, prompts, V::default()).await
    }

    /// Like `open`, loading into a configured empty search index (e.g. an int8 one).
    pub async fn open_with_index(llm: L, embedder: E, storage: S, prompts: Prompts, mut index: V) -> Result<Self> {
        let mut keywords = KeywordIndex::default();
        let memories = storage.load_memories().await?;
        index.reserve(memories.len());
        for memory in memories {
            keywords.upsert(&memory.item.id, &memory.item.memory);
            index.upsert(memory)?;
        }
        Ok(Self {
            llm,
            embedder,
            storage,
            index: RefCell::new(index),
            keywords: RefCell::new(keywords),
            prompts,
            graph: RefCell::new(None),
        })
    }

    /// Writes `changes` to storage, then mirrors them in the index.
    pub(crate) async fn commit(&self, mut changes: Changeset) -> Result<()> {
        if let Some(graph) = self.graph.borrow().as_ref() {
            graph.cascade(&mut changes.graph, &changes.deletes);
        }
        if changes.is_empty() {
            return Ok(());
        }
        self.storage.commit(&changes).await?;
        if let Some(graph) = self.graph.borrow_mut().as_mut() {
            graph.apply(&changes.graph);
        }
        self.mirror(false, &changes.deletes, changes.upserts)
    }

    /// Brings the in-RAM index in line with what storage now holds: emptied when `cleared`, then `deletes`
    /// removed and `upserts` written. Every index change goes through here (own commits, reset, other tabs).
    pub(crate) fn mirror(&self, cleared: bool, deletes: &[String], upserts: Vec<StoredMemory>) -> Result<()> {
        let mut index = self.index.borrow_mut();
        let mut keywords = self.keywords.borrow_mut();
        if cleared {
            index.clear();
            keywords.clear();
            if let Some(graph) = self.graph.borrow_mut().as_mut() {
                graph.clear();
            }
        }
        for id in deletes {
            index.remove(id);
            keywords.remove(id);
        }
        for memory in upserts {
            let (id, text) = (memory.item.id.clone(), memory.item.memory.clone());
            index.upsert(memory)?;
            keywords.upsert(&id, &text);
        }
        Ok(())
    }

    /// Embeds one text to a unit vector the index accepts.
    pub(crate) async fn embed_for_index(&self, text: &str) -> Result<Vec<f32>> {
        let vector = self.embedder.embed_one(text).await?;
        self.fit_index(vector)
    }

    /// Embeds `text` when an embedder is configured; `None` without one (a keyword-only memory).
    pub(crate) async fn embed_if_configured(&self, text: &str) -> Result<Option<Vec<f32>>> {
        if !self.embedder.is_configured() {
            return Ok(None);
        }
        self.embed_for_index(text).await.map(Some)
    }

    /// Normalises `vector` and checks its length against the index.
    pub(crate) fn fit_index(&self, vector: Vec<f32>) -> Result<Vec<f32>> {
        let length = vector.len();
        let vector = normalized(vector)
            .ok_or_else(|| MemoryError::EmbeddingResponse("embedding is a zero or non-finite vector".into()))?;
        match self.index.borrow().dimension() {
            Some(expected) if expected != length => Err(MemoryError::DimensionMismatch { expected, actual: length }),
            _ => Ok(vector),
        }
    }

    /// The memory with this id, if any.
    pub async fn get(&self, id: &str) -> Result<Option<MemoryItem>> {
        let id = required_text("memoryId", Some(id))?;
        Ok(self.find(id).await?.map(|memory| memory.item))
    }

    /// The memories of a scope (that pass its filter), oldest first, at most `read.limit`.
    pub async fn get_all(&self, read: &Read) -> Result<Vec<MemoryItem>> {
        self.load_scope(&read.scope).await?;
        let keep = |item: &MemoryItem| read.keeps(item);
        Ok(self.index.borrow().list(read.limit, &keep).into_iter().map(|m| m.item.clone()).collect())
    }

    async fn existing(&self, id: &str) -> Result<StoredMemory> {
        let id = required_text("memoryId", Some(id))?;
        self.find(id).await?.ok_or_else(|| MemoryError::NotFound(id.to_owned()))
    }

    /// Replaces a memory's text (re-embedded, re-hashed) and records an UPDATE.
    pub async fn update(&self, id: &str, text: &str) -> Result<()> {
        let text = required_text("text", Some(text))?;
        self.existing(id).await?;
        let vector = self.embed_if_configured(text).await?;
        let mut memory = self.existing(id).await?;
        let old = std::mem::replace(&mut memory.item.memory, text.to_owned());
        memory.item.hash = content_hash(text);
        memory.item.updated_at = now_iso();
        memory.embedding = vector;
        let record = history_record(&memory.item, EventKind::Update, Some(old), Some(text.to_owned()));
        self.commit(Changeset { upserts: vec![memory], deletes: vec![], history: vec![record], ..Changeset::default() })
            .await
    }

    /// Removes a memory and records a DELETE.
    pub async fn delete(&self, id: &str) -> Result<()> {
        let memory = self.existing(id).await?;
        let record = history_record(&memory.item, EventKind::Delete, Some(memory.item.memory.clone()), None);
        self.commit(Changeset {
            upserts: vec![],
            deletes: vec![memory.item.id],
            history: vec![record],
            ..Changeset::default()
        })
        .await
    }

    /// Removes every memory of a scope that passes its filter, recording a DELETE for each; returns how many.
    pub async fn delete_all(&self, read: &Read) -> Result<usize> {
        read.scope.clone().validated()?; // never "every scope", whoever built `read`
        self.load_scope(&read.scope).await?;
        let doomed: Vec<MemoryItem> = self
            .index
            .borrow()
            .list(usize::MAX, &|item| read.keeps(item))
            .into_iter()
            .map(|m| m.item.clone())
            .collect();
        let history = doomed
            .iter()
            .map(|item| history_record(item, EventKind::Delete, Some(item.memory.clone()), None))
            .collect();
        let deletes: Vec<String> = doomed.into_iter().map(|item| item.id).collect();
        let count = deletes.len();
        self.commit(Changeset { upserts: vec![], deletes, history, ..Changeset::default() }).await?;
        Ok(count)
    }

    /// A memory's audit trail, oldest first.
    pub async fn history(&self, id: &str) -> Result<Vec<HistoryRecord>> {
        let id = required_text("memoryId", Some(id))?;
        self.storage.history(id).await
    }

    /// Deletes every memory and all history.
    pub async fn reset(&self) -> Result<()> {
        self.storage.clear().await?;
        self.mirror(true, &[], Vec::new())
    }
}
