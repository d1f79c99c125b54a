//! Message-by-message memory through the engine, natively: boundary rules with a movable clock and a
//! scripted LLM, the persisted buffer (a second engine over the same storage sees it), duplicate ids,
//! extraction into typed memories, plans a later episode replaces, profile merging, conversation metadata
//! and soft delete by filter; the conversation API's reads (fetch by type, time ranges, agentic search) and
//! compression.
#![cfg(not(target_arch = "wasm32"))]

mod agentic;
mod boundaries;
mod buffer;
mod compress;
mod extraction;
mod foresight;
mod meta_delete;
mod profiles;
mod reads;
mod rig;
mod shared;
