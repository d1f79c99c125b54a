//! An engine with no LLM, letter-frequency vectors, a keeping storage and a clock the test moves.

use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use memwasm::core::lifecycle::LifecycleSettings;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::{EventKind, MemoryItem};
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::testing::{Doubles, KeepingStorage, Letters, NoLlm};
use memwasm::core::time::Clock;
use memwasm::MemoryEngine;
use serde_json::json;

pub type Engine = MemoryEngine<NoLlm, Letters, KeepingStorage>;

pub const DAY: i64 = 86_400_000;
/// 2025-01-01T00:00:00Z.
pub const START: i64 = 1_735_689_600_000;

/// The engine, its storage, and the clock's hand (milliseconds since the epoch).
pub struct Rig {
    pub engine: Engine,
    pub storage: KeepingStorage,
    pub now: Rc<Cell<i64>>,
}

impl Rig {
    pub fn new(settings: LifecycleSettings) -> Self {
        let doubles = Doubles { llm: NoLlm, embedder: Letters::new(26).folding_case(), storage: KeepingStorage::new() };
        let now = Rc::new(Cell::new(START));
        let mut engine = doubles.engine();
        engine.set_clock(Clock::from_fn({
            let now = now.clone();
            move || now.get()
        }));
        engine.set_lifecycle(settings);
        Self { engine, storage: doubles.storage, now }
    }

    /// Moves the clock forward by `ms`.
    pub fn wait(&self, ms: i64) {
        self.now.set(self.now.get() + ms);
    }

    /// Adds `text` verbatim for `user` with `extra` add options (JSON); returns its id.
    pub fn add(&self, user: &str, text: &str, extra: serde_json::Value) -> String {
        let mut options = json!({"userId": user, "infer": false});
        options.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
        let options: AddOptions = serde_json::from_value(options).unwrap();
        let added = block_on(self.engine.add(&json!(text), &options)).unwrap();
        let event = added.results.into_iter().find(|e| e.event == EventKind::Add).expect("an ADD");
        event.id
    }

    /// The live memories of `user`, oldest first.
    pub fn texts(&self, user: &str) -> Vec<String> {
        let page = block_on(self.engine.get_all(&Read::of(user_scope(user), DEFAULT_LIMIT))).unwrap();
        page.results.into_iter().map(|m| m.memory).collect()
    }

    pub fn item(&self, id: &str) -> MemoryItem {
        block_on(self.engine.get(id)).unwrap().expect("a live memory")
    }

    /// The events of a memory's history, oldest first.
    pub fn events(&self, id: &str) -> Vec<EventKind> {
        block_on(self.engine.history(id)).unwrap().into_iter().map(|r| r.event).collect()
    }
}

pub fn user_scope(user: &str) -> Scope {
    Scope { user_id: Some(user.into()), ..Scope::default() }
}
