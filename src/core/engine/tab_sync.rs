//! Keeping the index in step with writes made elsewhere: another tab (or another `Memory`) on the same
//! persistent storage. The storage observes those writes and re-reads them; the engine mirrors them.

use std::rc::Rc;

use super::memory::MemoryEngine;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{RemoteChange, Storage};
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Mirrors a change another instance made to the shared storage in this instance's index. A memory the
    /// index cannot hold (a vector of another length) stays out of it instead of stopping the rest.
    pub fn apply_remote(&self, change: RemoteChange) {
        // The side records read so far may be stale now (the change does not say which it wrote): each kind is
        // read again from storage when next needed.
        self.side.borrow_mut().clear();
        self.extensions.hooks().for_each(|hooks| hooks.on_remote_change());
        let _ = self.mirror(change.cleared, &change.deletes, Vec::new());
        for memory in change.upserts {
            let _ = self.mirror(false, &[], vec![memory]);
        }
    }

    /// Follows the storage's remote changes for as long as this engine lives.
    pub fn follow_remote(self: &Rc<Self>)
    where
        Self: 'static,
    {
        let engine = Rc::downgrade(self);
        self.storage.watch(Box::new(move |change| {
            if let Some(engine) = engine.upgrade() {
                engine.apply_remote(change);
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    use futures_executor::block_on;
    use serde_json::json;

    use super::*;
    use crate::core::model::scope::Scope;
    use crate::core::model::scope_fields::ScopeFields;
    use crate::core::model::types::StoredMemory;
    use crate::core::pipeline_options::AddOptions;
    use crate::core::read::{Read, DEFAULT_LIMIT};
    use crate::core::storage::InMemoryStorage;
    use crate::core::testing::{letter_engine, KeepingStorage};

    fn texts<S: Storage>(engine: &MemoryEngine<impl Llm, impl Embedder, S>) -> Vec<String> {
        let all = Read::of(Scope { user_id: Some("alice".into()), ..Scope::default() }, DEFAULT_LIMIT);
        block_on(engine.get_all(&all)).unwrap().results.into_iter().map(|item| item.memory).collect()
    }

    #[test]
    fn remote_changes_reach_the_index_while_the_engine_lives() {
        let storage = KeepingStorage::new();
        let engine = Rc::new(letter_engine(storage.clone()));
        engine.follow_remote();
        let add = AddOptions { scope: ScopeFields::user("alice"), ..AddOptions::default() };
        let tea = block_on(engine.add(&json!("likes tea"), &add)).unwrap().results[0].id.clone();
        let other = letter_engine(InMemoryStorage::default());
        block_on(other.add(&json!("walks the dog"), &add)).unwrap();
        block_on(other.add(&json!("has a cat"), &add)).unwrap();
        let (dog, cat) = {
            let index = other.index.borrow();
            let with_vector = |m: &StoredMemory| StoredMemory { embedding: index.vector(&m.item.id), ..m.clone() };
            let both = index.list(2, &|_| true);
            (with_vector(both[0]), with_vector(both[1]))
        };

        let notify = |change: RemoteChange| storage.notify(change);
        notify(RemoteChange { cleared: false, upserts: vec![dog.clone()], deletes: vec![tea] });
        assert_eq!(texts(&engine), ["walks the dog"]);
        notify(RemoteChange { cleared: true, ..RemoteChange::default() });
        assert!(texts(&engine).is_empty());

        let mut odd = StoredMemory { embedding: Some(vec![1.0, 0.0]), ..cat.clone() };
        odd.item.id = "odd".into();
        notify(RemoteChange { cleared: false, upserts: vec![dog, odd, cat], deletes: vec![] });
        assert_eq!(texts(&engine), ["walks the dog", "has a cat"], "a vector of another length is left out");

        drop(engine);
        notify(RemoteChange { cleared: true, ..RemoteChange::default() });
    }
}
