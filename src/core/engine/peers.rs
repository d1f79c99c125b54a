//! Engines joined as peers: engines over one storage in one process that each see only their own writes (the
//! Worker on KV builds an engine per request, and an isolate serves a tenant's requests at once). Peers share
//! one set of locks, so their `add()` commits run one at a time, as one engine's do; and each commit is
//! mirrored into the other peers' indexes before its lock is let go, so the next commit finds a fact a peer
//! stored meanwhile and stores nothing new (see `add_commit`), and reads see it. Single-threaded (wasm, `Rc`).

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use super::locks::{Locks, Pausing};
use super::memory::MemoryEngine;
use crate::core::model_traits::{Embedder, Llm};
use crate::core::storage::{RemoteChange, Storage};
use crate::core::vector_store::VectorStore;

/// An engine that mirrors what its peers write.
trait Mirror {
    fn mirror_peer(&self, change: &RemoteChange);
}

/// A set of engines joined as peers (`MemoryEngine::joined`); an engine leaves it when it is dropped.
#[derive(Default)]
pub struct Peers {
    locks: Rc<Locks>,
    members: RefCell<Vec<(u64, Weak<dyn Mirror>)>>,
    joined: Cell<u64>,
}

impl Peers {
    /// Peers whose tasks must not wake one another, such as the requests of a Worker isolate (a request
    /// woken by another would go on, and do its I/O, in the other's context, which workerd refuses): a peer
    /// waiting for a lock another holds tries again after each pause, a timer of its own (see `Pausing`).
    pub fn pausing(pausing: Pausing) -> Self {
        Self { locks: Rc::new(Locks::pausing(pausing)), ..Self::default() }
    }

    /// How many joined engines are still alive.
    pub fn len(&self) -> usize {
        self.members.borrow().iter().filter(|(_, member)| member.strong_count() > 0).count()
    }

    /// True when no joined engine is alive.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Hands `change`, written by member `from`, to every other live member; forgets the dropped ones.
    fn tell(&self, from: u64, change: &RemoteChange) {
        let others: Vec<Rc<dyn Mirror>> = {
            let mut members = self.members.borrow_mut();
            members.retain(|(_, member)| member.strong_count() > 0);
            members.iter().filter(|(id, _)| *id != from).filter_map(|(_, member)| member.upgrade()).collect()
        };
        for other in others {
            other.mirror_peer(change);
        }
    }
}

/// The peers an engine joined, and its number among them.
pub(crate) type PeerLink = RefCell<Option<(Rc<Peers>, u64)>>;

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> Mirror for MemoryEngine<L, E, S, V> {
    fn mirror_peer(&self, change: &RemoteChange) {
        self.apply_remote(change.clone());
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// This engine, joined to `peers` (see the module).
    pub fn joined(mut self, peers: &Rc<Peers>) -> Rc<Self>
    where
        Self: 'static,
    {
        self.conversations.locks = peers.locks.clone();
        let engine = Rc::new(self);
        let id = peers.joined.replace(peers.joined.get() + 1);
        let member: Weak<dyn Mirror> = Rc::downgrade(&engine) as Weak<Self>;
        peers.members.borrow_mut().push((id, member));
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
