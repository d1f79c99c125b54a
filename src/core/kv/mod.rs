//! Storage on a key-value store with Cloudflare Workers KV's limits: values up to 25 MiB, one write per
//! second per key, `list` pages of 1,000 keys, eventual consistency and no transactions.
//!
//! Each memory is one key, each history record another, and a scope's memories are listed by key prefix
//! (see [`keys`]), so nothing is rewritten on every add and a scope loads without reading other scopes.
//! Scopes are loaded on their first use ([`Storage::load_scope`]), never the whole namespace.
//!
//! **What "all or nothing" means here.** KV cannot apply several writes atomically. A commit checks every
//! key first (nothing is written if one is unusable), then writes in an order that leaves a readable state
//! after any failure: memory values, then the scope markers that list them, then deletions (value before
//! marker), then history. A failed write rejects with `STORAGE`, and the writes before it stay; readers skip
//! markers whose memory is gone. Writes are idempotent, so repeating a failed call's writes converges.
//! Graph memory's records (one key each, see [`graph`]) are written after the memories and markers and
//! deleted with them, before the history.
//!
//! Over a backend whose commits are atomic (a Durable Object's storage), each scope also has an open image
//! and a journal (see [`image`]), so a scope opens from a few values instead of one per memory.

mod graph;
mod image;
#[cfg(test)]
mod image_tests;
pub mod journal;
pub mod keys;
pub mod record;

use std::cell::{Cell, RefCell};

use self::keys::{KvKeys, MAX_KEY_BYTES};
use self::record::{decode_history, decode_memory, encode_history, encode_memory, next_seq, Loaded};
use super::codec::{bytes_from_base64, bytes_to_base64};
use super::error::{MemoryError, Result};
use super::identity::{new_id, ID_BYTES};
use super::image::Parts;
use super::model::graph::GraphRecord;
use super::model::scope::Scope;
use super::model::types::{EventKind, HistoryRecord, StoredMemory};
use super::packed::Packed;
use super::side_records::SideRecord;
use super::storage::{Changeset, Storage};

/// Most keys one bulk read may ask for.
pub const BULK_READ_KEYS: usize = 100;
/// Bulk reads in flight at once while loading many keys (a large scope waits on storage that much less).
const READS_AT_ONCE: usize = 6;

/// One page of a key listing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KvPage {
    /// Key names, in key order.
    pub keys: Vec<String>,
    /// Where the next page starts; `None` on the last page.
    pub cursor: Option<String>,
}

/// The operations of a KV namespace binding. Failures are `MemoryError::Storage`.
#[allow(async_fn_in_trait)]
pub trait KvBackend {
    /// The value at `key`, if any.
    async fn get(&self, key: &str) -> Result<Option<String>>;
    /// The values of up to [`BULK_READ_KEYS`] keys, in order. The default reads them one by one.
    async fn get_many(&self, keys: &[String]) -> Result<Vec<Option<String>>> {
        let mut values = Vec::with_capacity(keys.len());
        for key in keys {
            values.push(self.get(key).await?);
        }
        Ok(values)
    }
    /// Stores `value` at `key`.
    async fn put(&self, key: &str, value: &str) -> Result<()>;
    /// Appends to `out` the byte values of up to [`BULK_READ_KEYS`] keys written by `put_bytes`, in order;
    /// false (`out` then holds a part of them) when a key is absent or holds something else. A backend may
    /// hand out each value where it read it (an open image is read from its parts, never joined). The
    /// default reads `put_bytes`' base64 text.
    async fn append_parts(&self, keys: &[String], out: &mut Parts) -> Result<bool> {
        for text in self.get_many(keys).await? {
            match text.map(|text| bytes_from_base64(&text)) {
                Some(Ok(bytes)) => out.push(Box::new(bytes)),
                _ => return Ok(false),
            }
        }
        Ok(true)
    }
    /// Stores `bytes` at `key` (an open image's part). The default stores them as base64 text.
    async fn put_bytes(&self, key: &str, bytes: &[u8]) -> Result<()> {
        self.put(key, &bytes_to_base64(bytes)).await
    }
    /// Removes `key` (absent keys are fine).
    async fn delete(&self, key: &str) -> Result<()>;
    /// One page of the keys starting with `prefix`, from `cursor` on.
    async fn list(&self, prefix: &str, cursor: Option<&str>) -> Result<KvPage>;
    /// Called once a commit (or a clear) has made all its writes: a backend that buffers them (a Durable
    /// Object's storage) applies them here as one transaction. The default does nothing.
    async fn finish(&self) -> Result<()> {
        Ok(())
    }
    /// True when `finish` applies a commit's writes as one transaction: scopes then keep an open image and
    /// a journal. Workers KV has no transactions (the default).
    fn atomic(&self) -> bool {
        false
    }
    /// Tells the host something went wrong without failing the call (an open image that is not used).
    fn warn(&self, _text: &str) {}
}

