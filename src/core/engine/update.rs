//! `update(id, text | {text, metadata, expirationDate})`, as mem0 v3 has it: a new text is re-embedded and
//! re-hashed; metadata is merged into the memory's (scope keys are left out, they never move a memory);
//! an expiration date is set, or cleared with `null`. One UPDATE record either way.

use serde::{Deserialize, Deserializer};

use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::content_hash;
use crate::core::model::expiration_date;
use crate::core::model::scope::IDENTITY_KEYS;
use crate::core::model::types::{EventKind, MemoryItem, Metadata};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// What `update` changes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdatePatch {
    /// The new text (may be empty).
    pub text: Option<String>,
    /// mem0's deprecated name of `text`; `text` wins when both are given.
    pub data: Option<String>,
    /// Merged into the memory's metadata.
    pub metadata: Option<Metadata>,
    /// `YYYY-MM-DD`, or `null` to clear it.
    #[serde(default, deserialize_with = "given", alias = "expiration_date")]
    pub expiration_date: Option<Option<String>>,
}

/// `Some` whenever the key is present, so an explicit `null` reads as "clear".
fn given<'de, D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

impl UpdatePatch {
    /// A new text and nothing else.
    pub fn text(text: &str) -> Self {
        Self { text: Some(text.to_owned()), ..Self::default() }
    }

    /// The text to store, if the patch changes it.
    fn new_text(&self) -> Option<&str> {
        self.text.as_deref().or(self.data.as_deref())
    }

    /// Checks that the patch changes something, and its date; returns the date to set (`Some(None)`: clear).
    fn checked_date(&self) -> Result<Option<Option<String>>> {
        if self.new_text().is_none() && self.metadata.is_none() && self.expiration_date.is_none() {
            let why = "At least one of text, metadata, or expirationDate must be provided.";
            return Err(MemoryError::InvalidInput(why.into()));
        }
        match &self.expiration_date {
            Some(Some(date)) => Ok(Some(Some(expiration_date::normalized(date)?))),
            other => Ok(other.clone()),
        }
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Applies `patch` to memory `id` (`NOT_FOUND` when it is not live) and records an UPDATE; returns it.
    pub async fn update_with(&self, id: &str, patch: &UpdatePatch) -> Result<MemoryItem> {
        let date = patch.checked_date()?;
        self.existing(id).await?;
        let vector = match patch.new_text() {
            Some(text) => Some(self.embed_if_configured(text).await?),
            None => None,
        };
        let mut memory = self.existing(id).await?;
        let old = memory.item.memory.clone();
        if let (Some(text), Some(vector)) = (patch.new_text(), vector) {
            memory.item.memory = text.to_owned();
            memory.item.hash = content_hash(text);
            memory.embedding = vector;
        }
        let metadata = &mut memory.item.metadata;
        for (key, value) in patch.metadata.iter().flatten() {
            if !IDENTITY_KEYS.contains(&key.as_str()) {
                metadata.insert(key.clone(), value.clone());
            }
        }
        match date {
            Some(Some(date)) => drop(metadata.insert(expiration_date::KEY.into(), date.into())),
            Some(None) => drop(metadata.remove(expiration_date::KEY)),
            None => {}
        }
        memory.item.updated_at = self.now_iso();
        let new = memory.item.memory.clone();
        let record = self.record(&memory.item, EventKind::Update, Some(old), Some(new));
        let item = memory.item.clone();
        self.commit(Changeset { upserts: vec![memory], history: vec![record], ..Changeset::default() }).await?;
        Ok(item)
    }
}
