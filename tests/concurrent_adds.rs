//! Concurrent `add()`s of one scope that contradict: each decision must see what the add before it decided.
//! Eight adds, started before any resolves, each move the user to another city; the model answers UPDATE when
//! its prompt shows where the user lives now, ADD otherwise. Serialised per scope, they end with one current
//! fact and seven UPDATEs in its history; adds of other users still run side by side.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use memwasm::core::add_pipeline::Pipeline;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::{AddResult, EventKind};
use memwasm::core::model_traits::{Llm, LlmRequest};
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::testing::{yield_once, KeepingStorage, Letters, ScriptedLlm};
use memwasm::MemoryEngine;
use serde_json::{json, Value};

const CITIES: [&str; 8] = ["Paris", "Berlin", "Rome", "Madrid", "Vienna", "Prague", "Lisbon", "Oslo"];

/// A model that answers after a few turns of the executor (as a network call would), so adds interleave;
/// it counts the calls in flight at once.
#[derive(Clone)]
struct Slow {
    inner: ScriptedLlm,
    in_flight: Rc<Cell<usize>>,
    most_in_flight: Rc<Cell<usize>>,
}

impl Llm for Slow {
    async fn generate(&self, request: &LlmRequest<'_>) -> memwasm::core::error::Result<String> {
        self.in_flight.set(self.in_flight.get() + 1);
        self.most_in_flight.set(self.most_in_flight.get().max(self.in_flight.get()));
        for _ in 0..3 {
            yield_once().await;
        }
        self.in_flight.set(self.in_flight.get() - 1);
        self.inner.generate(request).await
    }
}

/// The model: extraction finds "User lives in <city>" in "I moved to <city>"; the decision updates the
/// existing memory that says where the user lives (the first one shown), else adds the fact.
fn model() -> ScriptedLlm {
    ScriptedLlm::responding(|request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => {
            let city = request.user.rsplit("moved to ").next().unwrap_or("").trim();
            json!({ "facts": [format!("User lives in {city}")] }).to_string()
        }
        _ => decide(request.user).to_string(),
    })
}

fn decide(prompt: &str) -> Value {
    let section = |label: &str| prompt.split(label).nth(1).and_then(|rest| rest.lines().nth(1)).unwrap_or("[]");
    let existing: Vec<Value> = serde_json::from_str(section("Existing memories:")).unwrap_or_default();
    let facts: Vec<String> = serde_json::from_str(section("New facts:")).unwrap_or_default();
    let home = existing.iter().find(|m| m["text"].as_str().is_some_and(|t| t.starts_with("User lives in")));
    let memory: Vec<Value> = facts
        .iter()
        .map(|fact| match home {
            Some(home) => json!({ "id": home["id"], "text": fact, "event": "UPDATE" }),
            None => json!({ "text": fact, "event": "ADD" }),
        })
        .collect();
    json!({ "memory": memory })
}

type Engine = MemoryEngine<Slow, Letters, KeepingStorage>;

fn engine(pipeline: Pipeline) -> (Rc<Engine>, Slow) {
    let slow = Slow { inner: model(), in_flight: Rc::default(), most_in_flight: Rc::default() };
    let mut engine = MemoryEngine::new(
        slow.clone(),
        Letters::new(26).folding_case(),
        KeepingStorage::new(),
        memwasm::core::config::Prompts::default(),
    );
    engine.set_pipeline(pipeline);
    (Rc::new(engine), slow)
}

/// Starts an add of "I moved to <city>" for each of `users` × `CITIES` at once and runs them all.
fn add_all_at_once(engine: &Rc<Engine>, users: &[&str]) -> Vec<AddResult> {
    let results = Rc::new(RefCell::new(Vec::new()));
    let mut pool = LocalPool::new();
    for user in users {
        for city in CITIES {
            let (engine, results) = (engine.clone(), results.clone());
            let options = AddOptions { scope: ScopeFields::user(*user), ..AddOptions::default() };
            let task = async move {
                let added = engine.add(&json!(format!("I moved to {city}")), &options).await.unwrap();
                results.borrow_mut().push(added);
            };
            pool.spawner().spawn_local(task).unwrap();
        }
    }
    pool.run();
    Rc::try_unwrap(results).ok().unwrap().into_inner()
}

fn events(results: &[AddResult], kind: EventKind) -> usize {
    results.iter().flat_map(|r| &r.results).filter(|e| e.event == kind).count()
}

/// The user's memories, and the events of the first one's history.
fn stored(engine: &Engine, user: &str) -> (Vec<String>, Vec<EventKind>) {
    let read = Read::of(Scope { user_id: Some(user.into()), ..Scope::default() }, DEFAULT_LIMIT);
    let memories = futures_executor::block_on(engine.get_all(&read)).unwrap().results;
    let history =
        memories.first().map(|m| futures_executor::block_on(engine.history(&m.id)).unwrap()).unwrap_or_default();
    (memories.into_iter().map(|m| m.memory).collect(), history.into_iter().map(|h| h.event).collect())
}

#[test]
fn eight_concurrent_adds_that_move_the_user_end_with_one_fact_and_seven_updates() {
    for pipeline in [Pipeline::Fast, Pipeline::Exact] {
        let (engine, _) = engine(pipeline);
        let results = add_all_at_once(&engine, &["alice"]);
        let (memories, history) = stored(&engine, "alice");
        assert_eq!(memories.len(), 1, "{pipeline:?}: one current fact, found {memories:?}");
        assert!(memories[0].starts_with("User lives in "), "{pipeline:?}: {memories:?}");
        assert_eq!((events(&results, EventKind::Add), events(&results, EventKind::Update)), (1, 7), "{pipeline:?}");
        let mut expected = vec![EventKind::Add];
        expected.extend([EventKind::Update; 7]);
        assert_eq!(history, expected, "{pipeline:?}: the fact's history");
    }
}

#[test]
fn adds_of_other_users_still_run_side_by_side() {
    let (engine, slow) = engine(Pipeline::Exact);
    let results = add_all_at_once(&engine, &["alice", "bob"]);
    assert_eq!((events(&results, EventKind::Add), events(&results, EventKind::Update)), (2, 14));
    for user in ["alice", "bob"] {
        assert_eq!(stored(&engine, user).0.len(), 1, "{user}");
    }
    assert!(slow.most_in_flight.get() >= 2, "alice's and bob's model calls overlap: {}", slow.most_in_flight.get());
}