/// Memories and history in a KV namespace, under one key prefix (one per tenant, for example).
pub struct KvStorage<B> {
    backend: B,
    keys: KvKeys,
    /// Scopes already handed to the engine by `load_scope`.
    loaded: RefCell<Vec<Scope>>,
    /// Scopes keep an open image (the backend's commits are atomic).
    images: bool,
    /// Scopes read in full whose image `write_images` is to write.
    wanted: RefCell<Vec<Scope>>,
    /// `write_images` is running.
    writing: Cell<bool>,
    /// Per loaded scope: how many memories its journal may name before its image is rewritten when idle,
    /// and how many the commits since it loaded named.
    grown: RefCell<Vec<(Scope, usize, usize)>>,
    /// How each scope loaded, for tests and benches (`scope_loads`).
    loads: RefCell<Vec<String>>,
}

impl<B: KvBackend> KvStorage<B> {
    /// Storage in `backend`, every key starting with `prefix`.
    pub fn new(backend: B, prefix: &str) -> Self {
        let images = backend.atomic();
        Self {
            backend,
            keys: KvKeys::new(prefix),
            loaded: RefCell::default(),
            images,
            wanted: RefCell::default(),
            writing: Cell::new(false),
            grown: RefCell::default(),
            loads: RefCell::default(),
        }
    }

    /// The ids of the memories `scope`'s markers list.
    async fn scope_ids(&self, scope: &Scope) -> Result<Vec<String>> {
        let markers = self.list_all(&self.keys.scope_prefix(scope)).await?;
        let listed = markers.iter().filter_map(|key| self.keys.parse_scope_marker(key));
        Ok(listed.filter(|(stored, _)| scope.contains(stored)).map(|(_, id)| id).collect())
    }

    /// Every memory of `scope`, oldest first, each read from its own value.
    async fn read_scope(&self, scope: &Scope) -> Result<Vec<StoredMemory>> {
        let keys: Vec<String> = self.scope_ids(scope).await?.iter().map(|id| self.keys.memory(id)).collect();
        let mut found = self.read_decoded(&keys, |key, value| decode_memory(key, value).map(Some)).await?;
        sort_loaded(&mut found);
        Ok(found.into_iter().map(|loaded| loaded.memory).collect())
    }

    /// `scope`'s memories from its open image when it can be used (its vectors as the image's rows), else
    /// read in full (and its image wanted).
    async fn open_scope(&self, scope: &Scope) -> Result<Packed> {
        if !self.images {
            return Ok(Packed::unpacked(self.read_scope(scope).await?));
        }
        let why = match self.open_image(scope).await? {
            Ok((packed, journal)) => {
                self.loads.borrow_mut().push(format!("image journal={journal}"));
                self.track(scope, packed.memories.len(), journal);
                return Ok(packed);
            }
            Err(why) => why,
        };
        if why != image::NO_IMAGE {
            self.backend.warn(&format!("memwasm: the open image of a scope is not used ({why}); reading every memory"));
        }
        let memories = self.read_scope(scope).await?;
        self.loads.borrow_mut().push(format!("full ({why})"));
        self.wanted.borrow_mut().push(scope.clone());
        self.track(scope, memories.len(), 0);
        Ok(Packed::unpacked(memories))
    }

