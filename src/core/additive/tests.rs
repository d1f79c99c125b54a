//! The additive pipeline with test doubles: one LLM call shown the related memories, ADD only, exact and
//! near duplicates dropped without a call, one embedding request, history ADD, failures as warnings.

use crate::core::model::scope_fields::ScopeFields;
use futures_executor::block_on;
use serde_json::{json, Value};

use super::{AdditiveSettings, NearDuplicate, ADDITIVE_EXTRACTION_PROMPT};
use crate::core::add_pipeline::Pipeline;
use crate::core::engine::memory::MemoryEngine;
use crate::core::model::types::{EventKind, WarningCode};
use crate::core::pipeline_options::AddOptions;
use crate::core::testing::{Doubles, KeepingStorage, Letters, ScriptedLlm, TableEmbedder};

type Engine = MemoryEngine<ScriptedLlm, TableEmbedder, KeepingStorage>;
type Parts = Doubles<ScriptedLlm, TableEmbedder, KeepingStorage>;

/// Paris, tea and jazz each have their own direction; every other text shares a fourth one.
fn embedder() -> TableEmbedder {
    TableEmbedder::new(
        &[("Paris", &[1.0, 0.0, 0.0, 0.0]), ("tea", &[0.0, 0.0, 1.0, 0.0]), ("jazz", &[0.0, 0.0, 0.0, 1.0])],
        &[0.0, 1.0, 0.0, 0.0],
    )
}

fn alice() -> AddOptions {
    AddOptions { scope: ScopeFields::user("alice"), pipeline: Some(Pipeline::Additive), ..AddOptions::default() }
}

/// An engine holding Alice's "User lives in Paris" and "User drinks coffee" (stored as they are), whose
/// model answers every call with `reply`.
fn engine(reply: Value) -> (Engine, Parts) {
    let doubles = Doubles { llm: ScriptedLlm::new(), embedder: embedder(), storage: KeepingStorage::new() };
    let engine = doubles.engine();
    // Stored as conversation turns: each is keyword-searched with the one before it, so coffee comes first
    // (the other way round, the coffee turn would be read with the Paris turn and shown too).
    let earlier =
        json!([{"role": "user", "content": "User drinks coffee"}, {"role": "user", "content": "User lives in Paris"}]);
    block_on(engine.add(&earlier, &AddOptions { infer: Some(false), ..alice() })).unwrap();
    doubles.llm.respond_with(move |_| reply.to_string());
    (engine, doubles)
}

fn facts(texts: &[&str]) -> Value {
    json!({"memory": texts.iter().enumerate().map(|(i, t)| json!({"id": i.to_string(), "text": t, "attributed_to": "user"})).collect::<Vec<_>>()})
}

const TALK: &str = "I still live in Paris, I like tea and I play jazz";

#[test]
fn one_call_adds_only_new_facts_and_drops_exact_and_near_duplicates() {
    let reply = facts(&[
        "User lives in Paris",        // the same md5 as a memory: dropped
        "User really lives in Paris", // cosine 1 with that memory: dropped
        "User likes tea",             // new
        "User likes green tea",       // cosine 1 with the fact before: dropped
        "User plays jazz",            // new
    ]);
    let (engine, doubles) = engine(reply);
    let before = doubles.embedder.requests();
    let result = block_on(engine.add(&json!(TALK), &alice())).unwrap();
    let events: Vec<(EventKind, &str)> = result.results.iter().map(|e| (e.event, e.memory.as_str())).collect();
    let expected = [
        (EventKind::None, "User lives in Paris"),
        (EventKind::Add, "User likes tea"),
        (EventKind::Add, "User plays jazz"),
    ];
    assert_eq!(events, expected, "{result:?}");
    assert!(result.warnings.is_empty(), "{:?}", result.warnings);
    assert_eq!(doubles.llm.calls().len(), 1, "one extraction call, no decision");
    assert_eq!(doubles.embedder.requests(), before + 1, "the facts, in one request");
    let call = &doubles.llm.calls()[0];
    assert_eq!(call.system, ADDITIVE_EXTRACTION_PROMPT);
    assert!(
        call.user.contains("## Existing Memories\n[{\"id\":\"0\",\"text\":\"User lives in Paris\"}]"),
        "{}",
        call.user
    );
    assert!(call.user.contains(&format!("## New Messages\nuser: {TALK}\n\n## Current Date\n")), "{}", call.user);
    let history = block_on(engine.history(&result.results[1].id)).unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!((history[0].event, history[0].new_value.as_deref()), (EventKind::Add, Some("User likes tea")));
    let stored = block_on(engine.get(&result.results[1].id)).unwrap().unwrap();
    assert_eq!(stored.lifecycle.attributed_to.as_deref(), Some("user"));
}

#[test]
fn without_the_near_duplicate_check_only_exact_duplicates_are_dropped() {
    let (mut engine, _) = engine(facts(&["User lives in Paris", "User really lives in Paris"]));
    engine.set_additive(AdditiveSettings { near_duplicate: None });
    let result = block_on(engine.add(&json!(TALK), &alice())).unwrap();
    let events: Vec<(EventKind, &str)> = result.results.iter().map(|e| (e.event, e.memory.as_str())).collect();
    assert_eq!(events, [(EventKind::None, "User lives in Paris"), (EventKind::Add, "User really lives in Paris")]);
}

