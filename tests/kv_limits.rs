//! KV's limits as the engine meets them: a key holds at most 512 bytes, so a memory id or a scope too long for
//! one can name no stored memory. Every read by id answers it as unknown, and a read of such a scope finds
//! nothing, without asking KV (which would refuse the key), as the Durable Object backend does; a write is
//! `INVALID_INPUT`. A journal key (kept only where commits are atomic) counts only there. The backend is `MapKv` (`core::testing`), which refuses long keys
//! as Workers KV does; the real one runs in worker/tests/ids-by-route.test.mjs.
#![cfg(not(target_arch = "wasm32"))]

use futures_executor::block_on;
use memwasm::core::config::Prompts;
use memwasm::core::kv::KvStorage;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::{MemoryItem, StoredMemory};
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::storage::{Changeset, Storage};
use memwasm::core::testing::{Letters, MapKv, NoLlm};
use memwasm::MemoryEngine;
use serde_json::json;

#[test]
fn an_id_longer_than_kv_keys_is_not_found_by_any_read_by_id_and_nothing_is_asked_of_kv() {
    let kv = MapKv::new(1000);
    let engine: MemoryEngine<_, _, _> =
        MemoryEngine::new(NoLlm, Letters::new(26), KvStorage::new(kv.clone(), "t/x/"), Prompts::default());
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    let kept = block_on(engine.add(&json!("likes green tea"), &options)).unwrap().results[0].id.clone();
    kv.clear_log();
    for id in ["a".repeat(600), "é".repeat(300), format!("{kept}{}", "0".repeat(600))] {
        assert!(block_on(engine.get(&id)).unwrap().is_none());
        assert_eq!(block_on(engine.update(&id, "new text")).unwrap_err().code(), "NOT_FOUND");
        assert_eq!(block_on(engine.delete(&id, false)).unwrap_err().code(), "NOT_FOUND");
        assert!(block_on(engine.history(&id)).unwrap().is_empty());
    }
    assert!(kv.log().is_empty(), "no key KV could not hold was asked for: {:?}", kv.log());
    assert_eq!(block_on(engine.get(&kept)).unwrap().unwrap().memory, "likes green tea");
}

#[test]
fn a_scope_too_long_for_kv_keys_holds_nothing_and_cannot_be_written() {
    let kv = MapKv::new(1000);
    let engine: MemoryEngine<_, _, _> =
        MemoryEngine::new(NoLlm, Letters::new(26), KvStorage::new(kv.clone(), "t/x/"), Prompts::default());
    let long = "😀".repeat(128);
    let read = Read::of(Scope { user_id: Some(long.clone()), ..Scope::default() }, DEFAULT_LIMIT);
    assert!(block_on(engine.get_all(&read)).unwrap().results.is_empty());
    assert!(block_on(engine.search("tea", &read)).unwrap().results.is_empty());
    assert_eq!(block_on(engine.delete_all(&read)).unwrap(), 0);
    let options = AddOptions { scope: ScopeFields::user(long), ..AddOptions::default() };
    assert_eq!(block_on(engine.add(&json!("likes tea"), &options)).unwrap_err().code(), "INVALID_INPUT");
    // Before its first commit an instance reads whether sync was started on the store (one short key).
    let asked: Vec<String> = kv.log().into_iter().filter(|op| op != "list t/x/side/sync/").collect();
    assert!(asked.is_empty(), "no key KV could not hold was asked for: {asked:?}");
}

#[test]
fn a_journal_key_too_long_refuses_a_commit_only_where_journals_are_kept() {
    // `t/x/scope/{user}///m1` is 495 bytes, `t/x/jr/{user}///{uuid}` 526.
    let scope = Scope { user_id: Some("u".repeat(480)), ..Scope::default() };
    let created = "2024-01-01T00:00:00.000Z".to_owned();
    let item = MemoryItem {
        id: "m1".into(),
        memory: "likes tea".into(),
        hash: "h".into(),
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at: created.clone(),
        updated_at: created,
        scope,
        lifecycle: Default::default(),
    };
    let changes = Changeset { upserts: vec![StoredMemory { item, embedding: None }], ..Changeset::default() };
    let plain = MapKv::new(1000);
    block_on(KvStorage::new(plain.clone(), "t/x/").commit(&changes)).unwrap();
    assert_eq!(plain.keys().len(), 2, "the memory and its marker: {:?}", plain.keys());
    let atomic = MapKv::new(1000).atomic();
    let error = block_on(KvStorage::new(atomic.clone(), "t/x/").commit(&changes)).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT");
    assert!(atomic.keys().is_empty());
}
