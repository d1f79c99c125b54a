//! The memory engine: an in-RAM search index in front of a `Storage`, plus the model providers.
//! Every write goes to storage first (all or nothing) and only then into the index.

use std::cell::RefCell;

use crate::core::config::Prompts;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::new_id;
use crate::core::keyword::KeywordIndex;
use crate::core::lifecycle::LifecycleSettings;
use crate::core::model::types::{EventKind, HistoryRecord, MemoryItem, StoredMemory};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::pace::{Pace, Phase, Progress, Unpaced};
use crate::core::packed::Packed;
use crate::core::query_speaker::{is_turn, keyword_text};
use crate::core::side_records::SideMap;
use crate::core::storage::{Changeset, RemoteChange, Storage};
use crate::core::time::Clock;
use crate::core::tokens::TokenCounter;
use crate::core::vector_store::{normalized, InMemoryVectorStore, VectorStore};

/// Fact-based memory over an LLM `L`, an embedder `E`, persistence `S` and a search index `V`.
pub struct MemoryEngine<L, E, S, V = InMemoryVectorStore> {
    pub(crate) llm: L,
    pub(crate) embedder: E,
    pub(crate) storage: S,
    pub(crate) index: RefCell<V>,
    /// BM25 over the same memories' texts, kept in step with `index`.
    pub(crate) keywords: RefCell<KeywordIndex>,
    pub(crate) prompts: Prompts,
    /// Where "now" comes from (TTL, decay, timestamps).
    pub(crate) clock: Clock,
    /// How tokens are counted (budgets, context windows): the estimate, or an app's exact tokenizer.
    pub(crate) tokens: TokenCounter,
    pub(crate) lifecycle: LifecycleSettings,
    /// The side records of the kinds read so far, kept in step with storage by `commit`.
    pub(crate) side: RefCell<SideMap>,
    /// The locks that keep two calls for the same key (a group, a scope's metadata, an add's decision) from
    /// interleaving their read-modify-write: the engine's own, or its peers' (shared).
    pub(crate) locks: std::rc::Rc<super::locks::Locks>,
    /// False with mem0's `disableHistory`: changes then leave no history records.
    pub(crate) keep_history: bool,
    /// A remote vector index (Chroma), when vectors are kept and searched there.
    pub(crate) remote: crate::core::vector_store::remote_slot::RemoteSlot,
    /// How `add()` finds the memories its decision sees, unless a call says otherwise.
    pub(crate) pipeline: crate::core::add_pipeline::Pipeline,
    /// Rewritten texts waiting for their vector (the fast pipeline).
    pub(crate) deferred: super::waiting_vectors::DeferredVectors,
    /// The engines this one shares its locks and writes with, when joined (`peers`).
    pub(crate) peers: super::peers::PeerLink,
    /// Which model the embedder is, when the host said (see `embedding_model`).
    pub(crate) embedding_model: Option<crate::core::model::embedding_model::EmbeddingModel>,
    /// The reranker `search(…, {rerank: true})` uses, when configured (see `rerank`).
    pub(crate) reranker: Option<crate::core::rerank::RerankStage>,
    /// The features' own states and hooks (see `extensions`).
    pub(crate) extensions: super::extensions::Extensions<MemoryEngine<L, E, S, V>>,
}

