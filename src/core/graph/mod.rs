//! Graph memory: entities and relations extracted by one extra LLM call in `add()`,
//! kept beside the memories in the same storage, and walked one hop by `search()`.

pub mod extract;
pub mod input;
mod search;
pub mod store;

pub use crate::core::model::graph::{
    entity_name, relation_name, Entity, GraphChanges, GraphRecord, Relation, RelationTriple,
};
pub use extract::{parse_graph, Extracted, GRAPH_EXTRACTION_PROMPT};
pub use search::merge_by_bm25;
pub use store::Graph;

pub use crate::core::config::GraphOptions;