    /// Counts the journal of `scope`, loaded with `count` memories and `named` already in its journal.
    fn track(&self, scope: &Scope, count: usize, named: usize) {
        let budget = image::refresh_after(count);
        self.grown.borrow_mut().push((scope.clone(), budget, named));
    }

    /// Wants the images of the loaded scopes whose journal named more memories than their budget.
    fn want_grown(&self) {
        for (scope, budget, named) in self.grown.borrow_mut().iter_mut() {
            if *named > *budget {
                *named = 0;
                self.wanted.borrow_mut().push(scope.clone());
            }
        }
    }

    /// The journal entries of `changes` (one per scope written or deleted in), written before anything else
    /// so that a flush carrying a memory's write carries its entry; nothing without images.
    async fn put_journal(&self, changes: &Changeset, doomed: &[(String, Scope)]) -> Result<()> {
        if !self.images {
            return Ok(());
        }
        let mut entries = journal::Entries::default();
        changes.upserts.iter().for_each(|memory| entries.wrote(&memory.item.scope, &memory.item.id));
        doomed.iter().for_each(|(id, scope)| entries.deleted(scope, id));
        for (scope, entry) in &entries.0 {
            self.backend.put(&self.keys.journal(scope, &new_id()), &journal::encode(entry)?).await?;
            for (loaded, _, named) in self.grown.borrow_mut().iter_mut() {
                if loaded.contains(scope) {
                    *named += entry.changed.len() + entry.gone.len();
                }
            }
        }
        Ok(())
    }

    /// Every key starting with `prefix`, following cursors across pages; none, without asking KV, for a
    /// prefix longer than a key can be (ids too long for keys name nothing stored).
    async fn list_all(&self, prefix: &str) -> Result<Vec<String>> {
        let mut keys = Vec::new();
        if prefix.len() > MAX_KEY_BYTES {
            return Ok(keys);
        }
        let mut cursor: Option<String> = None;
        loop {
            let page = self.backend.list(prefix, cursor.as_deref()).await?;
            keys.extend(page.keys);
            match page.cursor {
                Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
                _ => return Ok(keys),
            }
        }
    }

    /// The values at `keys` as `decode` reads them (absent ones, and those it gives `None` for, left out),
    /// read in bulk, a few bulk reads at a time, and decoded a bulk read at a time: the values' text is
    /// never all held at once (10,000 memories of 384 dimensions: 25 MB).
    async fn read_decoded<T>(
        &self,
        keys: &[String],
        mut decode: impl FnMut(&str, &str) -> Result<Option<T>>,
    ) -> Result<Vec<T>> {
        use futures_util::stream::{self, StreamExt};
        let mut found = Vec::with_capacity(keys.len());
        let reads = stream::iter(keys.chunks(BULK_READ_KEYS))
            .map(|chunk| async move { Ok::<_, MemoryError>(chunk.iter().zip(self.backend.get_many(chunk).await?)) });
        let mut pages = reads.buffered(READS_AT_ONCE);
        while let Some(page) = pages.next().await {
            for (key, value) in page? {
                if let Some(value) = value {
                    found.extend(decode(key, &value)?);
                }
            }
        }
        Ok(found)
    }

    /// The history records under `prefix`, oldest first.
    async fn read_history(&self, prefix: &str) -> Result<Vec<HistoryRecord>> {
        let keys = self.list_all(prefix).await?;
        let mut records = self.read_decoded(&keys, |key, value| decode_history(key, value).map(Some)).await?;
        crate::core::sort::sort_by(&mut records, |a, b| {
            a.timestamp.cmp(&b.timestamp).then(event_rank(a.event).cmp(&event_rank(b.event)))
        });
        Ok(records)
    }

