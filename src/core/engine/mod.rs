//! The engine: what every feature shares. Records in storage and the search indexes, history, scopes,
//! the model handles, and the fact-memory operations on them (add, search, get, update, delete, history,
//! import and export, recall and the agent tools). Features reach it through handles (`engine.conversations()` …).

pub(crate) mod add_commit;
mod as_of;
pub(crate) mod as_of_search;
pub mod crud;
mod decision_turn;
pub(crate) mod deferred_vectors;
pub mod degraded;
pub(crate) mod destination;
pub(crate) mod embed_batch;
pub mod embedding_model;
pub(crate) mod extensions;
#[cfg(test)]
mod extensions_tests;
pub(crate) mod handle;
pub(crate) mod import;
mod joined;
#[cfg(test)]
mod list_tests;
pub(crate) mod locks;
pub mod memory;
#[cfg(test)]
mod message_name_tests;
pub(crate) mod on_demand;
#[cfg(test)]
mod on_demand_tests;
pub mod peers;
pub(crate) mod pipeline;
pub mod recall;
pub mod reembed;
pub mod remote_index;
mod rerank;
#[cfg(test)]
mod rerank_tests;
pub mod search;
mod search_agentic;
mod search_response;
mod search_speaker;
mod search_window;
pub(crate) mod side_access;
pub mod snapshot;
mod state;
pub mod tab_sync;
pub mod tools;
pub mod transfer;
#[cfg(test)]
mod turn_context_tests;
#[cfg(test)]
mod turn_stamps_tests;
pub mod update;
pub(crate) mod waiting_vectors;
mod write_budget;

pub use locks::{Pause, Pausing};
pub use memory::MemoryEngine;
