//! The fast pipeline with test doubles: what the decision is shown, how many requests it costs, that the
//! decision does not wait for the facts' vectors, and rewritten texts settling later (and surviving a reopen).

use crate::core::model::scope_fields::ScopeFields;
use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::{json, Value};

use crate::core::add_pipeline::Pipeline;
use crate::core::engine::memory::MemoryEngine;
use crate::core::model::scope::Scope;
use crate::core::model::types::EventKind;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::Read;
use crate::core::testing::{Doubles, KeepingStorage, ScriptedLlm, TableEmbedder};
use crate::core::vector_store::VectorStore;

type Engine = MemoryEngine<ScriptedLlm, TableEmbedder, KeepingStorage>;

/// Paris and Berlin are close, oat milk and coffee are far from both and from each other.
fn embedder() -> TableEmbedder {
    TableEmbedder::new(
        &[
            ("Paris", &[1.0, 0.0, 0.0, 0.0]),
            ("Berlin", &[0.9, 0.2, 0.0, 0.0]),
            ("oat milk", &[0.0, 0.0, 1.0, 0.0]),
            ("coffee", &[0.0, 0.0, 0.0, 1.0]),
        ],
        &[0.0, 1.0, 0.0, 0.0],
    )
}

fn alice() -> AddOptions {
    AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() }
}

/// An engine holding Alice's memories about Paris, coffee and chess (stored as they are), whose model
/// extracts `facts` and answers the decision with `decide(the decision's user prompt)`.
fn engine(
    facts: &[&str],
    decide: impl Fn(&str) -> Value + 'static,
) -> (Engine, Doubles<ScriptedLlm, TableEmbedder, KeepingStorage>) {
    let doubles = Doubles { llm: ScriptedLlm::new(), embedder: embedder(), storage: KeepingStorage::new() };
    let engine = doubles.engine();
    let earlier = json!([
        {"role": "user", "content": "User lives in Paris"},
        {"role": "user", "content": "User drinks coffee with oat milk"},
        {"role": "user", "content": "User plays chess on Sundays"}
    ]);
    block_on(engine.add(&earlier, &AddOptions { infer: Some(false), ..alice() })).unwrap();
    let facts: Vec<String> = facts.iter().map(|f| (*f).to_owned()).collect();
    doubles.llm.respond_with(move |request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => json!({ "facts": facts }).to_string(),
        _ => decide(request.user).to_string(),
    });
    (engine, doubles)
}

fn decision_prompt(doubles: &Doubles<ScriptedLlm, TableEmbedder, KeepingStorage>) -> String {
    let calls = doubles.llm.calls();
    calls.iter().rev().find(|c| c.reply != Some("record_facts")).map(|c| c.user.clone()).unwrap_or_default()
}

#[test]
fn the_decision_sees_the_sentences_neighbours_and_the_facts_keyword_hits_and_starts_before_their_vectors() {
    let embedded_at_decision = Rc::new(Cell::new(usize::MAX));
    let seen = embedded_at_decision.clone();
    let (engine, doubles) = engine(&["User moved to Berlin", "User prefers chess openings"], |_| json!({"memory": []}));
    let counter = doubles.embedder.clone();
    let before = counter.requests();
    doubles.llm.respond_with(move |request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => json!({"facts": ["User moved to Berlin", "User prefers chess openings"]}).to_string(),
        _ => {
            seen.set(counter.requests());
            json!({"memory": []}).to_string()
        }
    });
    let talk = json!([{"role": "user", "content": "I packed everything. Now I live in Berlin!"}]);
    block_on(engine.add(&talk, &alice())).unwrap();
    let prompt = decision_prompt(&doubles);
    assert!(prompt.contains("User lives in Paris"), "the sentence \"…Berlin!\" finds Paris by vector: {prompt}");
    assert!(prompt.contains("User plays chess on Sundays"), "the fact's keyword \"chess\" finds it: {prompt}");
    assert_eq!(embedded_at_decision.get(), before + 1, "only the conversation was embedded when the decision began");
    assert_eq!(doubles.embedder.requests(), before + 2, "conversation, then facts");
    assert_eq!(doubles.llm.calls().len(), 2, "extraction and decision");
}

#[test]
fn the_exact_pipeline_shows_each_facts_nearest_memories_after_embedding_them() {
    let (mut engine, doubles) = engine(&["User moved to Berlin"], |_| json!({"memory": []}));
    engine.set_pipeline(Pipeline::Exact);
    let before = doubles.embedder.requests();
    block_on(engine.add(&json!("Now I live in Berlin!"), &alice())).unwrap();
    assert!(decision_prompt(&doubles).contains("User lives in Paris"));
    assert_eq!(doubles.embedder.requests(), before + 1, "the facts only");
    let fast = AddOptions { pipeline: Some(Pipeline::Fast), ..alice() };
    block_on(engine.add(&json!("Berlin again."), &fast)).unwrap();
    assert_eq!(doubles.embedder.requests(), before + 3, "a call's pipeline wins over the engine's");
}

