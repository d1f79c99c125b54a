use crate::core::model::scope_fields::ScopeFields;
use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::config::Prompts;
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::{KeepingStorage, Letters, NoLlm};

type Engine = MemoryEngine<NoLlm, Letters, InMemoryStorage>;

fn engine() -> Engine {
    MemoryEngine::new(NoLlm, Letters::new(26), InMemoryStorage::default(), Prompts::default())
}

fn add(engine: &Engine, text: &str) -> String {
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    block_on(engine.add(&json!(text), &options)).unwrap().results[0].id.clone()
}

/// Two memories (one updated, one deleted: history of 4 records) and side records of two kinds.
fn filled() -> Engine {
    let engine = engine();
    let tea = add(&engine, "likes green tea");
    let chess = add(&engine, "plays chess");
    block_on(engine.update(&tea, "likes black tea")).unwrap();
    block_on(engine.delete(&chess, false)).unwrap();
    let side = vec![
        SideWrite::put("summary", "user:alice", json!({"text": "talked about tea", "turns": 4})),
        SideWrite::put("journal", "2026-11-24", json!(["a", "b"])),
    ];
    block_on(engine.write_side(side)).unwrap();
    engine
}

#[test]
fn a_snapshot_restored_into_a_new_instance_holds_everything() {
    let source = filled();
    let snapshot = block_on(source.snapshot()).unwrap().expect("in-memory storage has a snapshot");
    let target = engine();
    block_on(target.restore_snapshot(&snapshot)).unwrap();
    let everything = |engine: &Engine| block_on(engine.export(Scope::default())).unwrap();
    assert_eq!(everything(&target), everything(&source), "memories (with vectors) and history");
    for kind in ["summary", "journal"] {
        let records = block_on(target.side_records(kind)).unwrap();
        assert_eq!(records, block_on(source.side_records(kind)).unwrap());
        assert_eq!(records.len(), 1, "{kind}");
    }
    assert_eq!(block_on(target.snapshot()).unwrap().unwrap(), snapshot, "a second snapshot is identical");
}

#[test]
fn storages_that_keep_memories_have_no_snapshot() {
    let engine: MemoryEngine<_, _, _> =
        MemoryEngine::new(NoLlm, Letters::new(26), KeepingStorage::new(), Prompts::default());
    assert_eq!(block_on(engine.snapshot()).unwrap(), None);
}

#[test]
fn a_bad_snapshot_is_refused_with_nothing_written() {
    let source = block_on(filled().snapshot()).unwrap().unwrap();
    let newer = source.replacen("\"version\":1", "\"version\":2", 1);
    let truncated = &source[..source.len() / 2];
    let bad_export = json!({"version": 1, "export": "not an export", "side": []}).to_string();
    let cases = [("[]", "snapshot: "), (truncated, "not JSON"), (&newer, "snapshot.version: 2"), (&bad_export, "")];
    for (bad, says) in cases {
        let target = engine();
        let error = block_on(target.restore_snapshot(bad)).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT", "{bad:.40}");
        assert!(error.to_string().contains(says), "{error}");
        assert_eq!(block_on(target.export(Scope::default())).unwrap().lines().count(), 1, "only the header");
        assert!(block_on(target.side_records("summary")).unwrap().is_empty());
    }
}
