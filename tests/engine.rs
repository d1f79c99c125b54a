//! The engine natively, with test doubles standing in for the model and the storage: call counts of
//! add(), the per-fact embedding fallback, refused LLM ids, and all-or-nothing commits.
#![cfg(not(target_arch = "wasm32"))]

use futures_executor::block_on;
use memwasm::core::add_pipeline::Pipeline;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::{EventKind, WarningCode};
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::testing::{KeepingStorage, Letters, ScriptedLlm};
use memwasm::MemoryEngine;
use serde_json::{json, Value};

type Doubles = memwasm::core::testing::Doubles<ScriptedLlm, Letters, KeepingStorage>;
type Engine = MemoryEngine<ScriptedLlm, Letters, KeepingStorage>;

/// Scripts the model: the extraction call finds `facts`, the update-decision call answers `decide(user prompt)`.
fn script(llm: &ScriptedLlm, facts: Value, decide: impl Fn(&str) -> Value + 'static) {
    llm.respond_with(move |request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => facts.to_string(),
        _ => decide(request.user).to_string(),
    });
}

/// An engine (exact pipeline) whose model extracts `facts` and adds them all; its embedder fails any batch with "poison".
fn engine(facts: Value) -> (Engine, Doubles) {
    let doubles = Doubles {
        llm: ScriptedLlm::new(),
        embedder: Letters::new(26).folding_case().failing_on("poison"),
        storage: KeepingStorage::new(),
    };
    script(&doubles.llm, facts, add_all);
    let mut engine = doubles.engine();
    engine.set_pipeline(Pipeline::Exact); // the costs below are the exact pipeline's (fast_add has its own)
    (engine, doubles)
}

fn scope(user: &str) -> AddOptions {
    AddOptions { scope: ScopeFields::user(user), ..AddOptions::default() }
}

fn all_of(user: &str) -> Read {
    Read::of(Scope { user_id: Some(user.into()), ..Scope::default() }, DEFAULT_LIMIT)
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
    let (engine, doubles) = engine(json!({ "facts": facts }));
    script(&doubles.llm, json!({ "facts": facts }), |user| {
        let mut reply = add_all(user);
        reply["memory"][0]["text"] = json!("User fact 0, rewritten");
        reply
    });
    let result = block_on(engine.add(&json!("ten things"), &scope("alice"))).unwrap();
    assert_eq!(result.results.len(), 10);
    assert!(result.results.iter().all(|e| e.event == EventKind::Add));
    assert_eq!(doubles.llm.calls().len(), 2);
    assert_eq!(doubles.embedder.requests(), 2, "one batch for the facts, one for the rewritten text");
    assert_eq!(block_on(engine.get_all(&all_of("alice"))).unwrap().results.len(), 10);
}

#[test]
fn a_failing_batch_falls_back_to_one_request_per_fact_and_skips_only_the_bad_one() {
    let (engine, doubles) = engine(json!({"facts": ["User likes tea", "User drinks poison", "User owns a cat"]}));
    let result = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    let added: Vec<&str> = result.results.iter().map(|e| e.memory.as_str()).collect();
    assert_eq!(added, ["User likes tea", "User owns a cat"]);
    assert_eq!(result.warnings.len(), 1);
    assert_eq!(result.warnings[0].code, WarningCode::EmbeddingFailed);
    assert!(result.warnings[0].message.contains("poison"));
    assert_eq!(doubles.embedder.requests(), 4, "1 failed batch + 3 single requests");
}

