//! Memory that forgets and expires (seeds 003 and 004): types, importance, TTL, pinning, decay, limits,
//! keys, sharing, soft deletion. The pure rules live in their own files; `engine_*` files are the engine's
//! lifecycle calls.

pub mod decay;
pub mod facts;
pub mod glob;
pub mod importance;
pub mod options;
pub mod write;

pub use crate::core::config::LifecycleSettings;
