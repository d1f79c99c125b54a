//! Work that outlives the answer (the tier flush's add): where it runs; and the storage of the object that
//! runs it, when one does.

use std::future::Future;

use worker::{durable::State, Context};

/// Where work that outlives the answer runs: the request's `waitUntil`, or the object's.
pub enum Later<'a> {
    Request(&'a Context),
    Object(&'a State),
}

impl Later<'_> {
    /// Runs `work` after the answer, keeping the request (or object) alive until it ends.
    pub fn spawn(&self, work: impl Future<Output = ()> + 'static) {
        match self {
            Later::Request(ctx) => ctx.wait_until(work),
            Later::Object(state) => state.wait_until(work),
        }
    }

    /// The storage of the Durable Object answering the request; `None` in the Worker (`STORAGE = "kv"`).
    pub fn storage(&self) -> Option<worker::Storage> {
        match self {
            Later::Request(_) => None,
            Later::Object(state) => Some(state.storage()),
        }
    }
}
