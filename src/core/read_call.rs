//! Which options each read call takes, and its default count. A key a call does not use is refused by
//! name (`threshold: not an option of getAll`), so nothing is silently ignored.

use super::error::{MemoryError, Result};

/// Default count of `search` and `getAll` (mem0's).
pub const DEFAULT_LIMIT: usize = 100;
/// Default count of `recall`.
pub const DEFAULT_RECALL_LIMIT: usize = 5;
/// Default token budget of `recall`'s text.
pub const DEFAULT_TOKEN_BUDGET: usize = 2000;

/// A positive whole number named `name`, else `default`.
pub fn positive_whole(name: &str, value: Option<f64>, default: usize) -> Result<usize> {
    match value {
        None => Ok(default),
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n.is_finite() => Ok(n.min(u32::MAX as f64) as usize),
        Some(n) => Err(MemoryError::InvalidInput(format!("{name} must be a positive whole number, got {n}"))),
    }
}

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
                "showExpired",
                "asOf",
                "referenceDate",
                "rerank",
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
                "currentTime",
                "includeCompressed",
                "showExpired",
                "asOf",
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
                "referenceDate",
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
