//! The memory lifecycle's operations, reached with `engine.lifecycle()`: pinning, purging what expired,
//! decay and the last accesses it counts from, agent key/value entries (`store`, `getByKey`, `deleteByKey`,
//! reflections, `share`) and stats. The
//! rules every write applies (importance, TTL, limits, settings) are in `lifecycle/`.

pub(crate) mod access;
pub(crate) mod expiry;
pub(crate) mod keys;
mod stats;

pub use expiry::DecayOutcome;
pub use keys::Stored;
pub use stats::{ScopeCount, Stats};

crate::core::engine::handle::feature_handle!(
    /// The memory lifecycle, reached with `engine.lifecycle()`.
    MemoryLifecycle,
    /// The memory lifecycle: pinning, expiry, decay, keys, sharing and stats.
    lifecycle
);