    /// The position of `memory` among those created in its millisecond: a fresh one when `changes` creates it,
    /// else the stored one (one read), so rewriting a memory never reorders it.
    async fn position(&self, memory: &StoredMemory, changes: &Changeset) -> Result<u64> {
        let id = &memory.item.id;
        if changes.history.iter().any(|record| record.memory_id == *id && record.event == EventKind::Add) {
            return Ok(next_seq());
        }
        let key = self.keys.memory(id);
        let stored = self.backend.get(&key).await?.map(|value| decode_memory(&key, &value)).transpose()?;
        Ok(stored.map_or_else(next_seq, |loaded| loaded.seq))
    }

    /// The scope of a memory being deleted: from its DELETE record in `changes`, else read from KV.
    async fn scope_of(&self, id: &str, changes: &Changeset) -> Result<Option<Scope>> {
        let deleted = changes.history.iter().find(|record| record.memory_id == id && record.event == EventKind::Delete);
        match deleted {
            Some(record) => Ok(Some(record.scope.clone())),
            None => Ok(self.load_memory(id).await?.map(|memory| memory.item.scope)),
        }
    }

    /// Fails before anything is written when a key would be longer than KV allows. Journal keys (written
    /// only with images) are measured, not made.
    fn check_keys(&self, changes: &Changeset) -> Result<()> {
        let too_long = |key: String| key.len() > MAX_KEY_BYTES;
        let journal_too_long = self.images
            && changes.upserts.iter().any(|m| self.keys.journal_len(&m.item.scope, ID_BYTES) > MAX_KEY_BYTES);
        let scope_keys = changes.upserts.iter().map(|m| self.keys.scope_marker(&m.item.scope, &m.item.id));
        let history_keys = changes.history.iter().map(|h| self.keys.history(&h.memory_id, &h.timestamp, &h.id));
        let (graph_puts, graph_deletes) = self.graph_keys(&changes.graph)?;
        let side_keys = changes.side.iter().map(|w| self.keys.side(&w.kind, &w.key));
        if journal_too_long
            || scope_keys.chain(history_keys).chain(graph_puts).chain(graph_deletes).chain(side_keys).any(too_long)
        {
            let why = format!(
                "userId, agentId and runId (or entity names, or side-record keys) are too long for KV keys (at most {MAX_KEY_BYTES} bytes)"
            );
            return Err(MemoryError::InvalidInput(why));
        }
        Ok(())
    }
}

/// Memories in stored order: by creation time, then by position among those created in the same millisecond.
fn sort_loaded(found: &mut [Loaded]) {
    crate::core::sort::sort_by(found, |a, b| {
        a.memory.item.created_at.cmp(&b.memory.item.created_at).then(a.seq.cmp(&b.seq))
    });
}

/// Position of an event among records with the same timestamp.
fn event_rank(event: EventKind) -> u8 {
    match event {
        EventKind::Add => 0,
        EventKind::Update | EventKind::None => 1,
        EventKind::Delete => 2,
    }
}

