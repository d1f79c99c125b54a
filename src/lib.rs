//! memwasm: fact-based AI memory (mem0-style) as one WebAssembly module for browsers, Node and
//! Cloudflare Workers.
//!
//! - [`core`]: the target-agnostic engine (runs natively under `cargo test`).
//! - [`http`] and [`providers`]: the OpenAI-compatible LLM and embedder over a tiny HTTP trait.
//! - `platform` (wasm32 only): the global-`fetch` adapter and host environment.
//! - `js` (wasm32, feature `js`): the JS binding, a thin `Memory` class over the core.

pub mod core;
pub mod http;
pub mod providers;

#[cfg(target_arch = "wasm32")]
pub mod platform;

#[cfg(all(target_arch = "wasm32", feature = "js"))]
mod js;

pub use crate::core::engine::memory::MemoryEngine;
pub use crate::core::error::MemoryError;
/// The JS `Memory` class, reachable from Rust for the browser tests (`tests/browser_*.rs`).
#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub use crate::js::Memory;
