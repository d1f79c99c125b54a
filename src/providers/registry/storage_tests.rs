//! A toy backend added the documented way: its own module (a folder, in the crate) and one row in a
//! `storage_backends!` table, then a memory written through the engine and read back by a second engine.

use futures_executor::block_on;
use serde_json::json;

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::{InMemoryStorage, Storage};
use crate::core::testing::{Letters, NoLlm};

/// The backend's folder: a storage that keeps memories and history on a shelf that outlives the engine.
mod shelf {
    use std::cell::RefCell;
    use std::collections::BTreeMap;
    use std::rc::Rc;

    use crate::core::error::Result;
    use crate::core::model::types::{HistoryRecord, StoredMemory};
    use crate::core::side_records::SideRecord;
    use crate::core::storage::{Changeset, Storage};

    #[derive(Default)]
    struct Held {
        memories: BTreeMap<String, StoredMemory>,
        history: Vec<HistoryRecord>,
    }

    /// Memories by id and history, shared by clones.
    #[derive(Clone, Default)]
    pub struct ShelfStorage(Rc<RefCell<Held>>);

    /// The row's opener: the shelf it is given.
    pub fn open(shelf: &ShelfStorage) -> Result<ShelfStorage> {
        Ok(shelf.clone())
    }

    impl Storage for ShelfStorage {
        async fn load_memories(&self) -> Result<Vec<StoredMemory>> {
            Ok(self.0.borrow().memories.values().cloned().collect())
        }

        async fn commit(&self, changes: &Changeset) -> Result<()> {
            let mut held = self.0.borrow_mut();
            for memory in &changes.upserts {
                held.memories.insert(memory.item.id.clone(), memory.clone());
            }
            for id in &changes.deletes {
                held.memories.remove(id);
            }
            held.history.extend(changes.history.iter().cloned());
            Ok(())
        }

        async fn history(&self, memory_id: &str) -> Result<Vec<HistoryRecord>> {
            Ok(self.0.borrow().history.iter().filter(|record| record.memory_id == memory_id).cloned().collect())
        }

        async fn clear(&self) -> Result<()> {
            *self.0.borrow_mut() = Held::default();
            Ok(())
        }

        async fn load_side(&self, _kind: &str) -> Result<Vec<SideRecord>> {
            Ok(Vec::new())
        }
    }
}

fn open_memory(_shelf: &shelf::ShelfStorage) -> crate::core::error::Result<InMemoryStorage> {
    Ok(InMemoryStorage::default())
}

storage_backends! {
    /// The test's storages: the in-memory default and the toy.
    enum TestStorage, opened with (shelf: &shelf::ShelfStorage) {
        Memory(InMemoryStorage) = "memory" => open_memory,
        /// The toy, registered by this one row.
        Shelf(shelf::ShelfStorage) = "shelf" => shelf::open,
    }
}

fn engine(storage: TestStorage) -> MemoryEngine<NoLlm, Letters, TestStorage> {
    block_on(MemoryEngine::open(NoLlm, Letters::new(26), storage, Prompts::default())).unwrap()
}

#[test]
fn a_registered_backend_round_trips_a_memory_through_the_engine() {
    let kept = shelf::ShelfStorage::default();
    let writer = engine(TestStorage::open("shelf", &kept).unwrap());
    let options = AddOptions { scope: ScopeFields::user("alice"), infer: Some(false), ..AddOptions::default() };
    let added = block_on(writer.add(&json!([{"role": "user", "content": "likes green tea"}]), &options)).unwrap();
    let id = added.results[0].id.clone();

    let reader = engine(TestStorage::open("shelf", &kept).unwrap());
    let read = block_on(reader.get(&id)).unwrap().expect("the memory the first engine wrote");
    assert_eq!(read.memory, "likes green tea");
    assert_eq!(block_on(reader.history(&id)).unwrap().len(), 1);
}

#[test]
fn the_table_lists_its_names_and_dispatches_to_each_backend() {
    assert_eq!(TestStorage::NAMES, ["memory", "shelf"]);
    let kept = shelf::ShelfStorage::default();
    assert!(!TestStorage::open("memory", &kept).unwrap().keeps_memories());
    assert!(TestStorage::open("shelf", &kept).unwrap().keeps_memories());
}

#[test]
fn an_unknown_backend_is_invalid_config_naming_every_registered_one() {
    let Err(error) = TestStorage::open("postgres", &shelf::ShelfStorage::default()) else {
        panic!("postgres is not registered")
    };
    assert_eq!(error.code(), "INVALID_CONFIG");
    assert_eq!(
        error.to_string(),
        "invalid config: storage.provider: unknown provider \"postgres\" (supported: memory, shelf)"
    );
}
