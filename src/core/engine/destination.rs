//! Where an `add()` writes, and what it hands the pipeline that runs it (the engine's own or a feature's).

use crate::core::error::Result;
use crate::core::filter::Filter;
use crate::core::lifecycle::write::WriteLifecycle;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, MemoryItem, Message, Metadata};
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::Changeset;

/// Where new memories go and what they carry: the scope, the caller's metadata and lifecycle options, and
/// the scope's centroid for importance (taken once, before the add).
pub(crate) struct Destination {
    pub(crate) scope: Scope,
    pub(crate) metadata: Metadata,
    pub(crate) write: WriteLifecycle,
    pub(crate) centroid: Option<Vec<f64>>,
}

impl Destination {
    /// Whether `item` is a live memory of this scope that passes `filter` at `now`: one an inferring `add()`
    /// may show the model. (The additive pipeline's; unused in a build without the core features.)
    #[cfg_attr(not(feature = "core-features"), allow(dead_code))]
    pub(crate) fn holds(&self, item: &MemoryItem, filter: &Option<Filter>, now: &str) -> bool {
        self.scope.contains(&item.scope)
            && item.lifecycle.is_live(now)
            && filter.as_ref().is_none_or(|f| f.matches(item))
    }
}

/// What an inferring `add()` hands the pipeline that runs it (none does in a build without the core features).
#[cfg_attr(not(feature = "core-features"), allow(dead_code))]
#[derive(Clone, Copy)]
pub(crate) struct AddCall<'a> {
    pub(crate) messages: &'a [Message],
    pub(crate) to: &'a Destination,
    pub(crate) filter: &'a Option<Filter>,
    pub(crate) options: &'a AddOptions,
}

/// An `add()` as the features' `add_replay` and `before_add_commit` hooks see it, inferring or not.
#[cfg_attr(not(feature = "core-features"), allow(dead_code))]
#[derive(Clone, Copy)]
pub(crate) struct AddRequest<'a> {
    pub(crate) messages: &'a [Message],
    pub(crate) options: &'a AddOptions,
    pub(crate) scope: &'a Scope,
    /// False for `infer: false` (each non-system message stored as it is).
    pub(crate) infer: bool,
}

/// The events and the writes of an `add()`, not yet committed.
pub(crate) type Inferred = Result<(AddResult, Changeset)>;