#[test]
fn ids_outside_the_shown_list_never_touch_other_scopes() {
    let (engine, doubles) = engine(json!({"facts": ["User likes tea"]}));
    let bobs = block_on(engine.add(&json!("x"), &scope("bob"))).unwrap().results[0].id.clone();
    let target = bobs.clone();
    script(
        &doubles.llm,
        json!({"facts": ["User likes coffee"]}),
        move |_| json!({"memory": [{"id": target, "event": "DELETE"}, {"id": "5", "event": "UPDATE", "text": "hijacked"}]}),
    );
    let result = block_on(engine.add(&json!("y"), &scope("alice"))).unwrap();
    assert!(result.results.is_empty());
    let codes: Vec<WarningCode> = result.warnings.iter().map(|w| w.code).collect();
    assert_eq!(codes, [WarningCode::UnknownMemoryId, WarningCode::UnknownMemoryId]);
    assert_eq!(block_on(engine.get(&bobs)).unwrap().unwrap().memory, "User likes tea");
    assert!(block_on(engine.get_all(&all_of("alice"))).unwrap().results.is_empty());
}

#[test]
fn a_refused_commit_changes_neither_storage_nor_index() {
    let (engine, doubles) = engine(json!({"facts": ["User likes tea", "User owns a cat"]}));
    let first = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    doubles.storage.refuse_commits_after(0);
    script(&doubles.llm, json!({"facts": ["User likes jazz"]}), add_all);
    let error = block_on(engine.add(&json!("y"), &scope("alice"))).unwrap_err();
    assert_eq!(error.code(), "STORAGE");
    assert_eq!(block_on(engine.get_all(&all_of("alice"))).unwrap().results.len(), 2);
    let id = &first.results[0].id;
    assert_eq!(block_on(engine.update(id, "User likes green tea")).unwrap_err().code(), "STORAGE");
    assert_eq!(block_on(engine.delete(id, false)).unwrap_err().code(), "STORAGE");
    assert_eq!(block_on(engine.get(id)).unwrap().unwrap().memory, "User likes tea");
    assert_eq!(block_on(engine.history(id)).unwrap().len(), 1, "only the original ADD");
}

#[test]
fn exact_duplicates_skip_the_model_entirely() {
    let (engine, doubles) = engine(json!({"facts": ["User likes tea"]}));
    let first = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    let (calls, requests) = (doubles.llm.calls().len(), doubles.embedder.requests());
    let again = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    assert_eq!(again.results.len(), 1);
    assert_eq!((again.results[0].event, &again.results[0].id), (EventKind::None, &first.results[0].id));
    assert_eq!(doubles.llm.calls().len(), calls + 1, "extraction only, no decision call");
    assert_eq!(doubles.embedder.requests(), requests, "no embedding request");
}

/// The id under which the decision prompt lists the memory `text`.
fn listed_id(user: &str, text: &str) -> Value {
    let line = user.split("Existing memories:\n").nth(1).and_then(|rest| rest.lines().next()).unwrap_or("[]");
    let shown: Vec<Value> = serde_json::from_str(line).unwrap_or_default();
    shown.into_iter().find(|m| m["text"] == text).map(|m| m["id"].clone()).unwrap_or(Value::Null)
}

#[test]
fn one_event_per_memory_when_a_duplicate_fact_and_an_update_meet() {
    let (engine, doubles) = engine(json!({"facts": ["User likes tea"]}));
    let first = block_on(engine.add(&json!("x"), &scope("alice"))).unwrap();
    let tea = first.results[0].id.clone();
    // The second add repeats the stored fact verbatim (a NONE) and brings one that updates that same memory.
    script(&doubles.llm, json!({"facts": ["User likes tea", "User likes green tea"]}), |user| {
        json!({"memory": [{"event": "UPDATE", "id": listed_id(user, "User likes tea"), "text": "User likes green tea",
            "old_memory": "User likes tea"}]})
    });
    let second = block_on(engine.add(&json!("y"), &scope("alice"))).unwrap();
    let about_tea: Vec<EventKind> = second.results.iter().filter(|e| e.id == tea).map(|e| e.event).collect();
    assert_eq!(about_tea, vec![EventKind::Update], "one event for the memory: {:?}", second.results);
    assert_eq!(second.results.len(), 1);
}
