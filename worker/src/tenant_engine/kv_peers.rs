//! On Workers KV every request builds its own engine of its tenant; the engines that this isolate's requests
//! of one tenant hold at the same time are joined as peers (`memwasm::core::engine::peers`): their adds
//! commit one at a time and each sees what the others stored, as the requests of a Durable Object share one
//! engine. The peers live as long as one of their engines. A request waiting for a lock another request's
//! engine holds is never woken by that request (workerd refuses I/O of one request in another's context):
//! it tries again every `PAUSE_MS`, on a timer of its own, and after `PATIENCE_MS` on one holder takes the
//! lock over (a request cancelled mid-commit, its client gone, never lets go).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use memwasm::core::engine::peers::Peers;
use memwasm::core::engine::Pausing;

/// How long a request waits before it tries a lock held by another request's engine again.
const PAUSE_MS: u64 = 5;
/// How long one request may hold a lock (a commit's KV writes) before a waiting one takes it over.
const PATIENCE_MS: u64 = 30_000;

thread_local! {
    static PEERS: RefCell<HashMap<String, Weak<Peers>>> = RefCell::default();
}

/// The peers of `tenant`'s engines in this isolate: those of the engines alive now, else new ones.
pub fn of(tenant: &str) -> Rc<Peers> {
    PEERS.with_borrow_mut(|all| {
        if let Some(peers) = all.get(tenant).and_then(Weak::upgrade) {
            return peers;
        }
        all.retain(|_, peers| peers.strong_count() > 0);
        let pause = Rc::new(|| Box::pin(worker::Delay::from(std::time::Duration::from_millis(PAUSE_MS))) as _);
        let peers = Rc::new(Peers::pausing(Pausing { pause, patience: (PATIENCE_MS / PAUSE_MS) as u32 }));
        all.insert(tenant.to_owned(), Rc::downgrade(&peers));
        peers
    })
}
