// The tests of the memory lifecycle's keys, pins and decay need the core features; without them their imports rest.
#![cfg_attr(not(feature = "core-features"), allow(unused_imports, dead_code))]

use crate::core::model::scope_fields::ScopeFields;
use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::config::Prompts;
use crate::core::error::MemoryError;
use crate::core::identity::content_hash;
use crate::core::lifecycle::decay::DecayPlan;
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::lifecycle::LEGACY_IMPORTANCE;
use crate::core::model::types::EventKind;
use crate::core::model::types::Metadata;
use crate::core::model::{Lifecycle, MemoryType};
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{Read, DEFAULT_LIMIT};
use crate::core::storage::InMemoryStorage;
use crate::core::testing::{Letters, NoLlm};

type Engine = MemoryEngine<NoLlm, Letters, InMemoryStorage>;

fn engine(dimension: usize) -> Engine {
    MemoryEngine::new(NoLlm, Letters::new(dimension), InMemoryStorage::default(), Prompts::default())
}

fn user(id: &str) -> Scope {
    Scope { user_id: Some(id.into()), ..Scope::default() }
}

/// Alice: "likes green tea" (metadata), "walks her dog" (updated); Bob: "plays chess" (deleted), "reads".
fn filled() -> Engine {
    let engine = engine(26);
    let add = |text: &str, who: &str, metadata: serde_json::Value| {
        let options = AddOptions {
            scope: ScopeFields::user(who),
            metadata: serde_json::from_value(metadata).ok(),
            ..AddOptions::default()
        };
        block_on(engine.add(&json!(text), &options)).unwrap().results[0].id.clone()
    };
    add("likes green tea", "alice", json!({"n": 5, "x": 1.25, "tags": ["a"], "deep": {"k": null}}));
    let dog = add("walks her dog", "alice", json!({}));
    let chess = add("plays chess", "bob", json!({}));
    add("reads novels", "bob", json!({}));
    block_on(engine.update(&dog, "walks her two dogs")).unwrap();
    block_on(engine.delete(&chess, false)).unwrap();
    engine
}

/// Every memory of `who`, soft-deleted ones included, as stored.
fn everything(engine: &Engine, who: &str) -> Vec<StoredMemory> {
    let read = Read { include_deleted: true, ..Read::of(user(who), DEFAULT_LIMIT) };
    let items = block_on(engine.get_all(&read)).unwrap().results;
    items.iter().map(|item| engine.indexed(&item.id).unwrap()).collect()
}

