//! Provenance with test doubles: a fact followed through ADD → UPDATE keeps both messages; `infer: false`
//! gives each memory its own message; `idempotencyKey` replays without a model call, also after a reopen;
//! exports carry the sources; a bad message field stores nothing.

use futures_executor::block_on;
use serde_json::{json, Value};

use super::{message_hash, MemorySource};
use crate::core::add_pipeline::Pipeline;
use crate::core::engine::memory::MemoryEngine;
use crate::core::model::types::EventKind;
use crate::core::pipeline_options::AddOptions;
use crate::core::testing::{Doubles, KeepingStorage, Letters, ScriptedLlm};

type Engine = MemoryEngine<ScriptedLlm, Letters, KeepingStorage>;
type Kept = Doubles<ScriptedLlm, Letters, KeepingStorage>;

fn doubles() -> Kept {
    Doubles { llm: ScriptedLlm::new(), embedder: Letters::new(26), storage: KeepingStorage::new() }
}

fn alice(fields: Value) -> AddOptions {
    let mut given = json!({"userId": "alice"});
    given.as_object_mut().unwrap().extend(fields.as_object().cloned().unwrap_or_default());
    serde_json::from_value(given).unwrap()
}

/// The model extracts `fact`, and updates the first memory it is shown to it (adds it when shown none).
fn script(doubles: &Kept, fact: &'static str) {
    doubles.llm.respond_with(move |request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => json!({"facts": [fact]}).to_string(),
        _ if request.user.contains("\"0\"") || request.user.contains("id: 0") => {
            json!({"memory": [{"id": "0", "event": "UPDATE", "text": fact}]}).to_string()
        }
        _ => json!({"memory": [{"id": "new", "event": "ADD", "text": fact}]}).to_string(),
    });
}

fn said(id: &str, content: &str) -> Value {
    json!({"role": "user", "content": content, "id": id, "conversationId": "c1", "createdAt": "2024-05-01T10:00:00Z"})
}

fn sources(engine: &Engine, id: &str) -> Vec<MemorySource> {
    block_on(engine.provenance().sources(id)).unwrap()
}

#[test]
fn a_fact_followed_through_add_and_update_keeps_both_sources_in_every_pipeline() {
    for pipeline in [Pipeline::Exact, Pipeline::Fast] {
        let doubles = doubles();
        let engine = doubles.engine();
        let options = AddOptions { pipeline: Some(pipeline), ..alice(json!({})) };
        script(&doubles, "User lives in Paris");
        let first = block_on(engine.add(&json!([said("m1", "I live in Paris")]), &options)).unwrap();
        assert_eq!(first.results[0].event, EventKind::Add, "{pipeline:?}");
        let id = first.results[0].id.clone();
        script(&doubles, "User lives in Paris, near the Louvre");
        let second = json!([{"role": "system", "content": "be kind"}, said("m2", "I live near the Louvre")]);
        let updated = block_on(engine.add(&second, &options)).unwrap();
        assert_eq!((updated.results[0].event, &updated.results[0].id), (EventKind::Update, &id), "{pipeline:?}");
        let found = sources(&engine, &id);
        let ids: Vec<(&str, EventKind)> = found.iter().map(|s| (s.id.as_str(), s.event)).collect();
        assert_eq!(
            ids,
            [("m1", EventKind::Add), ("m2", EventKind::Update)],
            "{pipeline:?}: system messages are no source"
        );
        assert_eq!(found[1].excerpt, "I live near the Louvre");
        assert_eq!(
            (found[1].conversation_id.as_deref(), found[1].created_at.as_deref()),
            (Some("c1"), Some("2024-05-01T10:00:00Z"))
        );
        let history = block_on(engine.history(&id)).unwrap();
        assert_eq!(found[0].history_id.as_deref(), Some(history[0].id.as_str()));
        assert_eq!(found[1].history_id.as_deref(), Some(history[1].id.as_str()));
        let reopened = block_on(doubles.open()).unwrap();
        assert_eq!(sources(&reopened, &id), found, "{pipeline:?}: sources are stored");
    }
}

#[test]
fn the_additive_pipeline_keeps_sources_too() {
    let doubles = doubles();
    let engine = doubles.engine();
    doubles.llm.respond_with(|_| json!({"facts": ["User plays chess"], "memory": []}).to_string());
    let options = alice(json!({"pipeline": "additive"}));
    let added = block_on(engine.add(&json!([said("m9", "I play chess")]), &options)).unwrap();
    let added: Vec<_> = added.results.iter().filter(|e| e.event == EventKind::Add).collect();
    assert!(!added.is_empty(), "the additive pipeline added the fact");
    assert_eq!(sources(&engine, &added[0].id)[0].id, "m9");
}

