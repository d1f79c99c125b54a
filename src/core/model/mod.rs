//! The data model: memories and their history, scopes, memory types, lifecycle fields and graph records.
//! It imports no feature; every part of the library speaks in these types.

pub mod embedding_model;
pub mod expiration_date;
pub mod graph;
pub mod lifecycle;
pub mod listed;
pub mod memory_type;
pub mod scope;
pub mod scope_fields;
pub mod scope_fields_de;
pub mod shared_metadata;
pub mod types;

pub use lifecycle::Lifecycle;
pub use memory_type::MemoryType;
pub use scope::Scope;
pub use shared_metadata::SharedMetadata;
