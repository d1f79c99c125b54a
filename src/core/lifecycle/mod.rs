//! Memory that forgets and expires (seeds 003 and 004): types, importance, TTL, pinning, decay, limits,
//! keys, sharing, soft deletion. The pure rules live in their own files; `engine_*` files are the engine's
//! lifecycle calls.

pub mod decay;
pub(crate) mod engine_expiry;
pub(crate) mod engine_keys;
mod engine_stats;
pub mod facts;
pub mod glob;
pub mod importance;
pub mod options;
pub mod settings;
pub mod write;

pub use engine_expiry::DecayOutcome;
pub use engine_keys::Stored;
pub use engine_stats::{ScopeCount, Stats};
pub use settings::LifecycleSettings;

pub use crate::core::engine::MemoryLifecycle;
