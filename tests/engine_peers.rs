//! Engines joined as peers (`core::engine::peers`): each request of a Worker on KV builds its own engine over
//! the same storage, so an engine that loaded a scope before another stored a fact there would store it again.
//! Joined, an engine's commits reach the others' indexes, and an add of a fact a peer stored meanwhile stores
//! nothing new.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use futures_executor::block_on;
use memwasm::core::config::Prompts;
use memwasm::core::engine::peers::Peers;
use memwasm::core::kv::KvStorage;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::model::types::EventKind;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::read::{Read, DEFAULT_LIMIT};
use memwasm::core::testing::{Letters, MapKv, ScriptedLlm};
use memwasm::MemoryEngine;
use serde_json::json;

const FACT: &str = "Drinks green tea every morning";

type Engine = MemoryEngine<ScriptedLlm, Letters, KvStorage<MapKv>>;

/// An engine over `kv` whose model extracts `FACT` from anything and decides to add it.
fn engine(kv: &MapKv) -> Engine {
    let llm = ScriptedLlm::responding(|request| match request.reply.map(|shape| shape.name) {
        Some("record_facts") => json!({ "facts": [FACT] }).to_string(),
        _ => json!({ "memory": [{ "text": FACT, "event": "ADD" }] }).to_string(),
    });
    MemoryEngine::new(llm, Letters::new(26), KvStorage::new(kv.clone(), "t/x/"), Prompts::default())
}

fn alice() -> Read {
    Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, DEFAULT_LIMIT)
}

/// `second` loads alice's scope, then `first` adds the fact, then `second` adds it too; the events of
/// `second`'s add and the memories stored.
fn add_twice(kv: &MapKv, first: &Engine, second: &Engine) -> (Vec<EventKind>, usize) {
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    assert!(block_on(second.get_all(&alice())).unwrap().results.is_empty());
    block_on(first.add(&json!("I drink green tea every morning"), &options)).unwrap();
    let again = block_on(second.add(&json!("I drink green tea each morning"), &options)).unwrap();
    let stored = block_on(engine(kv).get_all(&alice())).unwrap().results.len();
    (again.results.iter().map(|event| event.event).collect(), stored)
}

#[test]
fn an_engine_does_not_store_again_a_fact_a_peer_stored_after_it_loaded_the_scope() {
    let kv = MapKv::new(1000);
    let peers = Rc::new(Peers::default());
    let (first, second) = (engine(&kv).joined(&peers), engine(&kv).joined(&peers));
    let (events, stored) = add_twice(&kv, &first, &second);
    assert_eq!(stored, 1);
    assert!(events.iter().all(|event| *event != EventKind::Add), "{events:?}");
    assert_eq!(block_on(second.get_all(&alice())).unwrap().results.len(), 1, "the peer's memory is in its index");
}

#[test]
fn engines_that_are_not_peers_each_store_it() {
    let kv = MapKv::new(1000);
    let (_, stored) = add_twice(&kv, &engine(&kv), &engine(&kv));
    assert_eq!(stored, 2, "what peers are for: neither engine sees the other's commit");
}

#[test]
fn a_dropped_peer_is_left_out_and_the_others_keep_going() {
    let kv = MapKv::new(1000);
    let peers = Rc::new(Peers::default());
    let first = engine(&kv).joined(&peers);
    drop(engine(&kv).joined(&peers));
    let second = engine(&kv).joined(&peers);
    let (_, stored) = add_twice(&kv, &first, &second);
    assert_eq!(stored, 1);
    assert_eq!(peers.len(), 2, "the dropped engine left the peers");
}
