//! The embedding model recorded with a KV store's vectors (`MapKv`, KV's paging in RAM): a store reopened
//! with another model warns `EMBEDDING_MODEL_CHANGED` (the error under strict), and `reembed()` loads every
//! scope, embeds every memory again and records the model.
#![cfg(not(target_arch = "wasm32"))]

use futures_executor::block_on;
use memwasm::core::config::Prompts;
use memwasm::core::engine::embedding_model::EmbeddingModel;
use memwasm::core::kv::KvStorage;
use memwasm::core::model::scope_fields::ScopeFields;
use memwasm::core::pipeline_options::AddOptions;
use memwasm::core::testing::{Letters, MapKv, NoLlm};
use memwasm::MemoryEngine;
use serde_json::json;

type Engine = MemoryEngine<NoLlm, Letters, KvStorage<MapKv>>;

/// An engine over the KV store `kv` (loading scopes on demand), its embedder said to be `model`.
fn engine(kv: &MapKv, embedder: &Letters, model: &str) -> Engine {
    let storage = KvStorage::new(kv.clone(), "p/");
    let mut engine = MemoryEngine::new(NoLlm, embedder.clone(), storage, Prompts::default());
    engine.set_embedding_model(EmbeddingModel::new("test", model, Some(26)));
    engine
}

fn add(engine: &Engine, user: &str, text: &str) {
    let options = AddOptions { scope: ScopeFields::user(user), infer: Some(false), ..AddOptions::default() };
    block_on(engine.add(&json!([{"role": "user", "content": text}]), &options)).unwrap();
}

#[test]
fn a_kv_store_keeps_its_model_and_reembed_covers_every_scope() {
    let (kv, embedder) = (MapKv::new(2), Letters::new(26));
    let first = engine(&kv, &embedder, "letters-a");
    assert_eq!(block_on(first.check_embedding_model(true)).unwrap(), None);
    add(&first, "alice", "likes tea");
    add(&first, "bob", "lives in Oslo");
    add(&first, "carol", "plays chess");

    assert_eq!(block_on(engine(&kv, &embedder, "letters-a").check_embedding_model(true)).unwrap(), None);
    let other = engine(&kv, &embedder, "letters-b");
    let warning = block_on(other.check_embedding_model(false)).unwrap().expect("another model warns");
    assert_eq!(serde_json::to_value(&warning).unwrap()["code"], "EMBEDDING_MODEL_CHANGED");
    assert!(warning.message.contains("test/letters-a") && warning.message.contains("test/letters-b"));
    let error = block_on(other.check_embedding_model(true)).unwrap_err();
    assert_eq!(error.code(), "EMBEDDING_MODEL_CHANGED");

    let before = embedder.requests();
    let summary = block_on(other.reembed()).unwrap();
    assert_eq!(summary.memories, 3, "the scopes not loaded yet are re-embedded too");
    assert!(embedder.requests() > before);
    assert_eq!(block_on(engine(&kv, &embedder, "letters-b").check_embedding_model(true)).unwrap(), None);
    assert!(block_on(engine(&kv, &embedder, "letters-a").check_embedding_model(true)).is_err());
}