#[test]
fn the_facts_are_embedded_in_one_request_before_add_resolves_check_on_or_off() {
    // Even with nothing to compare (the near-duplicate check off), add() waits for the facts' vectors, so a
    // failed embedding is said on its result (NOT_EMBEDDED) rather than found later.
    for near_duplicate in [None, Some(0.95)] {
        let (mut memory, doubles) = engine(facts(&["User likes tea", "User plays jazz"]));
        memory.set_additive(AdditiveSettings { near_duplicate });
        memory.defer_vectors(true); // as the JS binding runs it
        let before = doubles.embedder.requests();
        let result = block_on(memory.add(&json!(TALK), &alice())).unwrap();
        assert_eq!(result.results.iter().filter(|e| e.event == EventKind::Add).count(), 2, "{result:?}");
        assert_eq!((doubles.llm.calls().len(), doubles.embedder.requests()), (1, before + 1), "{near_duplicate:?}");
        assert!(!memory.has_unsettled_vectors(), "{near_duplicate:?}: every fact has its vector");
    }
}

#[test]
fn a_fact_the_embedder_fails_on_is_stored_keyword_only_with_not_embedded_and_noted_for_later() {
    for near_duplicate in [None, Some(0.95)] {
        let doubles = Doubles {
            llm: ScriptedLlm::new(),
            embedder: Letters::new(26).failing_on("tea"),
            storage: KeepingStorage::new(),
        };
        let mut memory = doubles.engine();
        memory.set_additive(AdditiveSettings { near_duplicate });
        memory.defer_vectors(true); // as the JS binding runs it
        let reply = facts(&["User likes tea"]);
        doubles.llm.respond_with(move |_| reply.to_string());
        let result = block_on(memory.add(&json!("I like tea"), &alice())).unwrap();
        let events: Vec<(EventKind, &str)> = result.results.iter().map(|e| (e.event, e.memory.as_str())).collect();
        assert_eq!(events, [(EventKind::Add, "User likes tea")], "{near_duplicate:?}: kept");
        let codes: Vec<WarningCode> = result.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, [WarningCode::NotEmbedded], "{near_duplicate:?}: said on the result");
        assert_eq!(result.warnings[0].cause, Some("EMBEDDING_RESPONSE"));
        assert!(memory.has_unsettled_vectors(), "{near_duplicate:?}: embedded once the embedder answers");
    }
}

#[test]
fn the_config_default_pipeline_applies_and_a_failed_or_unreadable_extraction_stores_nothing() {
    for reply in ["not json at all", "{\"memory\": 7}", "[1, 2]"] {
        let (mut engine, doubles) = engine(json!(null));
        doubles.llm.respond_with(move |_| reply.to_owned());
        engine.set_pipeline(Pipeline::Additive);
        let before = doubles.embedder.requests();
        let options = AddOptions { pipeline: None, ..alice() };
        let result = block_on(engine.add(&json!(TALK), &options)).unwrap();
        assert!(result.results.is_empty(), "{reply}: {result:?}");
        assert_eq!(result.warnings[0].code, WarningCode::ExtractionFailed, "{reply}");
        assert_eq!((doubles.llm.calls().len(), doubles.embedder.requests()), (1, before), "{reply}");
    }
    let (engine, doubles) = engine(json!(null));
    doubles.llm.fail_when(|_| true);
    let result = block_on(engine.add(&json!(TALK), &alice())).unwrap();
    assert_eq!(result.warnings[0].code, WarningCode::ExtractionFailed);
}

#[test]
fn near_duplicate_setting_is_checked() {
    let resolve = AdditiveSettings::resolve;
    assert_eq!(resolve(None).unwrap().near_duplicate, Some(0.95));
    assert_eq!(resolve(Some(NearDuplicate::Enabled(false))).unwrap().near_duplicate, None);
    assert_eq!(resolve(Some(NearDuplicate::Threshold(0.9))).unwrap().near_duplicate, Some(0.9));
    let parsed: Vec<Option<NearDuplicate>> =
        ["0.9", "false", "\"0.9\""].iter().map(|text| serde_json::from_str(text).ok()).collect();
    assert_eq!(parsed, [Some(NearDuplicate::Threshold(0.9)), Some(NearDuplicate::Enabled(false)), None]);
    for bad in [0.0, 1.5, -1.0, f64::NAN] {
        assert_eq!(resolve(Some(NearDuplicate::Threshold(bad))).unwrap_err().code(), "INVALID_CONFIG", "{bad}");
    }
}

#[test]
fn the_additive_reply_reads_as_json_builds_it() {
    let memory = serde_json::json!({
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "text": {"type": "string"},
            "attributed_to": {"type": "string", "enum": ["user", "assistant"]},
        },
        "required": ["text"],
    });
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"memory": {"type": "array", "items": memory}},
        "required": ["memory"],
    });
    assert_eq!(super::prompt::additive_reply().schema, schema);
}