impl<B: KvBackend> Storage for KvStorage<B> {
    /// Nothing: scopes load on demand.
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        Ok(Vec::new())
    }

    async fn load_scope(&self, scope: &Scope) -> Result<Option<Packed>> {
        if self.loaded.borrow().iter().any(|loaded| loaded.contains(scope)) {
            return Ok(None);
        }
        let packed = self.open_scope(scope).await?;
        self.loaded.borrow_mut().push(scope.clone());
        Ok(Some(packed))
    }

    /// `None` without asking KV for an id too long for a key: no memory can be stored under it.
    async fn load_memory(&self, id: &str) -> Result<Option<StoredMemory>> {
        let key = self.keys.memory(id);
        if key.len() > MAX_KEY_BYTES {
            return Ok(None);
        }
        let value = self.backend.get(&key).await?;
        Ok(value.map(|value| decode_memory(&key, &value)).transpose()?.map(|loaded| loaded.memory))
    }

    async fn commit(&self, changes: &Changeset) -> Result<()> {
        self.check_keys(changes)?;
        let mut doomed = Vec::with_capacity(changes.deletes.len());
        for id in &changes.deletes {
            if let Some(scope) = self.scope_of(id, changes).await? {
                doomed.push((id.clone(), scope));
            }
        }
        self.put_journal(changes, &doomed).await?;
        for memory in &changes.upserts {
            let seq = self.position(memory, changes).await?;
            self.backend.put(&self.keys.memory(&memory.item.id), &encode_memory(memory, seq)?).await?;
        }
        for memory in &changes.upserts {
            self.backend.put(&self.keys.scope_marker(&memory.item.scope, &memory.item.id), "").await?;
        }
        self.put_graph(&changes.graph).await?;
        for (id, scope) in &doomed {
            self.backend.delete(&self.keys.memory(id)).await?;
            self.backend.delete(&self.keys.scope_marker(scope, id)).await?;
        }
        self.delete_graph(&changes.graph).await?;
        for record in &changes.history {
            let key = self.keys.history(&record.memory_id, &record.timestamp, &record.id);
            self.backend.put(&key, &encode_history(record)?).await?;
        }
        for write in &changes.side {
            let key = self.keys.side(&write.kind, &write.key);
            match &write.value {
                Some(value) => self.backend.put(&key, &value.to_string()).await?,
                None => self.backend.delete(&key).await?,
            }
        }
        self.backend.finish().await
    }

    /// Writes the open images of the scopes read in full, and when `idle`, of the scopes whose journal grew
    /// long since they loaded (`write_images`).
    async fn settle(&self, idle: bool) -> Result<()> {
        if idle {
            self.want_grown();
        }
        self.write_images().await
    }

    /// `image journal=N` (the image and N journal entries), or `full (why)`; empty without images.
    fn scope_loads(&self) -> Vec<String> {
        self.loads.borrow().clone()
    }

    async fn load_side(&self, kind: &str) -> Result<Vec<SideRecord>> {
        let keys = self.list_all(&self.keys.side_prefix(kind)).await?;
        let mut records = self
            .read_decoded(&keys, |stored, text| {
                let Some(key) = self.keys.parse_side(kind, stored) else { return Ok(None) };
                let value = serde_json::from_str(text)
                    .map_err(|e| MemoryError::Storage(format!("side record {stored} is not JSON: {e}")))?;
                Ok(Some(SideRecord { key, value }))
            })
            .await?;
        crate::core::sort::sort_by(&mut records, |a, b| a.key.cmp(&b.key));
        Ok(records)
    }

    /// Nothing yet: each scope's graph loads with the scope (`load_scope_graph`).
    async fn load_graph(&self) -> Result<Option<Vec<GraphRecord>>> {
        Ok(Some(Vec::new()))
    }

    async fn load_scope_graph(&self, scope: &Scope) -> Result<Vec<GraphRecord>> {
        self.read_graph(scope).await
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        self.read_history(&self.keys.history_prefix(memory_id)).await
    }

    async fn all_history(&self) -> Result<Option<Vec<HistoryRecord>>> {
        Ok(Some(self.read_history(&self.keys.all_history()).await?))
    }

    async fn clear(&self) -> Result<()> {
        self.loaded.borrow_mut().clear();
        self.wanted.borrow_mut().clear();
        self.grown.borrow_mut().clear();
        for key in self.list_all(self.keys.all()).await? {
            self.backend.delete(&key).await?;
        }
        if self.images {
            // A new token: an image read before the clear is not written after it.
            self.backend.put(&self.keys.image_generation(), &new_id()).await?;
        }
        self.backend.finish().await
    }
}
