//! The rules of the memory lifecycle that every write applies: importance, TTL, limits and which memories
//! are facts, decay's plan, key globs and the lifecycle options. Its operations (pin, decay, keys, share,
//! stats) are in `memory_lifecycle/`, reached with `engine.lifecycle()`.

pub mod decay;
pub mod facts;
pub mod glob;
pub mod importance;
pub mod options;
pub mod write;

pub use crate::core::config::LifecycleSettings;