/// Updates memory "0" (Paris) to `text`.
fn update_first(text: &'static str) -> impl Fn(&str) -> Value {
    move |_| json!({"memory": [{"id": "0", "event": "UPDATE", "text": text}]})
}

#[test]
fn without_a_host_that_settles_later_rewrites_are_embedded_before_add_resolves() {
    let (engine, doubles) = engine(&["User moved to Berlin"], update_first("User moved from Paris to Berlin"));
    let before = doubles.embedder.requests();
    let result = block_on(engine.add(&json!("I moved to Berlin."), &alice())).unwrap();
    assert_eq!(result.results[0].event, EventKind::Update);
    assert_eq!(doubles.embedder.requests(), before + 3);
    assert!(engine.index.borrow().vector(&result.results[0].id).is_some());
    assert!(!engine.has_unsettled_vectors());
}

#[test]
fn deferred_rewrites_are_stored_without_a_vector_then_settled_by_the_next_search() {
    let (engine, doubles) = engine(&["User moved to Berlin"], update_first("User moved to Berlin last month"));
    engine.defer_vectors(true);
    let before = doubles.embedder.requests();
    let result = block_on(engine.add(&json!("I moved to Berlin."), &alice())).unwrap();
    let id = result.results[0].id.clone();
    assert_eq!(doubles.embedder.requests(), before + 2, "the rewrite waits");
    assert!(engine.index.borrow().vector(&id).is_none());
    assert!(engine.has_unsettled_vectors());
    assert_eq!(block_on(engine.side_records("vectors-pending")).unwrap().len(), 1);

    let found =
        block_on(engine.search("Berlin", &Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, 1)))
            .unwrap();
    assert_eq!(found.results[0].id, id, "ranked by its new vector");
    assert_eq!(doubles.embedder.requests(), before + 4, "the settle and the query, side by side");
    let expected = engine.fit_index(vec![0.9, 0.2, 0.0, 0.0]).unwrap();
    assert_eq!(engine.index.borrow().vector(&id), Some(expected));
    assert!(!engine.has_unsettled_vectors());
    assert!(block_on(engine.side_records("vectors-pending")).unwrap().is_empty());
    assert!(doubles.storage.memories().iter().any(|m| m.item.id == id && m.embedding.is_some()));
}

#[test]
fn a_text_left_waiting_by_one_instance_is_settled_by_the_next() {
    let (first, doubles) = engine(&["User moved to Berlin"], update_first("User moved from Paris to Berlin"));
    first.defer_vectors(true);
    let id = block_on(first.add(&json!("I moved to Berlin."), &alice())).unwrap().results[0].id.clone();
    drop(first); // gone before it settled

    let reopened = block_on(doubles.open()).unwrap();
    assert!(reopened.index.borrow().vector(&id).is_none());
    reopened.defer_vectors(true);
    block_on(reopened.settle_vectors()).unwrap();
    assert!(reopened.index.borrow().vector(&id).is_some());
    assert!(doubles.storage.memories().iter().all(|m| m.embedding.is_some()));
}

#[test]
fn a_text_changed_before_it_settled_keeps_its_own_vector() {
    let (engine, doubles) = engine(&["User moved to Berlin"], update_first("User moved from Paris to Berlin"));
    engine.defer_vectors(true);
    let id = block_on(engine.add(&json!("I moved to Berlin."), &alice())).unwrap().results[0].id.clone();
    block_on(engine.update(&id, "User drinks coffee")).unwrap();
    let before = doubles.embedder.requests();
    block_on(engine.settle_vectors()).unwrap();
    assert_eq!(doubles.embedder.requests(), before, "the old text is not sent");
    let expected = engine.fit_index(vec![0.0, 0.0, 0.0, 1.0]).unwrap();
    assert_eq!(engine.index.borrow().vector(&id), Some(expected), "update()'s own vector stays");
    assert!(!engine.has_unsettled_vectors());
}

#[test]
fn a_failed_conversation_embedding_falls_back_to_the_exact_path() {
    let doubles = Doubles {
        llm: ScriptedLlm::new(),
        embedder: crate::core::testing::Letters::new(26).failing_on("poison"),
        storage: KeepingStorage::new(),
    };
    doubles.llm.respond_with(|request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => json!({"facts": ["User likes tea"]}).to_string(),
        _ => json!({"memory": [{"event": "ADD", "text": "User likes tea"}]}).to_string(),
    });
    let engine = doubles.engine();
    let result = block_on(engine.add(&json!("I like tea, not poison."), &alice())).unwrap();
    assert_eq!(result.results.len(), 1);
    assert_eq!(result.results[0].event, EventKind::Add);
    assert!(result.warnings.is_empty(), "{:?}", result.warnings);
    assert_eq!(doubles.embedder.requests(), 2, "the failed conversation, then the facts");
}