#[test]
fn infer_false_gives_each_memory_its_own_message_named_by_its_hash_without_an_id() {
    let engine = doubles().engine();
    let messages = json!([
        {"role": "user", "content": "Likes tea"},
        {"role": "system", "content": "ignored"},
        {"role": "assistant", "content": "Noted"},
        {"role": "user", "content": "Likes tea"}
    ]);
    let added = block_on(engine.add(&messages, &alice(json!({"infer": false})))).unwrap();
    assert_eq!(added.results.len(), 3);
    for (event, role) in added.results.iter().zip(["user", "assistant", "user"]) {
        let found = sources(&engine, &event.id);
        assert_eq!(found.len(), 1, "exactly its own message");
        assert_eq!(found[0].id, message_hash(role, &event.memory));
        assert_eq!((found[0].role.as_str(), found[0].event), (role, EventKind::Add));
    }
    assert!(sources(&engine, &added.results[0].id)[0].id.starts_with("md5:"));
}

#[test]
fn a_memory_without_sources_answers_empty_and_an_unknown_id_not_found() {
    let engine = doubles().engine();
    let added = block_on(engine.add(&json!("Likes tea"), &alice(json!({"infer": false})))).unwrap();
    let id = added.results[0].id.clone();
    let unknown = block_on(engine.provenance().sources("nope")).unwrap_err();
    assert_eq!(unknown.code(), "NOT_FOUND");
    assert_eq!(block_on(engine.provenance().sources(" ")).unwrap_err().code(), "INVALID_INPUT");
    block_on(engine.delete(&id, false)).unwrap();
    assert_eq!(sources(&engine, &id).len(), 1, "a deleted memory keeps its sources, as its history");
    let bare = json!([{"kind": "memwasm-export", "version": 2, "memories": 1, "history": 0}, {"kind": "memory",
        "id": "bare", "memory": "Owns a cat", "hash": crate::core::identity::content_hash("Owns a cat"),
        "metadata": {}, "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z",
        "userId": "alice"}]);
    let text: String = bare.as_array().unwrap().iter().map(|line| format!("{line}\n")).collect();
    block_on(engine.import(&text)).unwrap();
    assert!(sources(&engine, "bare").is_empty(), "a memory with no sources: []");
}

#[test]
fn an_idempotency_key_replays_the_committed_result_without_a_model_call_also_after_a_reopen() {
    let doubles = doubles();
    let engine = doubles.engine();
    script(&doubles, "User lives in Paris");
    let options = alice(json!({"idempotencyKey": "import:c1:m1:m1"}));
    let first = block_on(engine.add(&json!([said("m1", "I live in Paris")]), &options)).unwrap();
    assert!(!first.replayed && serde_json::to_value(&first).unwrap().get("replayed").is_none());
    let calls = doubles.llm.calls().len();
    let again = block_on(engine.add(&json!([said("m1", "I live in Paris")]), &options)).unwrap();
    assert_eq!(again.results, first.results);
    assert!(again.replayed);
    assert_eq!(serde_json::to_value(&again).unwrap()["replayed"], true);
    let reopened = block_on(doubles.open()).unwrap();
    let after_reopen = block_on(reopened.add(&json!("anything"), &options)).unwrap();
    assert!(after_reopen.replayed && after_reopen.results == first.results);
    assert_eq!(doubles.llm.calls().len(), calls, "no model call for a replay");
    assert_eq!(doubles.storage.memories().len(), 1);
    let elsewhere = alice(json!({"idempotencyKey": "import:c1:m1:m1", "userId": "bob"}));
    assert!(!block_on(reopened.add(&json!("I live in Paris"), &elsewhere)).unwrap().replayed, "keys are per scope");
}

#[test]
fn an_add_that_stored_nothing_keeps_its_key_and_infer_false_replays_too() {
    let doubles = doubles();
    let engine = doubles.engine();
    doubles.llm.respond_with(|_| json!({"facts": []}).to_string());
    let options = alice(json!({"idempotencyKey": "k1"}));
    let nothing = block_on(engine.add(&json!("Hello there"), &options)).unwrap();
    assert!(nothing.results.is_empty());
    let calls = doubles.llm.calls().len();
    assert!(block_on(engine.add(&json!("Hello there"), &options)).unwrap().replayed);
    assert_eq!(doubles.llm.calls().len(), calls);
    let verbatim = alice(json!({"idempotencyKey": "k2", "infer": false}));
    let first = block_on(engine.add(&json!("Likes tea"), &verbatim)).unwrap();
    let again = block_on(engine.add(&json!("Likes tea"), &verbatim)).unwrap();
    assert!(again.replayed && again.results == first.results);
    assert_eq!(doubles.storage.memories().len(), 1, "stored once");
    let blank = block_on(engine.add(&json!("x"), &alice(json!({"idempotencyKey": " "})))).unwrap_err();
    assert_eq!(blank.code(), "INVALID_INPUT");
}

