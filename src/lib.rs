//! memwasm: fact-based AI memory (mem0-style) as one WebAssembly module for browsers, Node and
//! Cloudflare Workers.
//!
//! - [`core`]: the target-agnostic engine (runs natively under `cargo test`).
//! - [`http`] and [`providers`]: the OpenAI-compatible LLM and embedder over a tiny HTTP trait.
//! - `platform` and `js` (wasm32 only): the global-`fetch` adapter and the JS binding.

pub mod core;
pub mod http;
pub mod providers;

#[cfg(target_arch = "wasm32")]
mod platform;

#[cfg(target_arch = "wasm32")]
mod js;

pub use crate::core::error::MemoryError;
pub use crate::core::memory::MemoryEngine;
