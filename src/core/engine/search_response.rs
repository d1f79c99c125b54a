//! The result of `search()`, kept apart from the search itself so that the engine's hooks
//! (`extensions.rs`) can name it without importing the engine.

use serde::Serialize;

use crate::core::fusion::Method;
use crate::core::model::types::{AddWarning, MemoryItem};

/// The result of `search()`: best first, and the method that ranked them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse {
    pub results: Vec<MemoryItem>,
    pub method: Method,
    /// How many live memories of the scope pass the filters: the candidates the ranking chose from.
    pub total_count: usize,
    /// How many memories the ranking matched, whatever `limit`: those it scored (a shared term for keywords,
    /// a vector for cosines) that pass `threshold` and `radius`, among the `max(limit × 4, FUSION_POOL)`
    /// candidates each ranking draws (a vector or keyword search alone draws `limit × 4`, a search by a given
    /// vector `limit`, unless `Read::count_matches`). The conversation API's `total_count`; not serialised
    /// (`totalCount` is the pool).
    #[serde(skip)]
    pub matched: usize,
    /// Relations walked by a graph-enhanced search (absent when graph memory is off or not asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relations: Option<Vec<crate::core::model::graph::RelationTriple>>,
    /// `agentic`: the queries that ran, the caller's first (absent for the other methods).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queries: Option<Vec<String>>,
    /// Why the read was degraded: `agentic` fell back to `hybrid` (`AGENTIC_FAILED`), the query could not be
    /// embedded and keywords ranked (`EMBEDDING_UNAVAILABLE`), ranked memories lack a vector
    /// (`VECTORS_PENDING`); absent when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<AddWarning>,
}
