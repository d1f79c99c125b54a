//! Which speaker of the searched scope's conversation a query names (see `core::query_speaker`): each word
//! of the query that could be a name is looked up among the scope's turns that hold it, and their speakers
//! are the names it could be.

use super::memory::MemoryEngine;
use crate::core::model::scope::Scope;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::query_speaker::{named_speaker, turn_speaker, Holder, NamedSpeaker, TURNS_READ};
use crate::core::storage::Storage;
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// The one speaker of `scope`'s turns that `query` names, if any. With `build` false it answers only
    /// from a keyword index a read has built already (`None` otherwise), so asking before the scope loads
    /// costs no index build.
    pub(crate) fn speaker_named(&self, query: &str, scope: &Scope, build: bool) -> Option<NamedSpeaker> {
        let keywords = self.keywords.borrow();
        if !build && !keywords.is_built() {
            return None;
        }
        let index = self.index.borrow();
        named_speaker(query, |word| {
            let turns = keywords.turns_holding(word, scope, TURNS_READ).into_iter().filter_map(|id| index.get(id));
            let holder = |item| Some(Holder { speaker: turn_speaker(item)?, text: &item.memory });
            turns.filter_map(|entry| holder(&entry.item)).collect()
        })
    }
}

#[cfg(test)]
#[path = "search_speaker_tests.rs"]
mod tests;
