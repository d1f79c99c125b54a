//! Engines joined as peers: engines over one storage in one process that each see only their own writes (the
//! Worker on KV builds an engine per request, and an isolate serves a tenant's requests at once). Peers share
//! one set of locks, so their `add()` commits run one at a time, as one engine's do; and each commit is
//! mirrored into the other peers' indexes before its lock is let go, so the next commit finds a fact a peer
//! stored meanwhile and stores nothing new (see `add_commit`), and reads see it. Single-threaded (wasm, `Rc`).

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use super::locks::{Locks, Pausing};
use crate::core::storage::RemoteChange;

/// An engine that mirrors what its peers write (`joined.rs` implements it for the engine).
pub(super) trait Mirror {
    fn mirror_peer(&self, change: &RemoteChange);
}

/// A set of engines joined as peers (`MemoryEngine::joined`, in `joined.rs`); an engine leaves it when it is
/// dropped.
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

    /// The locks every peer shares.
    pub(super) fn locks(&self) -> Rc<Locks> {
        self.locks.clone()
    }

    /// Adds `member`; its number among the peers.
    pub(super) fn join(&self, member: Weak<dyn Mirror>) -> u64 {
        let id = self.joined.replace(self.joined.get() + 1);
        self.members.borrow_mut().push((id, member));
        id
    }

    /// Hands `change`, written by member `from`, to every other live member; forgets the dropped ones.
    pub(super) fn tell(&self, from: u64, change: &RemoteChange) {
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
