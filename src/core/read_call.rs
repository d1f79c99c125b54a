//! Which options each read call takes, and its default count. A key a call does not use is refused by
//! name (`threshold: not an option of getAll`), so nothing is silently ignored.

use super::read::{DEFAULT_LIMIT, DEFAULT_RECALL_LIMIT};

/// The call a read is for: it decides which keys are taken and the default count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadCall {
    Search,
    GetAll,
    Recall,
    DeleteAll,
    /// Calls that take a scope and nothing else (`getEntities`, `getRelations`, `tools`).
    ScopeOnly,
}

impl ReadCall {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Search => "search",
            Self::GetAll => "getAll",
            Self::Recall => "recall",
            Self::DeleteAll => "deleteAll",
            Self::ScopeOnly => "this call",
        }
    }

    /// The non-scope keys this call takes.
    pub(crate) fn keys(self) -> &'static [&'static str] {
        match self {
            Self::Search => &[
                "limit",
                "topK",
                "filters",
                "threshold",
                "method",
                "weights",
                "graph",
                "memoryTypes",
                "startTime",
                "endTime",
                "radius",
                "currentTime",
                "includeCompressed",
            ],
            Self::GetAll => &[
                "limit",
                "topK",
                "filters",
                "offset",
                "includeDeleted",
                "memoryTypes",
                "memoryType",
                "startTime",
                "endTime",
                "includeCompressed",
            ],
            Self::Recall => &[
                "limit",
                "topK",
                "filters",
                "method",
                "tokenBudget",
                "memoryTypes",
                "startTime",
                "endTime",
                "currentTime",
                "includeCompressed",
            ],
            Self::DeleteAll => &["filters", "soft"],
            Self::ScopeOnly => &[],
        }
    }

    pub(crate) fn default_limit(self) -> usize {
        match self {
            Self::Recall => DEFAULT_RECALL_LIMIT,
            _ => DEFAULT_LIMIT,
        }
    }
}
