//! The keyword index is kept in step by every write itself (not only caught up by searches).

use crate::core::model::scope_fields::ScopeFields;
use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{Read, DEFAULT_LIMIT};
use crate::core::storage::{InMemoryStorage, Storage};
use crate::core::testing::{KeepingStorage, NoEmbedder, NoLlm};
use crate::core::vector_store::VectorStore;

/// Ids the keyword index alone finds for `query`, looked up without going through a search.
fn indexed<L, E, S: Storage>(engine: &MemoryEngine<L, E, S>, query: &str) -> Vec<String> {
    engine.keywords.borrow().search(query, 10, &|_| true, &|_| true).into_iter().map(|(_, id)| id.to_owned()).collect()
}

fn alice() -> AddOptions {
    AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() }
}

#[test]
fn commits_and_reset_update_the_keyword_index_directly() {
    let engine = MemoryEngine::new(NoLlm, NoEmbedder::new(), InMemoryStorage::default(), Prompts::default());
    let added = block_on(engine.add(&json!("User likes tea"), &alice())).unwrap();
    let id = added.results[0].id.clone();
    assert_eq!(indexed(&engine, "tea"), [id.as_str()]);
    assert!(engine.index.borrow().get(&id).unwrap().embedding.is_none(), "no vector without an embedder");

    block_on(engine.update(&id, "User likes coffee")).unwrap();
    assert_eq!(indexed(&engine, "coffee"), [id.as_str()]);
    assert!(indexed(&engine, "tea").is_empty());
    block_on(engine.delete(&id, false)).unwrap();
    assert!(engine.keywords.borrow().is_empty());

    block_on(engine.add(&json!("User owns a cat"), &alice())).unwrap();
    assert_eq!(engine.keywords.borrow().len(), 1);
    block_on(engine.reset()).unwrap();
    assert!(engine.keywords.borrow().is_empty());
}

#[test]
fn open_builds_the_keyword_index_from_storage() {
    let item = MemoryItem {
        id: "m1".into(),
        memory: "User speaks Portuguese".into(),
        hash: String::new(),
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at: String::new(),
        updated_at: String::new(),
        scope: Scope { user_id: Some("alice".into()), ..Scope::default() },
        lifecycle: Default::default(),
    };
    let storage = KeepingStorage::holding(vec![StoredMemory { item, embedding: None }]);
    let engine = block_on(MemoryEngine::open(NoLlm, NoEmbedder::new(), storage, Prompts::default())).unwrap();
    assert_eq!(indexed(&engine, "portuguese"), ["m1"]);
    let read = Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, DEFAULT_LIMIT);
    let found = block_on(engine.search("portuguese", &read)).unwrap();
    assert_eq!(found.results[0].id, "m1");
}