#[cfg(feature = "core-features")]
#[test]
fn a_rewrite_the_embedder_refuses_is_tried_three_times_then_left_keyword_only_until_a_reopen() {
    let doubles = Doubles {
        llm: ScriptedLlm::new(),
        embedder: crate::core::testing::Letters::new(26).failing_on("poison"),
        storage: KeepingStorage::new(),
    };
    let engine = doubles.engine();
    engine.defer_vectors(true);
    let earlier =
        json!([{"role": "user", "content": "User lives in Paris"}, {"role": "user", "content": "User likes tea"}]);
    block_on(engine.add(&earlier, &AddOptions { infer: Some(false), ..alice() })).unwrap();
    doubles.llm.respond_with(|request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => json!({"facts": ["User moved to Berlin", "User likes herbal tea"]}).to_string(),
        _ => json!({"memory": [
            {"id": "0", "event": "UPDATE", "text": "User lives in Berlin"},
            {"id": "1", "event": "UPDATE", "text": "User likes poison-free herbal tea"}
        ]})
        .to_string(),
    });
    let result = block_on(engine.add(&json!("I moved to Berlin. I like herbal tea."), &alice())).unwrap();
    let id_of = |needle: &str| result.results.iter().find(|e| e.memory.contains(needle)).unwrap().id.clone();
    let (berlin, poison) = (id_of("Berlin"), id_of("poison"));
    block_on(engine.settle_vectors()).unwrap();
    assert!(engine.index.borrow().vector(&berlin).is_some());
    assert!(engine.index.borrow().vector(&poison).is_none(), "refused on its own: keyword-only");
    assert!(engine.has_unsettled_vectors(), "tried once of three");
    let alice_scope = Scope { user_id: Some("alice".into()), ..Scope::default() };
    for tries in 2..=crate::core::engine::deferred_vectors::MAX_SETTLE_TRIES {
        let before = doubles.embedder.requests();
        block_on(engine.settle_vectors()).unwrap();
        assert_eq!(doubles.embedder.requests(), before + 1, "try {tries}: the refused text alone");
    }
    assert!(!engine.has_unsettled_vectors(), "given up");
    let before = doubles.embedder.requests();
    let found = block_on(engine.search("tea", &Read::of(alice_scope.clone(), 5))).unwrap();
    assert_eq!(doubles.embedder.requests(), before + 1, "the query only: the text is not sent again");
    let codes: Vec<&str> = found.warnings.iter().map(|w| w.code.as_str()).collect();
    assert_eq!(codes, ["VECTORS_PENDING"]);
    assert_eq!(block_on(engine.lifecycle().stats(&alice_scope)).unwrap().keyword_only, 1);
    assert_eq!(block_on(engine.side_records("vectors-pending")).unwrap().len(), 1, "kept for the next instance");

    let doubles = Doubles { embedder: crate::core::testing::Letters::new(26), ..doubles };
    let engine = block_on(doubles.open()).unwrap();
    engine.defer_vectors(true);
    block_on(engine.settle_vectors()).unwrap();
    assert!(engine.index.borrow().vector(&poison).is_some(), "a reopen tries again");
    assert!(!engine.has_unsettled_vectors());
    assert!(block_on(engine.side_records("vectors-pending")).unwrap().is_empty());
    assert_eq!(block_on(engine.lifecycle().stats(&alice_scope)).unwrap().keyword_only, 0);
    assert!(block_on(engine.search("tea", &Read::of(alice_scope, 5))).unwrap().warnings.is_empty());
}

#[test]
fn an_unreachable_embedder_counts_a_try_for_every_waiting_text() {
    let (engine, doubles) = engine(&["User moved to Berlin"], update_first("User moved from Paris to Berlin"));
    engine.defer_vectors(true);
    block_on(engine.add(&json!("I moved to Berlin."), &alice())).unwrap();
    let embedder = crate::core::testing::Letters::new(4).failing_on("User");
    let doubles = Doubles { llm: doubles.llm.clone(), embedder, storage: doubles.storage.clone() };
    let engine = block_on(doubles.open()).unwrap();
    engine.defer_vectors(true);
    for _ in 0..5 {
        block_on(engine.settle_vectors()).unwrap();
    }
    assert_eq!(doubles.embedder.requests(), 3, "three tries, then no more");
    assert!(!engine.has_unsettled_vectors());
}
