//! Last accesses: the memories searches return, noted with the time and written later in one batch, by
//! `decay()` (which counts from them) or by `flush_accesses()` (hosts whose engine lives for one request).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::MemoryLifecycle;
use crate::core::engine::extensions::EngineHooks;
use crate::core::engine::search::SearchResponse;
use crate::core::engine::MemoryEngine;
use crate::core::error::Result;
use crate::core::model::types::StoredMemory;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::read::Read;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// The last access of each memory a search returned since the notes were last written: id → ISO time.
#[derive(Default)]
pub(crate) struct AccessNotes {
    noted: RefCell<HashMap<String, String>>,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> EngineHooks<MemoryEngine<L, E, S, V>> for AccessNotes {
    /// The memories the search returns were accessed now.
    fn after_search(
        &self,
        engine: &MemoryEngine<L, E, S, V>,
        _: Option<&str>,
        _: &Read,
        response: &mut SearchResponse,
    ) {
        let now = engine.now_iso();
        let mut noted = self.noted.borrow_mut();
        for item in &response.results {
            noted.insert(item.id.clone(), now.clone());
        }
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryLifecycle<'_, L, E, S, V> {
    /// The memories whose noted last access is newer than what they hold, with it applied; the notes are
    /// cleared. Callers write them with their next commit.
    pub(crate) fn take_accesses(&self) -> Vec<StoredMemory> {
        let noted = std::mem::take(&mut *self.access_notes().noted.borrow_mut());
        noted
            .into_iter()
            .filter_map(|(id, at)| {
                let mut memory = self.indexed(&id)?;
                let newer = memory.item.lifecycle.last_accessed_at.as_ref().is_none_or(|held| *held < at);
                newer.then(|| {
                    memory.item.lifecycle.last_accessed_at = Some(at);
                    memory
                })
            })
            .collect()
    }

    /// Writes the last accesses searches noted (one commit for all of them). `decay()` does it first on its
    /// own; hosts whose engine lives for one request (the Worker) call it after a search.
    pub async fn flush_accesses(&self) -> Result<()> {
        let touched = self.take_accesses();
        self.commit(Changeset { upserts: touched, ..Changeset::default() }).await
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The access notes, attached with their hook when the engine is assembled (after the features whose
    /// search step adds results, so that what they add is noted too).
    pub(crate) fn access_notes(&self) -> Rc<AccessNotes> {
        self.extensions.get_or_attach()
    }
}
