//! Test doubles: an LLM that replays scripted replies, embedders with fixed vectors or none at all, and a
//! storage that can hand memories back at open.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use memwasm::core::config::Prompts;
use memwasm::core::error::{MemoryError, Result};
use memwasm::core::options::{AddOptions, QueryOptions};
use memwasm::core::prompts::{FACT_EXTRACTION_PROMPT, UPDATE_MEMORY_PROMPT};
use memwasm::core::retrieve::SearchOptions;
use memwasm::core::storage::{Changeset, InMemoryStorage, Storage};
use memwasm::core::types::{HistoryRecord, StoredMemory};
use memwasm::providers::{Embedder, Llm};
use memwasm::MemoryEngine;

/// Counts and captures shared between a test and its doubles.
#[derive(Default)]
pub struct Log {
    pub llm_prompts: RefCell<Vec<String>>,
    pub llm_replies: RefCell<VecDeque<String>>,
    pub embed_requests: Cell<usize>,
    pub stored: RefCell<Vec<StoredMemory>>,
}

/// Answers each call with the next scripted reply (`{}` once they run out); records the user prompts.
pub struct ScriptedLlm(pub Rc<Log>);

impl Llm for ScriptedLlm {
    async fn generate(&self, _system: &str, user: &str, _json: bool) -> Result<String> {
        self.0.llm_prompts.borrow_mut().push(user.to_owned());
        Ok(self.0.llm_replies.borrow_mut().pop_front().unwrap_or_else(|| "{}".into()))
    }
}

/// Fixed 4-dimensional vectors: the first table key contained in a text decides its vector.
pub struct TableEmbedder(pub Rc<Log>, pub Vec<(&'static str, [f32; 4])>);

impl Embedder for TableEmbedder {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.0.embed_requests.set(self.0.embed_requests.get() + 1);
        Ok(texts
            .iter()
            .map(|text| self.1.iter().find(|(key, _)| text.contains(key)).map_or([0.0, 0.0, 0.0, 1.0], |(_, v)| *v))
            .map(Vec::from)
            .collect())
    }
}

/// `embedder: {provider: "none"}`: not configured; any call is counted and fails.
pub struct NoEmbedder(pub Rc<Log>);

impl Embedder for NoEmbedder {
    async fn embed(&self, _texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.0.embed_requests.set(self.0.embed_requests.get() + 1);
        Err(MemoryError::InvalidInput("no embedder".into()))
    }

    fn is_configured(&self) -> bool {
        false
    }
}

/// In-memory storage that also keeps the memories, so a second engine can `open` them.
pub struct KeepingStorage(pub Rc<Log>, pub InMemoryStorage);

impl Storage for KeepingStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        Ok(self.0.stored.borrow().clone())
    }
    async fn commit(&self, changes: &Changeset) -> Result<()> {
        {
            let mut stored = self.0.stored.borrow_mut();
            let replaced = |m: &StoredMemory| {
                changes.deletes.contains(&m.item.id) || changes.upserts.iter().any(|u| u.item.id == m.item.id)
            };
            stored.retain(|m| !replaced(m));
            stored.extend(changes.upserts.iter().cloned());
        }
        self.1.commit(changes).await
    }
    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        self.1.history(memory_id).await
    }
    async fn clear(&self) -> Result<()> {
        self.0.stored.borrow_mut().clear();
        self.1.clear().await
    }
}

pub type Engine<E> = MemoryEngine<ScriptedLlm, E, KeepingStorage>;

pub fn prompts() -> Prompts {
    Prompts { fact_extraction: FACT_EXTRACTION_PROMPT.into(), update_decision: UPDATE_MEMORY_PROMPT.into() }
}

/// An engine with `embedder` built from the shared log.
pub fn engine_with<E: Embedder>(log: &Rc<Log>, embedder: E) -> Engine<E> {
    MemoryEngine::new(
        ScriptedLlm(log.clone()),
        embedder,
        KeepingStorage(log.clone(), InMemoryStorage::default()),
        prompts(),
    )
}

/// The car data set: vectors chosen so that every method orders it differently (see `search.rs`).
pub fn car_embedder(log: &Rc<Log>) -> TableEmbedder {
    TableEmbedder(
        log.clone(),
        vec![
            ("automobile", [1.0, 0.0, 0.0, 0.0]),
            ("pays car insurance", [0.6, 0.8, 0.0, 0.0]),
            ("car racing", [0.8, 0.0, 0.6, 0.0]),
            ("gardening", [0.0, 0.0, 1.0, 0.0]),
            ("car insurance", [1.0, 0.0, 0.0, 0.0]),
        ],
    )
}

pub const AUTOMOBILE: &str = "User owns an automobile";
pub const INSURANCE: &str = "User pays car insurance monthly";
pub const RACING: &str = "User likes car racing";
pub const GARDENING: &str = "User enjoys gardening";

pub fn add_options(user: &str) -> AddOptions {
    AddOptions { user_id: Some(user.into()), infer: Some(false), ..AddOptions::default() }
}

pub fn read(user: &str) -> QueryOptions {
    QueryOptions { user_id: Some(user.into()), ..QueryOptions::default() }
}

pub fn search(user: &str, method: &str) -> SearchOptions {
    SearchOptions { method: Some(serde_json::from_value(method.into()).unwrap()), ..SearchOptions::from(read(user)) }
}

/// Stores `texts` verbatim (no LLM) for `user`.
pub fn store<E: Embedder>(engine: &Engine<E>, user: &str, texts: &[&str]) {
    let messages: Vec<_> = texts.iter().map(|t| serde_json::json!({"role": "user", "content": t})).collect();
    let added = futures_executor::block_on(engine.add(&serde_json::json!(messages), &add_options(user))).unwrap();
    assert_eq!(added.results.len(), texts.len(), "{added:?}");
}
