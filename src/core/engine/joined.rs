//! An engine joined to its peers (`peers.rs` says what peers are): it shares their locks, mirrors their
//! writes, and tells them its own.

use std::rc::{Rc, Weak};

use super::memory::MemoryEngine;
use super::peers::{Mirror, Peers};
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{RemoteChange, Storage};
use crate::core::vector_store::VectorStore;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Mirror for MemoryEngine<L, E, S, V> {
    fn mirror_peer(&self, change: &RemoteChange) {
        self.apply_remote(change.clone());
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// This engine, joined to `peers` (see `peers.rs`).
    pub fn joined(mut self, peers: &Rc<Peers>) -> Rc<Self>
    where
        Self: 'static,
    {
        self.locks = peers.locks();
        let engine = Rc::new(self);
        let member: Weak<dyn Mirror> = Rc::downgrade(&engine) as Weak<Self>;
        let id = peers.join(member);
        engine.peers.replace(Some((peers.clone(), id)));
        engine
    }

    /// True when this engine has peers to tell its writes.
    pub(crate) fn has_peers(&self) -> bool {
        self.peers.borrow().is_some()
    }

    /// Tells this engine's peers what it wrote (nothing without peers).
    pub(crate) fn tell_peers(&self, change: RemoteChange) {
        let link = self.peers.borrow().clone();
        if let Some((peers, id)) = link {
            peers.tell(id, &change);
        }
    }
}