#[test]
fn export_then_import_into_an_empty_memory_is_exact() {
    let source = filled();
    let jsonl = block_on(source.export(Scope::default())).unwrap();
    // With the features, each add()'s sources (provenance) travel as side lines.
    let side = if cfg!(feature = "core-features") { 4 } else { 0 };
    let why = "header, 3 live memories, 6 history records (4 ADD, UPDATE, DELETE), the 4 adds' sources";
    assert_eq!(jsonl.lines().count(), 1 + 3 + 6 + side, "{why}");
    let header = r#"{"kind":"memwasm-export","version":2,"memories":3,"history":6"#;
    assert!(jsonl.starts_with(&format!("{header}{}}}", if side > 0 { r#","side":4"# } else { "" })), "{jsonl}");
    let target = engine(26);
    let summary = block_on(target.import(&jsonl)).unwrap();
    assert_eq!(summary, ImportSummary { memories: 3, history: 6, warnings: vec![] });
    for who in ["alice", "bob"] {
        assert_eq!(everything(&target, who), everything(&source, who));
    }
    for memory in everything(&source, "alice").iter().chain(&everything(&source, "bob")) {
        let id = &memory.item.id;
        assert_eq!(block_on(target.history(id)).unwrap(), block_on(source.history(id)).unwrap());
    }
    assert_eq!(block_on(target.export(Scope::default())).unwrap(), jsonl, "a second export is identical");
    let search = Read::of(user("alice"), DEFAULT_LIMIT);
    assert_eq!(block_on(target.search("green", &search)).unwrap(), block_on(source.search("green", &search)).unwrap());
}

#[test]
fn export_of_a_scope_keeps_the_history_of_its_deleted_memories() {
    let jsonl = block_on(filled().export(user("bob"))).unwrap();
    let bundle = from_jsonl(&jsonl).unwrap();
    assert_eq!(bundle.memories.len(), 1);
    let events: Vec<EventKind> = bundle.history.iter().map(|r| r.event).collect();
    assert_eq!(events, [EventKind::Add, EventKind::Add, EventKind::Delete]);
    assert!(bundle.history.iter().all(|r| r.scope == user("bob")));
}

#[test]
fn importing_twice_adds_no_history_twice() {
    let jsonl = block_on(filled().export(Scope::default())).unwrap();
    let target = engine(26);
    block_on(target.import(&jsonl)).unwrap();
    assert_eq!(block_on(target.import(&jsonl)).unwrap(), ImportSummary { memories: 3, history: 0, warnings: vec![] });
    assert_eq!(block_on(target.export(Scope::default())).unwrap(), jsonl);
}

#[test]
fn a_bad_line_names_itself_and_nothing_is_imported() {
    let jsonl = block_on(filled().export(Scope::default())).unwrap();
    let lines: Vec<&str> = jsonl.lines().collect();
    let with_line = |at: usize, text: &str| {
        let mut copy = lines.clone();
        copy[at] = text;
        copy.join("\n")
    };
    let tampered = lines[2].replacen("walks her two dogs", "walks her cat", 1);
    let cases = [
        (with_line(2, "{not json"), "import line 3"),
        (with_line(2, &tampered), "does not match its text"),
        (with_line(1, &lines[1].replacen(r#""embedding":""#, r#""embedding":"!!"#, 1)), "base64"),
        (with_line(6, r#"{"kind":"gossip"}"#), "import line 7"),
        (lines[1..].join("\n"), "import line 1: not a memwasm export"),
        (lines[..5].join("\n"), "header promises 3 memories and 6 history records"),
        (with_line(0, &lines[0].replace(":2,", ":3,")), "version 3 is not supported"),
        (with_line(0, &lines[0].replace(":2,", ":0,")), "version 0 is not supported"),
        (format!("{}\n{}", jsonl, lines[4]), "appears twice"),
        (String::new(), "empty input"),
    ];
    let target = engine(26);
    for (text, expected) in cases {
        let error = block_on(target.import(&text)).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT", "{expected}");
        assert!(error.to_string().contains(expected), "{error} should contain {expected}");
    }
    assert_eq!(block_on(target.export(Scope::default())).unwrap().lines().count(), 1, "nothing was imported");
}

#[test]
fn vectors_of_another_length_are_refused_before_anything_is_written() {
    let jsonl = block_on(filled().export(Scope::default())).unwrap();
    let target = engine(8);
    block_on(
        target.add(&json!("something"), &AddOptions { scope: ScopeFields::user("carol"), ..AddOptions::default() }),
    )
    .unwrap();
    let error = block_on(target.import(&jsonl)).unwrap_err();
    assert_eq!(error.code(), "DIMENSION_MISMATCH");
    assert!(error.to_string().starts_with("import line 2: the embedding has 26 dimensions, but 8"), "{error}");
    assert_eq!(from_jsonl(&block_on(target.export(Scope::default())).unwrap()).unwrap().memories.len(), 1);
}

#[test]
fn export_needs_a_usable_scope_when_one_is_given() {
    let error = block_on(filled().export(Scope { user_id: Some(" ".into()), ..Scope::default() })).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT", "an id of only whitespace: {error}");
    let error = block_on(filled().export(Scope { user_id: Some(String::new()), ..Scope::default() })).unwrap_err();
    assert_eq!(error, MemoryError::ScopeRequired);
}

/// 2025-01-01T00:00:00Z.
const START: i64 = 1_735_689_600_000;

#[cfg(feature = "core-features")]
/// Alice's pinned, keyed, expiring profile fact and her searched-then-decayed episodic one; Bob's soft-deleted
/// one. Every lifecycle field is set on at least one of them.
fn with_lifecycle() -> Engine {
    let mut engine = engine(26);
    let now = std::rc::Rc::new(std::cell::Cell::new(START));
    engine.set_clock(crate::core::time::Clock::from_fn({
        let now = now.clone();
        move || now.get()
    }));
    let write = WriteLifecycle {
        memory_type: Some(MemoryType::Profile),
        expires_at: Some("2099-01-01T00:00:00.000Z".into()),
        pinned: true,
        importance: Some(0.385_957_716_695_298_44), // needs all 17 digits to come back exact
    };
    block_on(engine.lifecycle().store("drink", "likes green tea", &user("alice"), None, Metadata::new(), &write))
        .unwrap();
    let episodic = |who: &str| AddOptions {
        scope: ScopeFields::user(who),
        memory_type: Some(MemoryType::Episodic),
        ..AddOptions::default()
    };
    block_on(engine.add(&json!("walked the dog today"), &episodic("alice"))).unwrap();
    let chess = block_on(engine.add(&json!("plays chess"), &episodic("bob"))).unwrap().results[0].id.clone();
    block_on(engine.delete(&chess, true)).unwrap();
    block_on(engine.search("walked dog", &Read::of(user("alice"), DEFAULT_LIMIT))).unwrap();
    now.set(START + 86_400_000);
    block_on(engine.lifecycle().decay(
        &user("alice"),
        DecayPlan {
            half_life_days: 30.0,
            forget_below: 0.0,
            memory_types: MemoryType::ALL.to_vec(),
            keyed_only: false,
        },
    ))
    .unwrap();
    engine
}

#[cfg(feature = "core-features")]
#[test]
fn every_lifecycle_field_survives_export_and_import_exactly() {
    let source = with_lifecycle();
    let all = [everything(&source, "alice"), everything(&source, "bob")].concat();
    let lives: Vec<&Lifecycle> = all.iter().map(|m| &m.item.lifecycle).collect();
    assert_eq!(lives.len(), 3);
    assert!(lives.iter().any(|l| l.pinned && l.key.is_some() && l.expires_at.is_some()));
    assert!(lives.iter().any(|l| l.deleted_at.is_some()));
    assert!(lives.iter().any(|l| l.last_accessed_at.is_some() && l.decayed_at.is_some()));
    assert!(lives.iter().all(|l| l.memory_type != MemoryType::Semantic && l.importance != LEGACY_IMPORTANCE));

    let jsonl = block_on(source.export(Scope::default())).unwrap();
    let target = engine(26);
    assert_eq!(block_on(target.import(&jsonl)).unwrap().memories, 3, "the soft-deleted memory is exported too");
    // Added within one millisecond: an export orders such memories by id, not by the order they were added.
    let by_id = |mut memories: Vec<StoredMemory>| {
        memories.sort_by(|a, b| a.item.id.cmp(&b.item.id));
        memories
    };
    for who in ["alice", "bob"] {
        assert_eq!(by_id(everything(&target, who)), by_id(everything(&source, who)));
    }
    assert_eq!(block_on(target.lifecycle().get_by_key("drink", &user("alice"))).unwrap().memory, "likes green tea");
    assert_eq!(block_on(target.get_all(&Read::of(user("bob"), DEFAULT_LIMIT))).unwrap().total_count, 0);
    assert_eq!(block_on(target.export(Scope::default())).unwrap(), jsonl, "a second export is identical");
}

#[test]
fn a_version_1_export_without_lifecycle_fields_imports_with_defaults() {
    let vector = vector_to_base64(&[0.6, 0.8]);
    let jsonl = [
        json!({"kind": "memwasm-export", "version": 1, "memories": 1, "history": 1}),
        json!({"kind": "memory", "id": "m1", "memory": "likes tea", "hash": content_hash("likes tea"), "metadata": {},
            "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z", "userId": "alice",
            "embedding": vector}),
        json!({"kind": "history", "id": "h1", "memoryId": "m1", "event": "ADD", "oldValue": null,
            "newValue": "likes tea", "timestamp": "2024-01-01T00:00:00.000Z", "isDeleted": false, "userId": "alice"}),
    ]
    .map(|line| line.to_string())
    .join("\n");
    let target = engine(2);
    assert_eq!(block_on(target.import(&jsonl)).unwrap(), ImportSummary { memories: 1, history: 1, warnings: vec![] });
    let imported = everything(&target, "alice");
    assert_eq!(imported.len(), 1);
    assert_eq!(imported[0].item.lifecycle, Lifecycle::default());
    assert_eq!(imported[0].embedding, Some(vec![0.6, 0.8]));
}

#[test]
fn stores_holding_the_same_records_export_the_same_text_whatever_order_they_were_written_in() {
    let jsonl = block_on(filled().export(Scope::default())).unwrap();
    let (header, lines) = jsonl.split_once('\n').unwrap();
    let mut reversed: Vec<&str> = lines.lines().collect();
    reversed.reverse();
    let target = engine(26);
    block_on(target.import(&format!("{header}\n{}\n", reversed.join("\n")))).unwrap();
    assert_eq!(block_on(target.export(Scope::default())).unwrap(), jsonl);
    let bundle = from_jsonl(&jsonl).unwrap();
    let events: Vec<EventKind> = bundle.history.iter().map(|record| record.event).collect();
    assert_eq!(events.first(), Some(&EventKind::Add), "records of one time: ADD before UPDATE and DELETE");
}
