//! The target-agnostic core: data model, filters, search index, storage trait, prompts, LLM reply
//! parsing and the memory pipeline. No JS types here; `cargo test` runs it natively.

pub mod add_pipeline;
#[cfg(feature = "core-features")]
pub mod additive;
mod assembly;
pub mod case;
pub mod codec;
pub mod config;
#[cfg(feature = "core-features")]
pub mod conversations;
#[cfg(test)]
pub(crate) mod declared_keys;
#[cfg(feature = "core-features")]
pub mod documents;
pub mod engine;
pub mod error;
#[cfg(feature = "core-features")]
pub mod fast_add;
pub mod filter;
pub mod filter_scope;
pub mod fusion;
#[cfg(feature = "core-features")]
pub mod graph;
#[cfg(feature = "core-features")]
pub mod graph_memory;
pub mod identity;
pub mod image;
pub mod keyword;
pub mod kv;
pub mod lifecycle;
pub mod limits;
pub mod llm_json;
#[cfg(feature = "core-features")]
pub mod memory_lifecycle;
pub mod message_fields;
pub mod model;
pub mod model_traits;
pub mod pace;
pub mod packed;
pub mod pipeline_options;
pub mod plan;
pub mod prompt_fence;
#[cfg(all(test, feature = "core-features"))]
mod prompt_fencing_tests;
pub mod prompts;
#[cfg(feature = "core-features")]
pub mod provenance;
pub mod query_speaker;
pub mod query_time;
pub mod read;
mod read_call;
mod read_plain;
pub mod recency;
pub mod reply_schema;
pub mod rerank;
#[cfg(all(test, feature = "core-features"))]
mod result_keys_tests;
pub mod retrieval;
pub mod side_records;
pub mod sort;
pub mod storage;
#[cfg(feature = "core-features")]
pub mod sync;
#[doc(hidden)]
pub mod testing;
#[cfg(feature = "core-features")]
pub mod tiers;
pub mod time;
pub mod tokens;
pub mod unknown_field;
pub mod upstream_error;
pub mod value_de;
pub mod vector_store;
pub mod warning;
pub mod watermark;
