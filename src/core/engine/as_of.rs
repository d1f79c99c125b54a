//! `asOf` reads: the memories of a read's scope as they were at a past time T, rebuilt from history, and
//! `getAll` over them (`search` over them is in `as_of_search`).
//!
//! A memory with history exists at T when its last event at or before T is an ADD or an UPDATE; its text
//! then is that event's `newValue`, and `updatedAt` that event's time. One deleted at or before T, or first
//! added after T, is not there. A memory without history (imported without it, or written under
//! `disableHistory`) counts from then with its current text when its `updatedAt` is at or before T.
//! Memories deleted since T are rebuilt from their history alone: their text, scope and times, with no
//! metadata and the default lifecycle. A memory that still exists keeps its current metadata and lifecycle,
//! except that it was not deleted then (a soft delete after T is undone in the copy). The read's other
//! options (scope, filters, types, time range) apply to these copies as usual; nothing is written.

use std::collections::HashMap;

use super::crud::Page;
use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::content_hash;
use crate::core::model::types::{EventKind, HistoryRecord, MemoryItem};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::sort::sort_by;
use crate::core::storage::Storage;
use crate::core::time::millis_from_iso;
use crate::core::vector_store::VectorStore;

/// A memory as it was at T.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Then {
    pub item: MemoryItem,
    /// True when its text then is its text now, so its stored vector still fits it.
    pub current_text: bool,
}

/// A memory's events with their times in milliseconds, oldest first.
type Events = Vec<(i64, HistoryRecord)>;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The memories of `read.scope` as they were at `at` (milliseconds; see the module), oldest first; the
    /// scope must be loaded. `INVALID_CONFIG` when the storage cannot list its history.
    pub(crate) async fn memories_at(&self, read: &Read, at: i64) -> Result<Vec<Then>> {
        let Some(history) = self.storage.all_history().await? else {
            return Err(MemoryError::InvalidConfig(
                "storage: this storage cannot list its history, and an asOf read is rebuilt from it; use a \
                 storage that can (the in-memory default, IndexedDB, SQLite or Workers KV), or read without asOf"
                    .into(),
            ));
        };
        let current: Vec<MemoryItem> = {
            let index = self.index.borrow();
            let in_scope = |item: &MemoryItem| read.scope.contains(&item.scope);
            index.list(usize::MAX, &in_scope).into_iter().map(|memory| memory.item.clone()).collect()
        };
        let history = history.into_iter().filter(|record| read.scope.contains(&record.scope)).collect();
        Ok(as_they_were(current, history, at))
    }

    /// `getAll` as of `at`: the memories then that pass the read, oldest first, `read.limit` of them from
    /// `read.offset`.
    pub(crate) async fn get_all_as_of(&self, read: &Read, at: i64) -> Result<Page> {
        self.load_scope(&read.scope).await?;
        let now = self.now_iso();
        let then = self.memories_at(read, at).await?;
        let matching: Vec<MemoryItem> =
            then.into_iter().map(|then| then.item).filter(|item| read.keeps(item, &now)).collect();
        let total_count = matching.len();
        let results: Vec<MemoryItem> = matching.into_iter().skip(read.offset).take(read.limit).collect();
        let has_more = read.offset.saturating_add(results.len()) < total_count;
        Ok(Page { results, total_count, has_more })
    }
}

/// The memories as they were at `at`, from the `current` ones (in index order) and the `history` of the
/// same scope (see the module), oldest first by `createdAt` (history read oldest first by its times).
pub(crate) fn as_they_were(current: Vec<MemoryItem>, history: Vec<HistoryRecord>, at: i64) -> Vec<Then> {
    let mut events: HashMap<String, Events> = HashMap::new();
    let mut first_seen: Vec<String> = Vec::new();
    for record in history.into_iter().filter(|record| record.event != EventKind::None) {
        let Some(time) = millis_from_iso(&record.timestamp) else { continue };
        let list = events.entry(record.memory_id.clone()).or_insert_with_key(|id| {
            first_seen.push(id.clone());
            Vec::new()
        });
        list.push((time, record));
    }
    events.values_mut().for_each(|list| sort_by(list, |a, b| a.0.cmp(&b.0)));
    let mut then = Vec::new();
    for item in current {
        match events.remove(&item.id) {
            None if millis_from_iso(&item.updated_at).is_some_and(|time| time <= at) => {
                then.push(Then { item, current_text: true });
            }
            None => {}
            Some(list) => then.extend(text_at(&list, at).map(|(record, text)| still_here(item, record, text))),
        }
    }
    for id in first_seen {
        let Some(list) = events.remove(&id) else { continue };
        then.extend(text_at(&list, at).map(|(record, text)| gone_since(&list[0].1, record, text)));
    }
    sort_by(&mut then, |a, b| created(&a.item).cmp(&created(&b.item)));
    then
}

/// The event that gave the memory its text at `at`, and that text: `None` when its latest event then is a
/// DELETE, or it had none yet.
fn text_at(events: &Events, at: i64) -> Option<(&HistoryRecord, &str)> {
    let (_, record) = events.iter().take_while(|(time, _)| *time <= at).last()?;
    match record.event {
        EventKind::Add | EventKind::Update => Some((record, record.new_value.as_deref()?)),
        EventKind::Delete | EventKind::None => None,
    }
}

/// A memory that exists now, as `record` left it: that text and time, not deleted, the rest as now.
fn still_here(mut item: MemoryItem, record: &HistoryRecord, text: &str) -> Then {
    let current_text = item.memory == text;
    if !current_text {
        item.memory = text.to_owned();
        item.hash = content_hash(text);
    }
    item.updated_at = record.timestamp.clone();
    item.lifecycle.deleted_at = None;
    Then { item, current_text }
}

/// A memory deleted since, from its history: `first` its first event, `record` the one that gave it `text`.
fn gone_since(first: &HistoryRecord, record: &HistoryRecord, text: &str) -> Then {
    let item = MemoryItem {
        id: record.memory_id.clone(),
        memory: text.to_owned(),
        hash: content_hash(text),
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at: first.timestamp.clone(),
        updated_at: record.timestamp.clone(),
        scope: record.scope.clone(),
        lifecycle: Default::default(),
    };
    Then { item, current_text: false }
}

/// When `item` was created, in milliseconds (an unreadable time sorts first).
fn created(item: &MemoryItem) -> i64 {
    millis_from_iso(&item.created_at).unwrap_or(i64::MIN)
}

#[cfg(test)]
#[path = "as_of_tests.rs"]
mod tests;
