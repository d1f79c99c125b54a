use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::config::Prompts;
use crate::core::options::AddOptions;
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
            user_id: Some(who.into()),
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
    block_on(engine.delete(&chess)).unwrap();
    engine
}

fn everything(engine: &Engine, who: &str) -> Vec<StoredMemory> {
    let items = block_on(engine.get_all(&Read::of(user(who), DEFAULT_LIMIT))).unwrap();
    items.iter().map(|item| engine.index.borrow().get(&item.id).unwrap().clone()).collect()
}

#[test]
fn export_then_import_into_an_empty_memory_is_exact() {
    let source = filled();
    let jsonl = block_on(source.export(Scope::default())).unwrap();
    assert_eq!(jsonl.lines().count(), 1 + 3 + 6, "header, 3 live memories, 6 history records (4 ADD, UPDATE, DELETE)");
    assert!(jsonl.starts_with(r#"{"kind":"memwasm-export","version":1,"memories":3,"history":6}"#));
    let target = engine(26);
    let summary = block_on(target.import(&jsonl)).unwrap();
    assert_eq!(summary, ImportSummary { memories: 3, history: 6 });
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
    assert_eq!(block_on(target.import(&jsonl)).unwrap(), ImportSummary { memories: 3, history: 0 });
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
        (with_line(0, &lines[0].replace(":1,", ":2,")), "version 2 is not supported"),
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
    block_on(target.add(&json!("something"), &AddOptions { user_id: Some("carol".into()), ..AddOptions::default() }))
        .unwrap();
    let error = block_on(target.import(&jsonl)).unwrap_err();
    assert_eq!(error, MemoryError::DimensionMismatch { expected: 8, actual: 26 });
    assert_eq!(from_jsonl(&block_on(target.export(Scope::default())).unwrap()).unwrap().memories.len(), 1);
}

#[test]
fn export_needs_a_usable_scope_when_one_is_given() {
    let error = block_on(filled().export(Scope { user_id: Some(" ".into()), ..Scope::default() })).unwrap_err();
    assert_eq!(error, MemoryError::ScopeRequired);
}
