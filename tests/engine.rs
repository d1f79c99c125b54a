//! The engine natively, with test doubles standing in for the model and the storage: call counts of
//! add(), the per-fact embedding fallback, refused LLM ids, and all-or-nothing commits.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_executor::block_on;
use memwasm::core::config::Prompts;
use memwasm::core::error::{MemoryError, Result};
use memwasm::core::options::{AddOptions, QueryOptions};
use memwasm::core::prompts::{FACT_EXTRACTION_PROMPT, UPDATE_MEMORY_PROMPT};
use memwasm::core::storage::{Changeset, InMemoryStorage, Storage};
use memwasm::core::types::{EventKind, HistoryRecord, StoredMemory};
use memwasm::providers::{Embedder, Llm};
use memwasm::MemoryEngine;
use serde_json::{json, Value};

/// A scripted answer to the update-decision prompt.
type Decide = Box<dyn Fn(&str) -> Value>;

/// What the test doubles were asked and what they answer; shared with the test through `Rc`.
#[derive(Default)]
struct Script {
    facts: RefCell<Value>,
    decision: RefCell<Option<Decide>>,
    llm_calls: Cell<usize>,
    embed_requests: Cell<usize>,
    commits_left: Cell<Option<usize>>,
}

/// Replies by which prompt it is given.
struct ScriptedLlm(Rc<Script>);

impl Llm for ScriptedLlm {
    async fn generate(&self, system: &str, user: &str, _json: bool) -> Result<String> {
        self.0.llm_calls.set(self.0.llm_calls.get() + 1);
        if system.starts_with("You are an expert at extracting") {
            return Ok(self.0.facts.borrow().to_string());
        }
        let decision = self.0.decision.borrow();
        Ok(decision.as_ref().map_or_else(|| add_all(user), |decide| decide(user)).to_string())
    }
}

/// Letter-frequency vectors; any batch containing "poison" fails as a whole.
struct LetterEmbedder(Rc<Script>);

impl Embedder for LetterEmbedder {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.0.embed_requests.set(self.0.embed_requests.get() + 1);
        if texts.iter().any(|t| t.contains("poison")) {
            return Err(MemoryError::EmbeddingResponse("scripted failure".into()));
        }
        Ok(texts
            .iter()
            .map(|t| {
                let mut v = vec![0.01f32; 26];
                t.to_lowercase().bytes().filter(u8::is_ascii_lowercase).for_each(|b| v[(b - b'a') as usize] += 1.0);
                v
            })
            .collect())
    }
}

/// In-memory storage that refuses commits once `commits_left` reaches zero.
struct FlakyStorage(Rc<Script>, InMemoryStorage);

impl Storage for FlakyStorage {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        self.1.load_memories().await
    }
    async fn commit(&self, changes: &Changeset) -> Result<()> {
        match self.0.commits_left.get() {
            Some(0) => return Err(MemoryError::Storage("disk full".into())),
            Some(n) => self.0.commits_left.set(Some(n - 1)),
            None => {}
        }
        self.1.commit(changes).await
    }
    async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
        self.1.history(memory_id).await
    }
    async fn clear(&self) -> Result<()> {
        self.1.clear().await
    }
}

type Engine = MemoryEngine<ScriptedLlm, LetterEmbedder, FlakyStorage>;

fn engine(facts: Value) -> (Engine, Rc<Script>) {
    let script = Rc::new(Script { facts: RefCell::new(facts), ..Script::default() });
    let prompts =
        Prompts { fact_extraction: FACT_EXTRACTION_PROMPT.into(), update_decision: UPDATE_MEMORY_PROMPT.into() };
    let storage = FlakyStorage(script.clone(), InMemoryStorage::default());
    (MemoryEngine::new(ScriptedLlm(script.clone()), LetterEmbedder(script.clone()), storage, prompts), script)
}

fn scope(user: &str) -> AddOptions {
    AddOptions { user_id: Some(user.into()), ..AddOptions::default() }
}

fn all_of(user: &str) -> QueryOptions {
    QueryOptions { user_id: Some(user.into()), ..QueryOptions::default() }
}

/// The decision that adds every new fact as it is.
fn add_all(user: &str) -> Value {
    let line = user.split("New facts:\n").nth(1).and_then(|rest| rest.lines().next()).unwrap_or("[]");
    let facts: Vec<String> = serde_json::from_str(line).unwrap_or_default();
    json!({"memory": facts.iter().map(|f| json!({"event": "ADD", "text": f})).collect::<Vec<_>>()})
}

