//! What waits for a vector (see `deferred`).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

/// What waits for a vector, and whether this engine may defer at all.
#[derive(Debug, Default)]
pub(crate) struct DeferredVectors {
    /// Set by hosts that settle in the background (the JS binding); off, rewrites are embedded inline.
    pub(super) enabled: Cell<bool>,
    /// True once the side records were read into `pending`.
    pub(super) loaded: Cell<bool>,
    /// Memory id → the text whose vector it waits for.
    pub(super) pending: RefCell<BTreeMap<String, String>>,
    /// Text → failed tries to embed it by this instance; at `MAX_SETTLE_TRIES` it is not sent again.
    pub(super) tries: RefCell<BTreeMap<String, u32>>,
}
