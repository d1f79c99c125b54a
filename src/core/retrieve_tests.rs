//! The keyword index is kept in step by every write itself (not only caught up by searches).

use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::error::{MemoryError, Result};
use crate::core::memory::MemoryEngine;
use crate::core::options::{AddOptions, QueryOptions};
use crate::core::scope::Scope;
use crate::core::storage::{Changeset, InMemoryStorage, Storage};
use crate::core::types::{HistoryRecord, MemoryItem, StoredMemory};
use crate::core::vector_store::VectorStore;
use crate::providers::{Embedder, Llm};

/// Neither an LLM nor an embedder.
struct Off;

impl Llm for Off {
    async fn generate(&self, _: &str, _: &str, _: bool) -> Result<String> {
        Err(MemoryError::InvalidInput("off".into()))
    }
    fn is_configured(&self) -> bool {
        false
    }
}

impl Embedder for Off {
    async fn embed(&self, _: &[String]) -> Result<Vec<Vec<f32>>> {
        Err(MemoryError::InvalidInput("off".into()))
    }
    fn is_configured(&self) -> bool {
        false
    }
}

/// Storage that already holds one memory when opened.
struct Holding(StoredMemory);

impl Storage for Holding {
    async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
        Ok(vec![self.0.clone()])
    }
    async fn commit(&self, _: &Changeset) -> Result<()> {
        Ok(())
    }
    async fn history(&self, _: &str) -> Result<Vec<HistoryRecord>> {
        Ok(Vec::new())
    }
    async fn clear(&self) -> Result<()> {
        Ok(())
    }
}

fn prompts() -> Prompts {
    Prompts { fact_extraction: String::new(), update_decision: String::new() }
}

/// Ids the keyword index alone finds for `query`, looked up without going through a search.
fn indexed<L, E, S: Storage>(engine: &MemoryEngine<L, E, S>, query: &str) -> Vec<String> {
    engine.keywords.borrow().search(query, 10, &|_| true, &|_| true).into_iter().map(|(_, id)| id.to_owned()).collect()
}

fn alice() -> AddOptions {
    AddOptions { user_id: Some("alice".into()), ..AddOptions::default() }
}

#[test]
fn commits_and_reset_update_the_keyword_index_directly() {
    let engine = MemoryEngine::<Off, Off, InMemoryStorage>::new(Off, Off, InMemoryStorage::default(), prompts());
    let added = block_on(engine.add(&json!("User likes tea"), &alice())).unwrap();
    let id = added.results[0].id.clone();
    assert_eq!(indexed(&engine, "tea"), [id.as_str()]);
    assert!(engine.index.borrow().get(&id).unwrap().embedding.is_none(), "no vector without an embedder");

    block_on(engine.update(&id, "User likes coffee")).unwrap();
    assert_eq!(indexed(&engine, "coffee"), [id.as_str()]);
    assert!(indexed(&engine, "tea").is_empty());
    block_on(engine.delete(&id)).unwrap();
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
        created_at: String::new(),
        updated_at: String::new(),
        scope: Scope { user_id: Some("alice".into()), ..Scope::default() },
    };
    let engine = block_on(MemoryEngine::<Off, Off, Holding>::open(
        Off,
        Off,
        Holding(StoredMemory { item, embedding: None }),
        prompts(),
    ))
    .unwrap();
    assert_eq!(indexed(&engine, "portuguese"), ["m1"]);
    let read = QueryOptions { user_id: Some("alice".into()), ..QueryOptions::default() };
    let found = block_on(engine.search("portuguese", &read)).unwrap();
    assert_eq!(found[0].id, "m1");
}
