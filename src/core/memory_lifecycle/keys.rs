//! Memory addressed by key (agent key/value entries): `store` upserts a value under a key in a scope without an LLM;
//! `getByKey`, `deleteByKey`, `reflections` (keys `reflection:*`) and `share` (copy keys matching a glob to
//! another scope).

use serde::Serialize;

use super::expiry::missing_key;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::{content_hash, new_id};
use crate::core::lifecycle::glob::Glob;
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::limits::check_id_chars;
use crate::core::memory_lifecycle::MemoryLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddWarning, EventKind, MemoryItem, Metadata, StoredMemory, WarningCode};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pipeline_options::required_text;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// What `store()` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stored {
    pub id: String,
    /// `ADD` for a new key, `UPDATE` for an existing one.
    pub event: EventKind,
    pub warnings: Vec<AddWarning>,
}

/// A key: 1–512 characters, without control characters or line separators.
fn checked_key(key: &str) -> Result<&str> {
    let key = required_text("key", Some(key))?;
    if key.chars().count() > 512 {
        return Err(MemoryError::InvalidInput("key must be at most 512 characters".into()));
    }
    check_id_chars("key", key)?;
    Ok(key)
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryLifecycle<'_, L, E, S, V> {
    /// The memory of `scope` (exactly) with `key`, whatever its state.
    fn keyed(&self, scope: &Scope, key: &str) -> Option<StoredMemory> {
        self.index.borrow().find_by_key(scope, key).cloned()
    }

    /// Stores `value` under `key` in `scope` (an UPDATE when the key exists, else an ADD), with no LLM. A
    /// given `embedding` is used as is (its length must match); otherwise the value is embedded when an
    /// embedder is configured, and a failure stores it keyword-searchable with a `NOT_EMBEDDED` warning (and
    /// embeds it later, see `engine::deferred_vectors`).
    pub async fn store(
        &self,
        key: &str,
        value: &str,
        scope: &Scope,
        embedding: Option<Vec<f32>>,
        metadata: Metadata,
        write: &WriteLifecycle,
    ) -> Result<Stored> {
        let (key, value) = (checked_key(key)?, required_text("value", Some(value))?);
        let scope = scope.clone().validated()?;
        self.load_scope(&scope).await?;
        let mut warnings = Vec::new();
        let vector = match embedding {
            Some(given) => Some(self.fit_given(given)?),
            None if self.embedder.is_configured() => match self.embed_for_index(value).await {
                Ok(vector) => Some(vector),
                Err(error @ MemoryError::DimensionMismatch { .. }) => return Err(error),
                Err(error) => {
                    warnings.push(AddWarning::caused_by_with(
                        WarningCode::NotEmbedded,
                        "stored without a vector",
                        &error,
                    ));
                    None
                }
            },
            None => None,
        };
        let now = self.now_iso();
        let mut lifecycle = write.for_new(value, vector.as_deref(), self.centroid(&scope).as_deref());
        lifecycle.key = Some(key.to_owned());
        // An expired or soft-deleted entry under the key is gone for every read: it is deleted (with history)
        // and the value gets a new memory.
        let mut changes = Changeset::default();
        let mut existing = self.keyed(&scope, key);
        if let Some(gone) = existing.take_if(|m| !m.item.lifecycle.is_live(&now)) {
            changes = self.deletion(vec![gone], false);
        }
        let event = if existing.is_some() { EventKind::Update } else { EventKind::Add };
        let (id, created_at, old) = match &existing {
            Some(memory) => (memory.item.id.clone(), memory.item.created_at.clone(), Some(memory.item.memory.clone())),
            None => (new_id(), now.clone(), None),
        };
        let item = MemoryItem {
            id: id.clone(),
            memory: value.to_owned(),
            hash: content_hash(value),
            metadata: metadata.into(),
            score: None,
            fused_score: None,
            created_at,
            updated_at: now,
            scope: scope.clone(),
            lifecycle,
        };
        changes.history.push(self.record(&item, event, old, Some(value.to_owned())));
        changes.upserts.push(StoredMemory { item, embedding: vector });
        if !warnings.is_empty() {
            self.note_unsettled(&mut changes, &[value.to_owned()]); // embedded later, when it can be
        }
        self.trim(&scope, &mut changes);
        self.commit(changes).await?;
        Ok(Stored { id, event, warnings })
    }

    /// The live memory with `key` in `scope`: `NOT_FOUND` when there is none, `EXPIRED` when its TTL ran
    /// out (it is purged then).
    pub async fn get_by_key(&self, key: &str, scope: &Scope) -> Result<MemoryItem> {
        let (key, scope) = (checked_key(key)?, scope.clone().validated()?);
        self.load_scope(&scope).await?;
        let memory = self.keyed(&scope, key).filter(|m| !m.item.lifecycle.is_deleted());
        let memory = memory.ok_or_else(|| missing_key(key, false))?;
        if memory.item.lifecycle.is_expired(&self.now_iso()) {
            self.purge(vec![memory.item]).await?;
            return Err(missing_key(key, true));
        }
        Ok(memory.item)
    }

    /// Deletes the memory with `key` in `scope`, with history; `NOT_FOUND` when there is none.
    pub async fn delete_by_key(&self, key: &str, scope: &Scope) -> Result<()> {
        let item = self.get_by_key(key, scope).await?;
        self.commit(self.deletion(vec![StoredMemory { item, embedding: None }], false)).await
    }

    /// The live memories of `scope` whose key starts with `reflection:`, oldest first.
    pub async fn reflections(&self, scope: &Scope) -> Result<Vec<MemoryItem>> {
        let scope = scope.clone().validated()?;
        let now = self.now_iso();
        let reflection = |item: &MemoryItem| {
            item.lifecycle.is_live(&now) && item.lifecycle.key.as_deref().is_some_and(|k| k.starts_with("reflection:"))
        };
        Ok(self.scope_memories(&scope, &reflection).await?.into_iter().map(|m| m.item).collect())
    }

    /// Copies the live keyed memories of `from` whose key matches `pattern` into `to` (an existing key there
    /// is replaced), each with its history; returns how many were copied.
    pub async fn share(&self, from: &Scope, to: &Scope, pattern: &str) -> Result<usize> {
        let (from, to, glob) = (from.clone().validated()?, to.clone().validated()?, Glob::parse(pattern)?);
        self.load_scope(&to).await?;
        self.settle_quietly().await;
        let now = self.now_iso();
        let matching = |item: &MemoryItem| {
            item.scope == from
                && item.lifecycle.is_live(&now)
                && item.lifecycle.key.as_deref().is_some_and(|key| glob.matches(key))
        };
        let sources = self.scope_memories(&from, &matching).await?;
        let vectors =
            self.remote_vectors().vectors_of(&sources.iter().map(|m| m.item.id.clone()).collect::<Vec<_>>()).await?;
        let mut changes = Changeset::default();
        for source in &sources {
            let key = source.item.lifecycle.key.clone().unwrap_or_default();
            let existing = self.keyed(&to, &key);
            let event = if existing.is_some() { EventKind::Update } else { EventKind::Add };
            let old = existing.as_ref().map(|m| m.item.memory.clone());
            let item = MemoryItem {
                id: existing.map_or_else(new_id, |m| m.item.id),
                scope: to.clone(),
                created_at: now.clone(),
                updated_at: now.clone(),
                ..source.item.clone()
            };
            changes.history.push(self.record(&item, event, old, Some(item.memory.clone())));
            let embedding = vectors.get(&source.item.id).cloned();
            changes.upserts.push(StoredMemory { item, embedding });
        }
        self.trim(&to, &mut changes);
        self.commit(changes).await?;
        Ok(sources.len())
    }
}
