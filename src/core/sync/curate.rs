//! Curating what a sync brought (`curate: true`): each memory that arrived from another device is judged by
//! `add()`'s update decision against the older memories of its scope, as if it were a new fact, so two
//! devices that each learnt "works at X" and "works at Y" end with one current fact. An UPDATE of an older
//! memory merges the arrival into it (the arrival is deleted), a DELETE deletes the older one, a NONE naming
//! one deletes the arrival as its duplicate; an ADD changes nothing. The writes are ordinary commits, so the
//! recorder queues them for the next push.
//!
//! Only the device that receives the newer memory judges a pair (older neighbours only). When two devices
//! still judge the same pair (a third device pulled both memories), what they write is derived from the
//! memories, not from the clock or randomness: history records are dated at the later of the two memories'
//! `updatedAt` and their ids hash the pair, the event and the texts, so equal decisions write equal records
//! (kept once) and different ones stay apart (both kept everywhere). The decided text, and the vector of a
//! rewritten text, are the LLM's and the embedder's: the last write in the log wins, as for any write.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::core::engine::memory::history_record;
use crate::core::engine::pipeline::{Destination, Embedded, NEIGHBOURS_PER_FACT};
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::identity::content_hash;
use crate::core::model::types::{
    AddResult, AddWarning, EventKind, HistoryRecord, MemoryItem, StoredMemory, WarningCode,
};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::plan::Op;
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

/// What `sync_curate` did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Curated {
    /// Arrived memories the LLM was asked about (those with older neighbours).
    pub judged: usize,
    /// Older memories rewritten with an arrived fact.
    pub updated: usize,
    /// Memories deleted: arrivals merged into an older memory or duplicating one, and older ones the LLM deleted.
    pub deleted: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Judges the memories `ids` (`Applied::arrived`), oldest first, against the older memories of their
    /// scopes, and commits what the LLM decided. An id no longer here is skipped; a failed decision is a
    /// `DECISION_FAILED` warning and leaves the memories as they are.
    pub async fn sync_curate(&self, ids: &[String]) -> Result<Curated> {
        let mut curated = Curated::default();
        let mut seen = HashSet::new();
        let mut arrived: Vec<StoredMemory> =
            ids.iter().filter(|id| seen.insert(id.as_str())).filter_map(|id| self.indexed(id)).collect();
        if arrived.is_empty() {
            return Ok(curated);
        }
        if !self.llm.is_configured() {
            let why = "curating needs an LLM, and llm.provider is \"none\": nothing was curated";
            curated.warnings.push(AddWarning::new(WarningCode::DecisionFailed, why));
            return Ok(curated);
        }
        arrived.sort_by(|a, b| age(&a.item).cmp(&age(&b.item)));
        for memory in arrived {
            self.curate_one(&memory.item.id, &mut curated).await?;
        }
        Ok(curated)
    }

    /// Judges the memory `id` against the older live memories of its scope, and commits the outcome.
    async fn curate_one(&self, id: &str, curated: &mut Curated) -> Result<()> {
        let Some(scope) = self.index.borrow().get(id).map(|m| m.item.scope.clone()) else { return Ok(()) };
        self.load_scope(&scope).await?;
        let _turn = self.decision_turn(&scope).await?; // as add() does: one decision of a scope at a time
        let now = self.now_iso();
        let Some(arrival) = self.indexed(id).filter(|m| m.item.lifecycle.is_live(&now)) else { return Ok(()) };
        let fact = vec![arrival.item.memory.clone()];
        let embedded: Embedded = arrival.embedding.clone().map(|v| (fact[0].clone(), Some(v))).into_iter().collect();
        let older = |item: &MemoryItem| {
            scope.contains(&item.scope) && item.lifecycle.is_live(&now) && age(item) < age(&arrival.item)
        };
        let shown = self.neighbours(&fact, &embedded, NEIGHBOURS_PER_FACT, &scope, &older).await?;
        if shown.is_empty() {
            return Ok(());
        }
        curated.judged += 1;
        let ops = match self.decide(&fact, &shown, &scope).await {
            Ok((ops, warnings)) => {
                curated.warnings.extend(warnings);
                ops
            }
            Err(why) => {
                let context = format!("curating \"{}\"", fact[0]);
                curated.warnings.push(AddWarning::caused_by_with(WarningCode::DecisionFailed, &context, &why));
                return Ok(());
            }
        };
        let before: HashMap<&str, &MemoryItem> = shown.iter().map(|m| (m.item.id.as_str(), &m.item)).collect();
        let judged = |target: &StoredMemory| before.contains_key(target.item.id.as_str());
        let ops: Vec<Op> = ops
            .into_iter()
            .filter(|op| match op {
                Op::Update { target, .. } | Op::Delete { target } | Op::Keep { target } => judged(target),
                Op::Add { .. } => false,
            })
            .collect();
        let duplicate = ops.iter().any(|op| matches!(op, Op::Keep { .. }));
        let to = Destination {
            scope: scope.clone(),
            metadata: (*arrival.item.metadata).clone(),
            write: Default::default(),
            centroid: None,
        };
        let (result, mut changes) = self.apply(ops, embedded, &to, AddResult::default(), false).await?;
        curated.warnings.extend(result.warnings);
        for memory in &mut changes.upserts {
            let was = before.get(memory.item.id.as_str()).map_or("", |item| item.updated_at.as_str());
            memory.item.updated_at = later(was, &arrival.item.updated_at);
        }
        for record in &mut changes.history {
            let was = before.get(record.memory_id.as_str()).map_or("", |item| item.updated_at.as_str());
            settle(record, &arrival.item, was);
        }
        if duplicate || !changes.upserts.is_empty() {
            let old = Some(arrival.item.memory.clone());
            let mut record = history_record(&arrival.item, EventKind::Delete, old, None, String::new());
            settle(&mut record, &arrival.item, "");
            changes.history.push(record);
            changes.deletes.push(arrival.item.id.clone());
        }
        curated.updated += changes.upserts.len();
        curated.deleted += changes.deletes.len();
        if changes.upserts.is_empty() && changes.deletes.is_empty() {
            return Ok(());
        }
        self.commit(changes).await
    }
}

/// The order of memories by age: creation time, then id.
fn age(item: &MemoryItem) -> (&str, &str) {
    (item.created_at.as_str(), item.id.as_str())
}

/// The later of two ISO 8601 times.
fn later(a: &str, b: &str) -> String {
    a.max(b).to_owned()
}

/// Dates `record` (of a memory last updated at `was`) at the later of `was` and the arrival's `updatedAt`, and
/// gives it an id that hashes the arrival, the memory, the event and the texts: equal decisions on two devices
/// write one record.
fn settle(record: &mut HistoryRecord, arrival: &MemoryItem, was: &str) {
    record.timestamp = later(was, &arrival.updated_at);
    let key = serde_json::json!([
        "sync-curate",
        arrival.id,
        record.memory_id,
        record.event.name(),
        record.old_value,
        record.new_value
    ]);
    let hash = content_hash(&key.to_string());
    record.id = u128::from_str_radix(&hash, 16).map_or(hash, |n| uuid::Uuid::from_u128(n).to_string());
}