#[test]
fn ten_facts_cost_two_llm_calls_and_at_most_two_embedding_requests() {
    let facts: Vec<String> = (0..10).map(|i| format!("User fact {i} {}", "xyz".repeat(i + 1))).collect();
    let (engine, script) = engine(json!({ "facts": facts }));
    *script.decision.borrow_mut() = Some(Box::new(|user| {
        let mut reply = add_all(user);
        reply["memory"][0]["text"] = json!("User fact 0, rewritten");
        reply
    }));
    let result = block_on(engine.add(&json!("ten things"), &scope("alice"))).unwrap();
    assert_eq!(result.results.len(), 10);
    assert!(result.results.iter().all(|e| e.event == EventKind::Add));
    assert_eq!(script.llm_calls.get(), 2);
    assert_eq!(script.embed_requests.get(), 2, "one batch for the facts, one for the rewritten text");
    assert_eq!(block_on(engine.get_all(&all_of("alice"))).unwrap().len(), 10);
}

#[test]
fn a_failing_batch_falls_back_to_one_request_per_fact_and_skips_only_the_bad_one() {
    let (engine, script) = engine(json!({"facts": ["User likes tea", "User drinks poison", "User owns a cat"]}));
    let result = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    let added: Vec<&str> = result.results.iter().map(|e| e.memory.as_str()).collect();
    assert_eq!(added, ["User likes tea", "User owns a cat"]);
    assert_eq!(result.warnings.len(), 1);
    assert_eq!(result.warnings[0].code, "EMBEDDING_FAILED");
    assert!(result.warnings[0].message.contains("poison"));
    assert_eq!(script.embed_requests.get(), 4, "1 failed batch + 3 single requests");
}

#[test]
fn ids_outside_the_shown_list_never_touch_other_scopes() {
    let (engine, script) = engine(json!({"facts": ["User likes tea"]}));
    let bobs = block_on(engine.add(&json!("x"), &scope("bob"))).unwrap().results[0].id.clone();
    *script.facts.borrow_mut() = json!({"facts": ["User likes coffee"]});
    let target = bobs.clone();
    *script.decision.borrow_mut() = Some(Box::new(
        move |_| json!({"memory": [{"id": target, "event": "DELETE"}, {"id": "5", "event": "UPDATE", "text": "hijacked"}]}),
    ));
    let result = block_on(engine.add(&json!("y"), &scope("alice"))).unwrap();
    assert!(result.results.is_empty());
    let codes: Vec<&str> = result.warnings.iter().map(|w| w.code).collect();
    assert_eq!(codes, ["UNKNOWN_MEMORY_ID", "UNKNOWN_MEMORY_ID"]);
    assert_eq!(block_on(engine.get(&bobs)).unwrap().unwrap().memory, "User likes tea");
    assert!(block_on(engine.get_all(&all_of("alice"))).unwrap().is_empty());
}

#[test]
fn a_refused_commit_changes_neither_storage_nor_index() {
    let (engine, script) = engine(json!({"facts": ["User likes tea", "User owns a cat"]}));
    let first = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    script.commits_left.set(Some(0));
    *script.facts.borrow_mut() = json!({"facts": ["User likes jazz"]});
    let error = block_on(engine.add(&json!("y"), &scope("alice"))).unwrap_err();
    assert_eq!(error.code(), "STORAGE");
    assert_eq!(block_on(engine.get_all(&all_of("alice"))).unwrap().len(), 2);
    let id = &first.results[0].id;
    assert_eq!(block_on(engine.update(id, "User likes green tea")).unwrap_err().code(), "STORAGE");
    assert_eq!(block_on(engine.delete(id)).unwrap_err().code(), "STORAGE");
    assert_eq!(block_on(engine.get(id)).unwrap().unwrap().memory, "User likes tea");
    assert_eq!(block_on(engine.history(id)).unwrap().len(), 1, "only the original ADD");
}

#[test]
fn exact_duplicates_skip_the_model_entirely() {
    let (engine, script) = engine(json!({"facts": ["User likes tea"]}));
    let first = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    let (calls, requests) = (script.llm_calls.get(), script.embed_requests.get());
    let again = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    assert_eq!(again.results.len(), 1);
    assert_eq!((again.results[0].event, &again.results[0].id), (EventKind::None, &first.results[0].id));
    assert_eq!(script.llm_calls.get(), calls + 1, "extraction only, no decision call");
    assert_eq!(script.embed_requests.get(), requests, "no embedding request");
}
