//! Provenance's hooks: before an `add()` runs, its replay (a committed `idempotencyKey`); before it
//! commits, the sources of every memory it wrote and its key, in the same commit.

use futures_util::future::LocalBoxFuture;

use super::record::{SourceMessage, SourceRecord, SOURCES_KIND};
use super::replay;
use crate::core::engine::destination::AddRequest;
use crate::core::engine::extensions::EngineHooks;
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::model::types::{AddResult, EventKind, MemoryEvent, Message};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Provenance keeps nothing in RAM: its records are side records, which the engine caches.
#[derive(Default)]
pub struct ProvenanceState;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> EngineHooks<MemoryEngine<L, E, S, V>>
    for ProvenanceState
{
    fn add_replay<'a>(
        &'a self,
        engine: &'a MemoryEngine<L, E, S, V>,
        request: AddRequest<'a>,
    ) -> Option<LocalBoxFuture<'a, Result<Option<AddResult>>>> {
        let key = request.options.idempotency_key.as_deref()?;
        Some(Box::pin(async move {
            let kept = engine.side_record(replay::KEYS_KIND, &replay::key_of(request.scope, key)).await?;
            Ok(kept.as_ref().and_then(replay::read_back))
        }))
    }

    fn before_add_commit(
        &self,
        engine: &MemoryEngine<L, E, S, V>,
        request: AddRequest<'_>,
        result: &AddResult,
        changes: &mut Changeset,
    ) {
        let written = |event: &&MemoryEvent| {
            matches!(event.event, EventKind::Add | EventKind::Update)
                && changes.upserts.iter().any(|m| m.item.id == event.id)
        };
        let events: Vec<&MemoryEvent> = result.results.iter().filter(written).collect();
        let said: Vec<&Message> = request.messages.iter().filter(|m| m.role != "system").collect();
        let mut used = vec![false; said.len()];
        let mut writes = Vec::new();
        for event in events {
            let messages: Vec<SourceMessage> = match request.infer {
                true => said.iter().map(|m| SourceMessage::of(m)).collect(),
                // Verbatim: each memory its own message, the first not taken yet with its text.
                false => {
                    let own = (0..said.len()).find(|&at| !used[at] && said[at].content == event.memory);
                    own.map(|at| {
                        used[at] = true;
                        SourceMessage::of(said[at])
                    })
                    .into_iter()
                    .collect()
                }
            };
            if messages.is_empty() {
                continue;
            }
            let history = changes.history.iter().find(|h| h.memory_id == event.id && h.event == event.event);
            let record = SourceRecord {
                memory_id: event.id.clone(),
                event: event.event,
                history_id: history.filter(|_| engine.keep_history).map(|h| h.id.clone()),
                recorded_at: history.map_or_else(|| engine.now_iso(), |h| h.timestamp.clone()),
                messages,
            };
            let value = serde_json::to_value(&record).unwrap_or_default();
            writes.push(SideWrite::put(SOURCES_KIND, &record.key(), value));
        }
        if let Some(key) = request.options.idempotency_key.as_deref().filter(|_| replay::complete(result)) {
            writes.push(replay::keep(request.scope, key, result));
        }
        changes.side.extend(writes);
    }

    fn exported_side_kind(&self) -> Option<&'static str> {
        Some(SOURCES_KIND)
    }
}
