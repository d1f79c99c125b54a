//! Message-by-message memory through the engine, natively: boundary rules with a movable clock and a
//! scripted LLM, the persisted buffer (a second engine over the same storage sees it), duplicate ids,
//! extraction into typed memories, profile merging, conversation metadata and soft delete by filter.
#![cfg(not(target_arch = "wasm32"))]

mod boundaries;
mod buffer;
mod extraction;
mod meta_delete;
mod profiles;
mod rig;
