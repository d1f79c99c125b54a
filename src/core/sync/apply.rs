//! Applying entries pulled from the log, in its order, all of a pull or nothing. Each memory (and graph
//! record) ends as the last entry of the log that touched it says, so every replica that applied the same
//! log holds the same; a memory this store changed since its last push keeps its own version until that
//! push puts it after the others in the log. History records are kept once each (by id), so the version that
//! lost stays in the memory's history.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::entry::Entry;
use super::state::{LogState, Pending, OUTBOX_KIND, SENT_KIND};
use crate::core::engine::embedding_model::EmbeddingModel;
use crate::core::engine::transfer::sorted;
use crate::core::engine::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::model::graph::GraphRecord;
use crate::core::model::types::{AddWarning, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pace::Unpaced;
use crate::core::side_records::SideWrite;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// One entry as the server hands it back (its `data` decrypted by the app).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pulled {
    pub seq: u64,
    pub client_id: String,
    pub n: u64,
    /// `None` for an entry of the pulling client itself, which the server does not send back.
    #[serde(default)]
    pub data: Option<String>,
}

/// What applying a pull changed here.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    /// Entries applied (those at or before the checkpoint were skipped).
    pub entries: usize,
    /// Memories written and deleted here.
    pub memories: usize,
    pub deletes: usize,
    /// History and graph records written here.
    pub history: usize,
    pub graph: usize,
    /// Memories whose vectors came from another embedding model (or length), embedded again here.
    pub reembedded: usize,
    /// The sequence number applied up to.
    pub checkpoint: u64,
    /// Ids of the memories other clients' entries wrote here whose text is new here (added, or changed):
    /// what `sync_curate` may judge.
    pub arrived: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}

/// The lock key that applies take turns on.
const APPLY_TURN: &str = "sync:apply";

