//! What `dream` keeps per scope: the core profile (an agent's MEMORY.md) and the dream diary — which
//! journals were consolidated (by content hash, so one is never processed twice) and what each dream changed
//! and why.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{CORE_PROFILE, DREAM_DIARY};
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model::types::MemoryEvent;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::Storage;
use crate::core::tiers::Tiers;
use crate::core::vector_store::VectorStore;

/// The diary keeps this many entries per scope (the oldest go first).
pub const DIARY_ENTRIES_KEPT: usize = 100;

/// A scope's core profile: one Markdown document `dream` rewrites.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoreProfile {
    pub markdown: String,
    pub updated_at: String,
}

/// One dream, as the diary keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiaryEntry {
    pub at: String,
    /// The journal days consolidated.
    pub journals: Vec<String>,
    /// Why the model changed what it changed, in its words.
    pub reason: String,
    pub profile_changed: bool,
    /// The memory changes applied (ADD / UPDATE / DELETE / NONE), as `add()` reports them.
    pub events: Vec<MemoryEvent>,
}

/// A scope's dream diary, as stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DreamState {
    /// Journal day → hash of the journal as consolidated.
    pub consolidated: BTreeMap<String, String>,
    pub entries: Vec<DiaryEntry>,
}

impl DreamState {
    /// `scope`'s diary (empty before the first dream).
    pub async fn load<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default>(
        engine: &MemoryEngine<L, E, S, V>,
        scope: &Scope,
    ) -> Result<Self> {
        let value = engine.side_record(DREAM_DIARY, &scope.key()).await?;
        Ok(value.and_then(|value| crate::core::value_de::from_value(&value).ok()).unwrap_or_default())
    }

    /// True when the journal of `date` was consolidated with this `hash`.
    pub fn consolidated(&self, date: &str, hash: &str) -> bool {
        self.consolidated.get(date).is_some_and(|done| done == hash)
    }

    /// Records a dream: its journals (day → hash) and its entry.
    pub fn record(&mut self, journals: &[(String, String)], entry: DiaryEntry) {
        for (date, hash) in journals {
            self.consolidated.insert(date.clone(), hash.clone());
        }
        self.entries.push(entry);
        let excess = self.entries.len().saturating_sub(DIARY_ENTRIES_KEPT);
        self.entries.drain(..excess);
    }

    /// The write that stores this diary for `scope`.
    pub fn write(&self, scope: &Scope) -> SideWrite {
        SideWrite::put(DREAM_DIARY, &scope.key(), serde_json::to_value(self).unwrap_or(Value::Null))
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Tiers<'_, L, E, S, V> {
    /// `scope`'s core profile, `None` before the first dream wrote one.
    pub async fn core_profile(&self, scope: &Scope) -> Result<Option<CoreProfile>> {
        let value = self.side_record(CORE_PROFILE, &scope.key()).await?;
        Ok(value.and_then(|value| crate::core::value_de::from_value(&value).ok()))
    }

    /// `scope`'s dream diary, oldest dream first.
    pub async fn dream_diary(&self, scope: &Scope) -> Result<Vec<DiaryEntry>> {
        Ok(DreamState::load(self, scope).await?.entries)
    }
}