/// A history record for `item` at `timestamp`.
pub(crate) fn history_record(
    item: &MemoryItem,
    event: EventKind,
    old_value: Option<String>,
    new_value: Option<String>,
    timestamp: String,
) -> HistoryRecord {
    HistoryRecord {
        id: new_id(),
        memory_id: item.id.clone(),
        event,
        old_value,
        new_value,
        timestamp,
        is_deleted: event == EventKind::Delete,
        scope: item.scope.clone(),
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// An engine with an empty index and no feature attached (`new_with_index` attaches this build's).
    pub(crate) fn assemble(llm: L, embedder: E, storage: S, prompts: Prompts, index: V) -> Self {
        Self {
            llm,
            embedder,
            storage,
            index: RefCell::new(index),
            keywords: RefCell::default(),
            prompts,
            clock: Clock::default(),
            tokens: TokenCounter::default(),
            lifecycle: LifecycleSettings::default(),
            side: RefCell::default(),
            locks: Default::default(),
            keep_history: true,
            remote: Default::default(),
            pipeline: Default::default(),
            deferred: Default::default(),
            peers: Default::default(),
            embedding_model: None,
            reranker: None,
            extensions: Default::default(),
        }
    }

    /// Like `assemble`, with every stored memory loaded into `index` (`open_with_index` attaches the features).
    pub(crate) async fn assemble_loaded(
        llm: L,
        embedder: E,
        storage: S,
        prompts: Prompts,
        mut index: V,
    ) -> Result<Self> {
        let mut keywords = KeywordIndex::default();
        let packed = storage.load_packed().await?;
        let clock = Clock::default();
        clock.loaded_up_to(packed.memories.iter().map(|memory| memory.item.created_at.as_str()));
        fill(&mut index, &mut keywords, packed)?;
        let mut engine = Self::assemble(llm, embedder, storage, prompts, index);
        engine.clock = clock;
        *engine.keywords.borrow_mut() = keywords;
        Ok(engine)
    }

    /// Tokens of `text`, as the memory counts them everywhere (budgets, windows).
    pub fn count_tokens(&self, text: &str) -> usize {
        self.tokens.count(text)
    }

    /// Writes `changes` to storage, then mirrors them in the index (and a remote vector index: its
    /// vectors before storage, its deletes after).
    pub(crate) async fn commit(&self, changes: Changeset) -> Result<()> {
        self.commit_paced(changes, &Unpaced).await
    }

    /// Like `commit`, in turns that `pace` ends (see `import`).
    pub(crate) async fn commit_paced(&self, mut changes: Changeset, pace: &dyn Pace) -> Result<()> {
        // A commit of nothing (a settle with nothing to settle) reads nothing for the features either.
        for hooks in self.extensions.hooks().filter(|_| !changes.is_empty()) {
            if let Some(prepare) = hooks.prepare_commit(self) {
                prepare.await?;
            }
        }
        for hooks in self.extensions.hooks() {
            hooks.before_commit(self, &mut changes);
        }
        if !self.keep_history {
            changes.history.clear();
        }
        if changes.is_empty() {
            return Ok(());
        }
        let remote = self.remote_vectors().prepare_remote(&mut changes).await?;
        self.remote_vectors().remote_before_commit(&remote).await?;
        let records = changes.upserts.len() + changes.history.len();
        pace.report(Progress { phase: Phase::Write, done: 0, total: records });
        self.storage.commit_paced(&changes, pace).await?;
        pace.report(Progress { phase: Phase::Write, done: records, total: records });
        self.side.borrow_mut().apply_to_filled(&changes.side);
        for hooks in self.extensions.hooks() {
            hooks.after_commit(&changes);
        }
        let deletes = changes.deletes.clone();
        let told = self.has_peers().then(|| changes.upserts.clone());
        self.mirror_paced(&changes.deletes, changes.upserts, pace).await?;
        if let Some(upserts) = told {
            self.tell_peers(RemoteChange { cleared: false, upserts, deletes: deletes.clone() });
        }
        self.remote_vectors().remote_after_commit(&deletes, remote).await;
        Ok(())
    }

    /// Brings the in-RAM index in line with what storage now holds: emptied when `cleared`, then `deletes`
    /// removed and `upserts` written. Every index change goes through here (own commits, reset, other tabs),
    /// except bulk loads ([`fill`]: opening, and a scope's first use without a remote index).
    pub(crate) fn mirror(&self, cleared: bool, deletes: &[String], upserts: Vec<StoredMemory>) -> Result<()> {
        let mut index = self.index.borrow_mut();
        let mut keywords = self.keywords.borrow_mut();
        if cleared {
            index.clear();
            keywords.clear();
            self.remote.forget_all();
            self.extensions.hooks().for_each(|hooks| hooks.on_clear());
        }
        for id in deletes {
            index.remove(id);
            keywords.remove(id);
            self.remote.forget(id);
        }
        make_room(&mut *index, &mut keywords, upserts.len());
        for mut memory in upserts {
            self.remote.take_vector(&mut memory); // with a remote index, vectors stay there only
            index_keywords(&mut keywords, &memory.item);
            index.upsert(memory)?;
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

    /// Normalises the embedder's `vector` and checks its length against the index (or, while the index
    /// holds no vector yet, against the embedder's configured dimensions).
    pub(crate) fn fit_index(&self, vector: Vec<f32>) -> Result<Vec<f32>> {
        let length = vector.len();
        let vector = normalized(vector)
            .ok_or_else(|| MemoryError::EmbeddingResponse("embedding is a zero or non-finite vector".into()))?;
        match self.index.borrow().dimension().or(self.remote.dimension.get()).or(self.embedder.dimensions()) {
            Some(expected) if expected != length => Err(MemoryError::DimensionMismatch { expected, actual: length }),
            _ => Ok(vector),
        }
    }

    /// Like `fit_index`, for a vector the caller gave: a zero or non-finite one is `INVALID_INPUT`.
    pub(crate) fn fit_given(&self, vector: Vec<f32>) -> Result<Vec<f32>> {
        if vector.is_empty() || normalized(vector.clone()).is_none() {
            return Err(MemoryError::InvalidInput("embedding must be a non-empty, non-zero, finite vector".into()));
        }
        self.fit_index(vector)
    }
}

/// The fewest upserts of one commit for which the indexes make room at once (below, each grows as it goes:
/// making exact room for every small write would copy the index each time).
const BULK: usize = 256;

/// Makes room in the indexes for a commit of `upserts` memories, when it is a bulk one (see [`BULK`]).
pub(crate) fn make_room<V: VectorStore>(index: &mut V, keywords: &mut KeywordIndex, upserts: usize) {
    if upserts >= BULK {
        index.reserve(upserts);
        keywords.reserve(upserts);
    }
}

/// Indexes a memory's text for keyword search; a message stored as it was said (it has a `role`) is
/// indexed as a turn of its scope's conversation, searched with the turn before it, after its speaker's
/// name (`query_speaker::keyword_text`).
pub(crate) fn index_keywords(keywords: &mut KeywordIndex, item: &MemoryItem) {
    match keyword_text(item) {
        (text, true) => keywords.upsert_turn(&item.id, &text, &item.scope, &item.created_at),
        (text, false) => keywords.upsert_in(&item.id, &text, &item.scope),
    }
}

/// Puts `packed`'s memories into `index` and their texts (or their terms counted ahead) into `keywords`,
/// the vectors copied from its rows in bulk (no `Vec` per vector): how opening and a scope's first use
/// load. Without a remote index only (`mirror` hands vectors over to one).
pub(crate) fn fill<V: VectorStore>(index: &mut V, keywords: &mut KeywordIndex, packed: Packed) -> Result<()> {
    keywords.reserve(packed.memories.len());
    for (at, memory) in packed.memories.iter().enumerate() {
        let item = &memory.item;
        match packed.counted_text(at) {
            Some(counted) => {
                let turn = is_turn(item).then_some(item.created_at.as_str());
                keywords.upsert_counted(&item.id, counted, &item.scope, turn);
            }
            None => index_keywords(keywords, item),
        }
    }
    index.load_packed(packed)
}
