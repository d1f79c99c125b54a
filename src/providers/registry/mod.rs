//! The registration tables of the extension points: `storage_backends!` writes a storage enum from one row
//! per backend; `model_providers!` the choice enums, the parsing and the names of the LLM and embedder
//! providers, and `model_constructors!` the building of their models, both from the rows of one provider
//! table. Adding either is one folder plus one row (docs/dev/extending.md).

pub mod models;
pub mod storage;

#[cfg(test)]
#[path = "ts_types_tests.rs"]
mod ts_types_tests;