/// The last state the pull gives a memory or graph record: written (`Some`) or deleted; whether that last
/// entry is one of this store's own.
type Last<T> = HashMap<String, (bool, Option<T>)>;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Applies `pulled` (entries of the log `log_id`, in sequence order) and moves the checkpoint past them,
    /// in one commit. An entry that does not read (`SYNC_ENTRY_INVALID`) stops it before anything is written.
    pub async fn sync_apply(&self, log_id: &str, pulled: Vec<Pulled>) -> Result<Applied> {
        // One apply at a time, here and in the other instances on the storage (tabs each running `syncLive`):
        // the next one reads the checkpoint this one commits, and skips what it applied.
        let _local = self.locks.lock(APPLY_TURN).await;
        let _shared = self.storage.hold(APPLY_TURN).await?;
        let log = self.sync_log().await?.unwrap_or_default();
        if log.log_id.as_deref().is_some_and(|followed| followed != log_id) {
            let why = format!("the pull is of log {log_id}, but this store follows {:?}: rebase first", log.log_id);
            return Err(MemoryError::InvalidInput(why));
        }
        let fresh: Vec<Pulled> = pulled.into_iter().filter(|entry| entry.seq > log.checkpoint).collect();
        let checkpoint = fresh.iter().map(|entry| entry.seq).max().unwrap_or(log.checkpoint);
        let own = self.sync_own_clients().await?;
        let sent = Pending::read_all(self.storage.load_side(SENT_KIND).await?);
        let sent_of = |entry: &Pulled| sent.iter().find(|(_, p)| p.client_id == entry.client_id && p.n == entry.n);
        let mut read = Vec::with_capacity(fresh.len());
        for entry in &fresh {
            let parsed = match &entry.data {
                Some(data) => Some(
                    Entry::from_text(data)
                        .map_err(|error| MemoryError::SyncEntry(format!("entry {}: {error}", entry.seq)))?,
                ),
                None if sent_of(entry).is_some() && own.contains(&entry.client_id) => None,
                None => {
                    let why = format!("entry {} came without its data, but this store did not write it", entry.seq);
                    return Err(MemoryError::SyncEntry(why));
                }
            };
            read.push((entry, parsed));
        }
        let waiting = Pending::read_all(self.storage.load_side(OUTBOX_KIND).await?);
        let held: HashSet<&String> = waiting.iter().flat_map(|(_, p)| p.ids.iter().chain(p.keys.iter())).collect();

        let (mut memories, mut graph): (Last<StoredMemory>, Last<GraphRecord>) = Default::default();
        let mut history = Vec::new();
        let (kinds, mut side) = (self.importable_side_kinds(), Vec::new());
        let mut reembed = HashSet::new();
        for (entry, parsed) in &read {
            let mine = own.contains(&entry.client_id);
            let Some(parsed) = parsed else {
                // This store's own entry, its data left out: what it changed is here already.
                if let Some((_, written)) = sent_of(entry) {
                    written.ids.iter().for_each(|id| drop(memories.insert(id.clone(), (true, None))));
                    written.keys.iter().for_each(|key| drop(graph.insert(key.clone(), (true, None))));
                }
                continue;
            };
            for memory in parsed.stored_memories()? {
                if self.needs_embedding(parsed.embedder.as_ref(), memory.embedding.as_deref()) {
                    reembed.insert(memory.item.id.clone());
                }
                memories.insert(memory.item.id.clone(), (mine, Some(memory)));
            }
            parsed.deletes.iter().for_each(|id| drop(memories.insert(id.clone(), (mine, None))));
            parsed.graph.iter().for_each(|record| drop(graph.insert(record.key(), (mine, Some(record.clone())))));
            parsed.graph_deletes.iter().for_each(|key| drop(graph.insert(key.clone(), (mine, None))));
            if !mine {
                history.extend(parsed.history.iter().cloned());
                let known = parsed.side.iter().filter(|line| kinds.contains(&line.of.as_str()));
                side.extend(known.map(|line| SideWrite::put(&line.of, &line.key, line.value.clone())));
            }
        }
        let stored = self.stored_history_ids(&history).await?;
        let mut seen = HashSet::new();
        history.retain(|record| !stored.contains(&record.id) && seen.insert(record.id.clone()));

        let mut changes = Changeset { history, side, ..Changeset::default() };
        for (id, (mine, state)) in memories {
            if mine || held.contains(&id) {
                continue;
            }
            match state {
                Some(mut memory) => {
                    if reembed.contains(&id) {
                        memory.embedding = None;
                    }
                    changes.upserts.push(memory);
                }
                None => changes.deletes.push(id),
            }
        }
        for (key, (mine, state)) in graph {
            match state {
                _ if mine || held.contains(&key) => {}
                Some(record) => changes.graph.upserts.push(record),
                None => changes.graph.deletes.push(key),
            }
        }
        changes.upserts =
            sorted(std::mem::take(&mut changes.upserts), |m| format!("{}\u{0}{}", m.item.created_at, m.item.id));
        let arrived = {
            let index = self.index.borrow();
            let new_here = |m: &&StoredMemory| index.get(&m.item.id).is_none_or(|old| old.item.memory != m.item.memory);
            changes.upserts.iter().filter(new_here).map(|m| m.item.id.clone()).collect()
        };
        let (warnings, _) = self.embed_vectorless(&mut changes.upserts, &Unpaced).await?;
        let reembedded =
            changes.upserts.iter().filter(|m| reembed.contains(&m.item.id) && m.embedding.is_some()).count();
        let applied = Applied {
            entries: read.len(),
            memories: changes.upserts.len(),
            deletes: changes.deletes.len(),
            history: changes.history.len(),
            graph: changes.graph.upserts.len() + changes.graph.deletes.len(),
            reembedded,
            checkpoint,
            arrived,
            warnings,
        };
        changes.side.push(LogState { log_id: Some(log_id.to_owned()), checkpoint }.write());
        let passed = fresh.iter().filter_map(|entry| sent_of(entry).map(|(key, _)| SideWrite::delete(SENT_KIND, key)));
        changes.side.extend(passed);
        self.commit(changes).await?;
        Ok(applied)
    }

    /// True when a vector made by `made_by` cannot be searched here (another model, another length): the
    /// memory's text is embedded again with this store's embedder.
    fn needs_embedding(&self, made_by: Option<&EmbeddingModel>, vector: Option<&[f32]>) -> bool {
        let Some(vector) = vector else { return self.embedder.is_configured() };
        let expected = self.index.borrow().dimension().or(self.embedder.dimensions());
        if expected.is_some_and(|length| length != vector.len()) {
            return true;
        }
        let current = self.current_embedding_model();
        match (made_by, current) {
            (Some(theirs), Some(ours)) => theirs.provider != ours.provider || theirs.model != ours.model,
            _ => false,
        }
    }
}
