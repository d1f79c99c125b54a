//! The target-agnostic core: data model, filters, search index, storage trait, prompts, LLM reply
//! parsing and the memory pipeline. No JS types here; `cargo test` runs it natively.

pub mod codec;
pub mod config;
pub mod conversations;
pub mod crud;
pub mod documents;
pub mod error;
pub mod filter;
pub mod filter_scope;
pub mod fusion;
pub mod graph;
pub mod identity;
pub mod keyword;
pub mod kv;
pub mod lifecycle;
pub mod limits;
pub mod llm_json;
pub mod memory;
pub mod models;
mod on_demand;
pub mod options;
mod pipeline;
pub mod plan;
pub mod prompts;
pub mod read;
mod read_call;
pub mod recall;
pub mod remote;
pub mod remote_vectors;
pub mod reply_schema;
pub mod retrieval;
pub mod retrieve;
pub mod scope;
mod side_access;
pub mod side_records;
pub mod storage;
#[doc(hidden)]
pub mod testing;
pub mod tiers;
pub mod time;
pub mod tokens;
pub mod tools;
pub mod transfer;
pub mod types;
pub mod update;
pub mod vector_store;
pub mod warning;
