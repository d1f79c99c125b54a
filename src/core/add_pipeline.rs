//! The `pipeline` setting.

use serde::Deserialize;

/// How an inferring `add()` turns a conversation into memories.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pipeline {
    /// Extract, then embed the facts, then show each fact's nearest memories to the decision:
    /// three round trips, four when the decision rewrites texts.
    Exact,
    /// Embed the conversation while extracting; decide while embedding the facts: two round trips.
    #[default]
    Fast,
    /// mem0 v3's additive add: one extraction call that sees the related memories, every new fact added,
    /// duplicates dropped by hash and by vector, no update decision (see `core::additive`).
    Additive,
}
