//! The registration tables of the extension points: `storage_backends!` writes a storage enum from one row
//! per backend, `model_providers!` the parsing and the names of the LLM and embedder providers from one
//! row per provider. Adding either is one folder plus one row (docs/dev/extending.md).

pub mod models;
pub mod storage;

#[cfg(test)]
#[path = "ts_types_tests.rs"]
mod ts_types_tests;
