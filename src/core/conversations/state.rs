//! What conversation memories keep in the engine: the boundary settings, and the commit hook that keeps
//! the originals' compression marks in step with their summaries.

use std::cell::Cell;
use std::rc::Rc;

use crate::core::config::BoundarySettings;
use crate::core::engine::extensions::EngineHooks;
use crate::core::engine::MemoryEngine;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Conversation memories' state in an engine (see the module doc).
#[derive(Default)]
pub(crate) struct ConversationState {
    /// When a buffer closes into an episode (`boundary` in the config).
    pub(crate) boundary: Cell<BoundarySettings>,
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> EngineHooks<MemoryEngine<L, E, S, V>>
    for ConversationState
{
    /// A summary deleted uncovers its originals; one restored covers them again.
    fn before_commit(&self, engine: &MemoryEngine<L, E, S, V>, changes: &mut Changeset) {
        engine.conversations().follow_summaries(changes);
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Conversation memories' state, attached with its hooks on first use (an engine attaches it when opened).
    pub(crate) fn conversation_state(&self) -> Rc<ConversationState> {
        self.extensions.get_or_attach()
    }

    /// Uses `settings` (`boundary` in the config) for conversation memories from now on.
    pub fn set_boundary(&mut self, settings: BoundarySettings) {
        self.conversation_state().boundary.set(settings);
    }
}
