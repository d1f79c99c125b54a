//! A scope's open image in KV storage (`core::image`), for a backend whose commits are atomic (a Durable
//! Object): every memory of the scope in one checked value, stored in parts of [`PART`] bytes (binary
//! values, `KvBackend::put_bytes`) under `imgp/{scope}/{token}/`, with a head `imgh/{scope}/` naming the
//! token, the part count and the memory count. Opening reads the head, the parts, the journal (`journal`) and the memories it
//! names; an image that is missing, torn, of another version, or with a large journal is not used: the scope is read in full, and a fresh image is written later
//! ([`KvStorage::write_images`], off the request's path) from a read of its own.
//!
//! **No image replaces a newer state.** An image write lists the journal and reads `imggen` (the token of
//! the last image write or clear) before it reads the scope, and writes only if `imggen` is unchanged, in
//! one atomic write that deletes the journal entries it listed (no others: a commit during the read left
//! its entry, and the next open applies it). Its writes are ordered (parts, head, `imggen`, the images it
//! overlaps, the journal entries it covers, old parts) so that any prefix of them leaves a usable state.

use futures_util::future::try_join;

use super::journal::{self, Named};
use super::record::decode_memory;
use super::{KvBackend, KvStorage};
use crate::core::error::Result;
use crate::core::identity::new_id;
use crate::core::image::{decode, encode, journal_limit, with_journal, Parts};
use crate::core::model::scope::Scope;
use crate::core::model::types::StoredMemory;
use crate::core::packed::Packed;

/// The bytes of one part, stored as they are (`put_bytes`) under a Durable Object's 128 KiB value limit.
pub const PART: usize = 120 * 1024;
/// How many memories a scope's journal may name before a fresh image is wanted: a quarter of what an
/// image of `count` memories takes (`core::image::journal_is_small`), so that the image is rewritten well
/// before an open would refuse it.
pub fn refresh_after(count: usize) -> usize {
    journal_limit(count) / 4
}

/// A scope's memories read for its image, with what the read saw first.
pub struct Snapshot {
    scope: Scope,
    /// `imggen` before the read.
    generation: Option<String>,
    /// The journal entries before the read: the image covers them.
    journal: Vec<String>,
    /// The encoded image; `None` when the scope has no image (empty, vectors of mixed lengths, or too many).
    bytes: Option<Vec<u8>>,
    /// How many memories it holds.
    memories: usize,
}

/// The scope's memories and vectors (the image's rows) and how many journal entries it took, or why the
/// image was not used.
pub type Opened = std::result::Result<(Packed, usize), String>;

impl<B: KvBackend> KvStorage<B> {
    /// The memories of `scope` from its image and journal, with the journal's length; `Err(why)` to read
    /// every memory instead.
    pub(super) async fn open_image(&self, scope: &Scope) -> Result<Opened> {
        let head_key = self.keys.image_head(scope);
        let head = self.backend.get(&head_key);
        let (head, journal) = try_join(head, self.journal_keys(scope)).await?;
        let Some(head) = head else { return Ok(Err(NO_IMAGE.into())) };
        let Some((token, parts, count)) = parse_head(&head) else {
            return Ok(Err("its head is unreadable".into()));
        };
        let most = journal_limit(count);
        if journal.len() > most {
            return Ok(Err(format!("its journal has {} entries", journal.len())));
        }
        let mut unreadable = None;
        let entries = self
            .read_decoded(&journal, |key, value| {
                let entry = journal::decode(value);
                if entry.is_none() {
                    unreadable.get_or_insert_with(|| key.to_owned());
                }
                Ok(entry)
            })
            .await?;
        if let Some(key) = unreadable {
            return Ok(Err(format!("the journal entry {key} is unreadable")));
        }
        let named = Named::of(&entries);
        if named.ids.len() > most {
            return Ok(Err(format!("its journal names {} memories", named.ids.len())));
        }
        let Some(bytes) = self.image_bytes(scope, &token, parts).await? else {
            return Ok(Err("a part of it is missing".into()));
        };
        let image = match decode(bytes) {
            Ok(image) => image,
            Err(why) => return Ok(Err(why)),
        };
        if named.ids.len() > refresh_after(count) {
            self.wanted.borrow_mut().push(scope.clone());
        }
        let (gone, changed) = self.journal_memories(scope, named).await?;
        let packed = with_journal(image, &gone, changed);
        Ok(in_order(&packed.memories).map(|()| (packed, journal.len())))
    }

    /// The image's parts as their backend read them, not joined; `None` when one is missing. The bulk
    /// reads go one after another: images are kept over a Durable Object's storage, whose reads are local.
    async fn image_bytes(&self, scope: &Scope, token: &str, parts: usize) -> Result<Option<Parts>> {
        let keys: Vec<String> = (0..parts).map(|at| self.keys.image_part(scope, token, at)).collect();
        let mut bytes = Parts::default();
        for chunk in keys.chunks(super::BULK_READ_KEYS) {
            if !self.backend.append_parts(chunk, &mut bytes).await? {
                return Ok(None);
            }
        }
        Ok(Some(bytes))
    }

