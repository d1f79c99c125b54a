//! A scope's first use over KV storage with open images (a Durable Object): the vectors go from the
//! image's rows straight into the index, each once, never as a `Vec` per memory; only the memories the
//! journal names (read from their own values) carry theirs.

use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::error::Result;
use crate::core::kv::KvStorage;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::model::types::StoredMemory;
use crate::core::packed::{Packed, RowChunk, RowSource};
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{Read, DEFAULT_LIMIT};
use crate::core::testing::{Letters, MapKv, NoLlm};
use crate::core::time::Clock;
use crate::core::vector_store::{InMemoryVectorStore, Predicate, VectorStore};

/// The default index, counting the vectors it is given inside memories and as packed rows.
#[derive(Default)]
struct Counting {
    inner: InMemoryVectorStore,
    in_memories: usize,
    rows: Rc<Cell<usize>>,
}

/// Rows passed through, counted.
struct CountedRows {
    rows: Box<dyn RowSource>,
    seen: Rc<Cell<usize>>,
}

impl RowSource for CountedRows {
    fn next_chunk(&mut self) -> Option<RowChunk<'_>> {
        let chunk = self.rows.next_chunk()?;
        self.seen.set(self.seen.get() + chunk.rows().count());
        Some(chunk)
    }
}

impl VectorStore for Counting {
    fn upsert(&mut self, memory: StoredMemory) -> Result<()> {
        self.in_memories += usize::from(memory.embedding.is_some());
        self.inner.upsert(memory)
    }
    fn load_packed(&mut self, packed: Packed) -> Result<()> {
        self.in_memories += packed.memories.iter().filter(|memory| memory.embedding.is_some()).count();
        let rows = Box::new(CountedRows { rows: packed.rows, seen: self.rows.clone() });
        self.inner.load_packed(Packed { rows, ..packed })
    }
    fn remove(&mut self, id: &str) -> Option<StoredMemory> {
        self.inner.remove(id)
    }
    fn get(&self, id: &str) -> Option<&StoredMemory> {
        self.inner.get(id)
    }
    fn search(&self, query: &[f32], limit: usize, keep: Predicate) -> Result<Vec<(f32, &StoredMemory)>> {
        self.inner.search(query, limit, keep)
    }
    fn list(&self, limit: usize, keep: Predicate) -> Vec<&StoredMemory> {
        self.inner.list(limit, keep)
    }
    fn clear(&mut self) {
        self.inner.clear()
    }
    fn len(&self) -> usize {
        self.inner.len()
    }
    fn dimension(&self) -> Option<usize> {
        self.inner.dimension()
    }
    fn vector(&self, id: &str) -> Option<Vec<f32>> {
        self.inner.vector(id)
    }
}

fn alice() -> Read {
    Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, DEFAULT_LIMIT)
}

fn add<V: VectorStore + Default>(engine: &MemoryEngine<NoLlm, Letters, KvStorage<MapKv>, V>, text: &str) {
    let options = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
    block_on(engine.add(&json!(text), &options)).unwrap();
}

/// A restarted object: a fresh engine over `kv`, its index counting, its clock reading `now`.
fn restarted(kv: &MapKv, now: &Rc<Cell<i64>>) -> MemoryEngine<NoLlm, Letters, KvStorage<MapKv>, Counting> {
    let storage = KvStorage::new(kv.clone(), "t/x/");
    let mut engine =
        MemoryEngine::new_with_index(NoLlm, Letters::new(26), storage, Prompts::default(), Counting::default());
    let now = now.clone();
    engine.set_clock(Clock::from_fn(move || now.get()));
    engine
}

#[test]
fn a_scope_loaded_from_its_image_hands_each_vector_to_the_index_once_as_a_row() {
    let (kv, now) = (MapKv::new(1000).atomic(), Rc::new(Cell::new(1_767_225_600_000)));
    let seeding = restarted(&kv, &now);
    let texts = ["likes green tea", "plays chess", "plays the drums", "lives in Berlin", "reads poetry"];
    texts.iter().for_each(|text| add(&seeding, text));
    block_on(seeding.settle_storage(false)).unwrap();

    let engine = restarted(&kv, &now);
    let listed = block_on(engine.get_all(&alice())).unwrap().results;
    assert_eq!(engine.scope_loads(), ["image journal=0"]);
    assert_eq!(listed.iter().map(|m| m.memory.as_str()).collect::<Vec<_>>(), texts, "oldest first");
    let index = engine.index.borrow();
    assert_eq!(index.in_memories, 0, "no vector came as a memory's own Vec");
    assert_eq!(index.rows.get(), texts.len(), "each vector came once, as a row");
    assert!(listed.iter().all(|m| index.vector(&m.id).is_some_and(|v| v.len() == 26)));
    drop(index);

    // A minute on: the seeding stamped its memories a few milliseconds ahead of its clock (turn stamps).
    now.set(now.get() + 60_000);
    add(&engine, "likes sailing");
    let engine = restarted(&kv, &now);
    assert_eq!(block_on(engine.get_all(&alice())).unwrap().results.len(), texts.len() + 1);
    assert_eq!(engine.scope_loads(), ["image journal=1"]);
    let index = engine.index.borrow();
    assert_eq!(index.in_memories, 1, "only the memory the journal names carries its vector");
    assert_eq!(index.rows.get(), texts.len());
}