#[test]
fn export_and_import_keep_the_sources() {
    let doubles = doubles();
    let engine = doubles.engine();
    script(&doubles, "User lives in Paris");
    let first = block_on(engine.add(&json!([said("m1", "I live in Paris")]), &alice(json!({})))).unwrap();
    let id = first.results[0].id.clone();
    script(&doubles, "User lives in Paris, near the Louvre");
    block_on(engine.add(&json!([said("m2", "near the Louvre")]), &alice(json!({})))).unwrap();
    let exported = block_on(engine.export(Default::default())).unwrap();
    assert!(exported.lines().next().unwrap().contains("\"side\":2"), "{exported}");
    let other = self::doubles().engine();
    block_on(other.import(&exported)).unwrap();
    assert_eq!(sources(&other, &id), sources(&engine, &id));
    assert_eq!(block_on(other.export(Default::default())).unwrap(), exported, "the round trip is exact");
    block_on(other.import(&exported)).unwrap();
    assert_eq!(sources(&other, &id).len(), 2, "a second import writes the same records");
    let foreign = exported.replace("\"of\":\"sources\"", "\"of\":\"sync/device\"");
    let refused = block_on(self::doubles().engine().import(&foreign)).unwrap_err();
    assert!(refused.to_string().contains("sync/device"), "{refused}");
}

#[test]
fn a_bad_message_field_is_a_coded_error_and_stores_nothing() {
    let doubles = doubles();
    let engine = doubles.engine();
    for bad in [
        json!([{"role": "user", "content": "x"}, {"role": "user", "content": "y", "createdAt": "soon"}]),
        json!([{"role": "user", "content": "x", "conversationId": 5}]),
        json!([{"role": "user", "content": "x", "id": ""}]),
    ] {
        for infer in [true, false] {
            let error = block_on(engine.add(&bad, &alice(json!({"infer": infer, "idempotencyKey": "k"})))).unwrap_err();
            assert_eq!(error.code(), "INVALID_INPUT");
            assert!(error.to_string().contains("messages["), "{error}");
        }
    }
    assert!(doubles.storage.memories().is_empty());
    assert!(doubles.llm.calls().is_empty());
    assert!(block_on(engine.side_records(super::KEYS_KIND)).unwrap().is_empty(), "no key kept");
}

#[test]
fn a_key_another_instance_committed_replays_here_once_its_change_is_told() {
    let doubles = doubles();
    let (here, there) = (doubles.engine(), doubles.engine());
    let verbatim = |key: &str| alice(json!({"idempotencyKey": key, "infer": false}));
    block_on(here.add(&json!("Likes tea"), &verbatim("k1"))).unwrap();
    let theirs = block_on(there.add(&json!("Likes jazz"), &verbatim("k2"))).unwrap();
    here.apply_remote(Default::default());
    let replayed = block_on(here.add(&json!("Likes jazz"), &verbatim("k2"))).unwrap();
    assert!(replayed.replayed && replayed.results == theirs.results);
    assert_eq!(sources(&here, &theirs.results[0].id)[0].excerpt, "Likes jazz", "their sources are read here too");
    assert_eq!(doubles.storage.memories().len(), 2);
}

#[test]
fn an_id_with_a_slash_keeps_and_exports_its_sources() {
    let doubles = doubles();
    let engine = doubles.engine();
    let line = |id: &str, text: &str| {
        json!({"kind": "memory", "id": id, "memory": text, "hash": crate::core::identity::content_hash(text),
            "metadata": {}, "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z",
            "userId": "alice"})
    };
    let header = json!({"kind": "memwasm-export", "version": 2, "memories": 1, "history": 0});
    block_on(engine.import(&format!("{header}\n{}\n", line("notes/1", "User lives in Paris")))).unwrap();
    script(&doubles, "User lives in Paris, near the Louvre");
    let updated = block_on(engine.add(&json!([said("m2", "near the Louvre")]), &alice(json!({})))).unwrap();
    assert_eq!((updated.results[0].event, updated.results[0].id.as_str()), (EventKind::Update, "notes/1"));
    assert_eq!(sources(&engine, "notes/1")[0].id, "m2");
    let exported = block_on(engine.export(Default::default())).unwrap();
    assert!(exported.lines().next().unwrap().contains("\"side\":1"), "{exported}");
}

#[test]
fn a_source_keeps_who_said_its_message_through_a_reopen_and_an_export() {
    let doubles = doubles();
    let engine = doubles.engine();
    script(&doubles, "Alice is vegan");
    let chat = json!([
        {"role": "user", "name": "Alice", "content": "I am vegan", "id": "m1"},
        {"role": "user", "content": "Noted", "id": "m2"},
    ]);
    let added = block_on(engine.add(&chat, &alice(json!({})))).unwrap();
    let id = added.results[0].id.clone();
    let names = |engine: &Engine| sources(engine, &id).into_iter().map(|s| (s.id, s.name)).collect::<Vec<_>>();
    let expected = vec![("m1".to_owned(), Some("Alice".to_owned())), ("m2".to_owned(), None)];
    assert_eq!(names(&engine), expected);
    assert_eq!(names(&doubles.engine()), expected, "after a reopen");
    let other = self::doubles().engine();
    block_on(other.import(&block_on(engine.export(Default::default())).unwrap())).unwrap();
    assert_eq!(names(&other), expected, "after an export and import");
    let shown = serde_json::to_value(sources(&engine, &id)).unwrap();
    assert_eq!((shown[0]["name"].clone(), shown[1].get("name")), (json!("Alice"), None));
}