    /// The journal's memories as `with_journal` takes them: the ids to drop (deleted, or deleted and
    /// written again) and the memories that exist now, in stored order.
    async fn journal_memories(&self, scope: &Scope, named: Named) -> Result<(Vec<String>, Vec<StoredMemory>)> {
        let keys: Vec<String> = named.ids.iter().map(|id| self.keys.memory(id)).collect();
        let mut present = self
            .read_decoded(&keys, |key, value| {
                let loaded = decode_memory(key, value)?;
                Ok(scope.contains(&loaded.memory.item.scope).then_some(loaded))
            })
            .await?;
        super::sort_loaded(&mut present);
        let kept: rustc_hash::FxHashSet<&str> = present.iter().map(|loaded| loaded.memory.item.id.as_str()).collect();
        let gone = named.ids.iter().filter(|id| !kept.contains(id.as_str()) || named.deleted.contains(*id)).cloned();
        let gone = gone.collect();
        Ok((gone, present.into_iter().map(|loaded| loaded.memory).collect()))
    }

    /// The journal entries `scope` can see.
    async fn journal_keys(&self, scope: &Scope) -> Result<Vec<String>> {
        let keys = self.list_all(&self.keys.journal_prefix(scope)).await?;
        let seen = |key: &String| self.keys.parse_journal(key).is_some_and(|stored| scope.contains(&stored));
        Ok(keys.into_iter().filter(seen).collect())
    }

    /// Writes the open image of each scope read in full since the last call, each from a read of its own;
    /// a write that another image write or a clear overtook is dropped (the next full read asks again).
    /// Meant to run after the answer; one call at a time (a call during another returns at once).
    pub async fn write_images(&self) -> Result<()> {
        if self.writing.replace(true) {
            return Ok(());
        }
        let written = async {
            loop {
                let Some(scope) = self.wanted.borrow_mut().pop() else { return Ok(()) };
                let snapshot = self.snapshot(&scope).await?;
                if !self.store(snapshot).await? {
                    self.backend.warn("memwasm: an open image was not written: storage changed during its read");
                }
            }
        };
        let result = written.await;
        self.writing.set(false);
        result
    }

    /// Reads `scope` for its image: `imggen` and the journal first, then every memory.
    pub(crate) async fn snapshot(&self, scope: &Scope) -> Result<Snapshot> {
        let generation = self.backend.get(&self.keys.image_generation()).await?;
        let journal = self.journal_keys(scope).await?;
        let memories = self.read_scope(scope).await?;
        Ok(Snapshot {
            scope: scope.clone(),
            generation,
            journal,
            // An empty scope has no image (reading nothing is as fast), and drops one it had.
            bytes: if memories.is_empty() { None } else { encode(&memories, 0) },
            memories: memories.len(),
        })
    }

    /// Writes `snapshot`'s image in one atomic write, unless `imggen` changed since its read (false).
    pub(crate) async fn store(&self, snapshot: Snapshot) -> Result<bool> {
        let Snapshot { scope, generation, journal, bytes, memories } = snapshot;
        let heads = self.list_all(&self.keys.image_heads()).await?;
        let overlapping: Vec<Scope> = heads
            .iter()
            .filter_map(|key| self.keys.parse_image_head(key))
            .filter(|other| *other != scope && overlap(other, &scope))
            .collect();
        let mut old_parts = self.list_all(&self.keys.image_parts(&scope)).await?;
        for other in &overlapping {
            old_parts.extend(self.list_all(&self.keys.image_parts(other)).await?);
        }
        if self.backend.get(&self.keys.image_generation()).await? != generation {
            return Ok(false);
        }
        let token = new_id();
        if let Some(bytes) = &bytes {
            let parts = bytes.chunks(PART);
            let count = parts.len();
            for (at, part) in parts.enumerate() {
                self.backend.put_bytes(&self.keys.image_part(&scope, &token, at), part).await?;
            }
            self.backend.put(&self.keys.image_head(&scope), &format!("{token} {count} {memories}")).await?;
        } else {
            self.backend.delete(&self.keys.image_head(&scope)).await?;
        }
        self.backend.put(&self.keys.image_generation(), &token).await?;
        for other in &overlapping {
            self.backend.delete(&self.keys.image_head(other)).await?;
        }
        for key in journal.iter().chain(&old_parts) {
            self.backend.delete(key).await?;
        }
        self.backend.finish().await?;
        Ok(true)
    }
}

/// The token, part count and memory count of an image head (`{token} {parts} {memories}`).
fn parse_head(head: &str) -> Option<(String, usize, usize)> {
    let mut fields = head.split(' ');
    let token = fields.next()?.to_owned();
    let (parts, count) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
    fields.next().is_none().then_some((token, parts, count))
}

/// Why a scope without an image is read in full (no warning: it is the first open).
pub(super) const NO_IMAGE: &str = "no image";

/// True when some memory can be in both scopes (no id both name differs), so their journals overlap.
fn overlap(a: &Scope, b: &Scope) -> bool {
    let apart = |x: &Option<String>, y: &Option<String>| matches!((x, y), (Some(x), Some(y)) if x != y);
    !(apart(&a.user_id, &b.user_id) || apart(&a.agent_id, &b.agent_id) || apart(&a.run_id, &b.run_id))
}

/// `Ok` when `memories` are oldest first, as reading every memory orders them. (Their ids are not checked
/// against the scope's markers: listing 10,000 markers took about 170 ms of a 450 ms wake.)
fn in_order(memories: &[StoredMemory]) -> std::result::Result<(), String> {
    if memories.windows(2).any(|pair| pair[0].item.created_at > pair[1].item.created_at) {
        return Err("its journal places a memory out of creation order".into());
    }
    Ok(())
}
