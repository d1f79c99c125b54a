//! The one options type of every read (`search`, `getAll`, `recall`, `deleteAll`, `getEntities`, `export`),
//! parsed once at the boundary. Unknown keys are refused with `INVALID_INPUT` naming the key, and so are
//! keys the call does not use (a `threshold` given to `getAll`), so nothing is silently ignored.
//!
//! `limit` and `topK` name the same option (mem0 uses both): either is accepted wherever a count is;
//! giving both with different values is an error. Scope keys may be camelCase or snake_case (`userId`,
//! `user_id`). The conversation API's names and rules (`groupId`, `memoryType`, time ranges, `radius`, the limits of
//! its fetch and search) are checked in `retrieval::form` and `retrieval::window`.

use serde::Deserialize;
use serde_json::Value;

use super::error::{MemoryError, Result};
use super::filter::Filter;
use super::fusion::{Method, Weights};
use super::model::scope::Scope;
use super::model::types::MemoryItem;
use super::model::{expiration_date, MemoryType};
use super::retrieval::{form, window, Window};
use crate::core::model::scope_fields::{ScopeFields, ScopeForm};
use crate::core::model::scope_fields_de::scoped_options;

pub use super::read_call::{positive_whole, ReadCall, DEFAULT_LIMIT, DEFAULT_RECALL_LIMIT, DEFAULT_TOKEN_BUDGET};

/// A read's options as the caller gave them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadOptions {
    /// `userId`, `agentId`, `runId`, `groupId` (snake_case too).
    #[serde(skip)]
    pub scope: ScopeFields,
    pub limit: Option<f64>,
    #[serde(alias = "top_k")]
    pub top_k: Option<f64>,
    pub filters: Option<Value>,
    /// `search`: drop results whose final score is below this.
    pub threshold: Option<f64>,
    /// `search`, `recall`: how to rank.
    pub method: Option<Method>,
    /// `search`: relative weights of a `hybrid` search.
    pub weights: Option<WeightOptions>,
    /// `search`: graph-enhanced search (default on when graph memory is enabled).
    pub graph: Option<bool>,
    /// `recall`: most tokens its text may take.
    #[serde(alias = "token_budget")]
    pub token_budget: Option<f64>,
    /// `getAll`: how many matching memories to skip (pagination).
    pub offset: Option<f64>,
    /// `getAll`: soft-deleted memories too.
    #[serde(alias = "include_deleted")]
    pub include_deleted: Option<bool>,
    /// `search`, `recall`, `getAll`: only memories of these types.
    #[serde(alias = "memory_types")]
    pub memory_types: Option<Vec<MemoryType>>,
    /// `getAll`: the conversation API's fetch by type (one type; default `episodic` once `groupId` is given).
    #[serde(alias = "memory_type")]
    pub memory_type: Option<MemoryType>,
    /// `search`, `getAll`, `recall`: only memories whose time span overlaps `startTime`–`endTime` (ISO 8601
    /// with a zone).
    #[serde(alias = "start_time")]
    pub start_time: Option<String>,
    #[serde(alias = "end_time")]
    pub end_time: Option<String>,
    /// `search`: the lowest cosine similarity the vector ranking keeps, in [0, 1].
    pub radius: Option<f64>,
    /// `search`, `recall`: foresight whose `validUntil` is before this is left out.
    #[serde(alias = "current_time")]
    pub current_time: Option<String>,
    /// `search`, `getAll`, `recall`: the originals a `compress()` summarised too.
    #[serde(alias = "include_compressed")]
    pub include_compressed: Option<bool>,
    /// `deleteAll`: mark the memories deleted (restorable) instead of removing them.
    pub soft: Option<bool>,
    /// `search`, `getAll`: memories past their mem0 `expirationDate` too.
    #[serde(alias = "show_expired")]
    pub show_expired: Option<bool>,
    /// `search`, `getAll`: the memories as they were at this time (ISO 8601 with a zone), read from history.
    #[serde(alias = "as_of")]
    pub as_of: Option<String>,
    /// `search`, `recall`: the "now" that relative times in the query ("last May", "recently") count from
    /// (ISO 8601, or a date `YYYY-MM-DD`); default the clock's now.
    #[serde(alias = "reference_date")]
    pub reference_date: Option<String>,
    /// `search`: the first results go through the configured reranker (`reranker` in the config).
    pub rerank: Option<bool>,
}
scoped_options!(ReadOptions, ScopeForm::WithGroup);

/// `weights: {vector, keyword}`; a weight left out keeps its default (0.7 / 0.3). Scaled to sum to 1.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightOptions {
    pub vector: Option<f64>,
    pub keyword: Option<f64>,
}

/// A read's options, checked: a valid scope, a count, a parsed filter, and how to rank.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub scope: Scope,
    pub limit: usize,
    pub filter: Option<Filter>,
    pub threshold: Option<f64>,
    /// `None`: the call's default method.
    pub method: Option<Method>,
    pub weights: Weights,
    pub graph: Option<bool>,
    pub token_budget: usize,
    pub offset: usize,
    pub include_deleted: bool,
    /// `None`: every type.
    pub memory_types: Option<Vec<MemoryType>>,
    pub soft: bool,
    /// The time range, the current time for foresight, and whether compressed originals are shown.
    pub window: Window,
    /// `search`: the vector ranking keeps cosines ≥ this.
    pub radius: Option<f64>,
    /// Set by `recall`: memories less important than this are left out, unless pinned or procedural.
    pub importance_floor: Option<f64>,
    /// Memories past their mem0 `expirationDate` are kept too.
    pub show_expired: bool,
    /// A conversation read by a user (`userId` with `groupId` or `memoryType`): `scope` then leaves the user
    /// out, and a memory is kept when it is the user's own or a group memory that involves them.
    pub participant: Option<String>,
    /// `search`: rerank the first results with the configured reranker.
    pub rerank: bool,
    /// `search`: count the matches among the fusion pool (`SearchResponse::matched`) even where the page
    /// needs fewer (a vector or keyword search alone ranks only about `limit × 4` otherwise).
    pub count_matches: bool,
}

impl Read {
    /// A read of `scope` with every other option at its default (for calls the engine makes itself).
    pub fn of(scope: Scope, limit: usize) -> Self {
        Self {
            scope,
            limit,
            filter: None,
            threshold: None,
            method: None,
            weights: Weights::default(),
            graph: None,
            token_budget: DEFAULT_TOKEN_BUDGET,
            offset: 0,
            include_deleted: false,
            memory_types: None,
            soft: false,
            window: Window::default(),
            radius: None,
            importance_floor: None,
            show_expired: false,
            participant: None,
            rerank: false,
            count_matches: false,
        }
    }

    /// True when `item` is in the scope, passes the filter, the type list and the window, and is live at
    /// `now` (not expired, and not soft-deleted unless `include_deleted`).
    pub fn keeps(&self, item: &MemoryItem, now: &str) -> bool {
        let life = &item.lifecycle;
        self.scope.contains(&item.scope)
            && self.participant.as_deref().is_none_or(|who| involves(item, who))
            && !life.is_expired(now)
            && (self.show_expired || !expiration_date::is_past(item, now))
            && (self.include_deleted || !life.is_deleted())
            && self.memory_types.as_ref().is_none_or(|types| types.contains(&life.memory_type))
            && self.importance_floor.is_none_or(|floor| life.importance >= floor || life.pinned || is_procedural(item))
            && self.window.keeps(item)
            && self.filter.as_ref().is_none_or(|filter| filter.matches(item))
    }
}

impl Read {
    /// A checked search across a whole tenant whose filter picks the memories (the mem0 platform's reads):
    /// `scope` may be empty and every memory type is read, profiles too. `topK` and `threshold` are checked as
    /// `ReadOptions::check` checks them; a threshold of 0 is none, as on that platform.
    pub fn tenant_wide(scope: Scope, top_k: f64, threshold: Option<f64>) -> Result<Self> {
        let limit = form::limit(ReadCall::Search, false, "topK", Some(top_k))?;
        let threshold = checked_threshold(threshold)?.filter(|threshold| *threshold > 0.0);
        Ok(Self { threshold, ..Self::of(scope, limit) })
    }
}

/// `threshold`, a score in [0, 1], or `INVALID_INPUT` with mem0's message.
pub fn checked_threshold(threshold: Option<f64>) -> Result<Option<f64>> {
    match threshold {
        Some(threshold) if !(0.0..=1.0).contains(&threshold) => {
            let why = format!("Invalid threshold: {threshold}. Must be between 0 and 1 (inclusive).");
            Err(MemoryError::InvalidInput(why))
        }
        threshold => Ok(threshold),
    }
}

/// True when `item` is `who`'s own, or a group memory (filed under no user) whose `metadata.participants`
/// names `who`: what a participant of a group chat may read of it.
pub fn involves(item: &MemoryItem, who: &str) -> bool {
    match item.scope.user_id.as_deref() {
        Some(owner) => owner == who,
        None => item
            .metadata
            .get("participants")
            .and_then(Value::as_array)
            .is_some_and(|names| names.iter().any(|name| name.as_str() == Some(who))),
    }
}

/// True for a preference: `memoryType: procedural`, or (as before memory types) `metadata.type: "procedural"`.
pub fn is_procedural(item: &MemoryItem) -> bool {
    item.lifecycle.memory_type == MemoryType::Procedural
        || item
            .metadata
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("procedural"))
}

/// Parses an optional filter expression.
pub fn parse_filter(filters: &Option<Value>) -> Result<Option<Filter>> {
    filters.as_ref().filter(|value| !value.is_null()).map(Filter::parse).transpose()
}

impl ReadOptions {
    /// The scope these options name (`groupId` is the run; `"__all__"` is no id), not yet checked for
    /// emptiness (`export` takes an empty one to mean everything).
    pub fn scope(&self) -> Result<Scope> {
        self.scope.scope()
    }

    /// The non-scope keys that were given.
    fn given(&self) -> impl Iterator<Item = &'static str> + '_ {
        [
            ("limit", self.limit.is_some()),
            ("topK", self.top_k.is_some()),
            ("filters", self.filters.is_some()),
            ("threshold", self.threshold.is_some()),
            ("method", self.method.is_some()),
            ("weights", self.weights.is_some()),
            ("graph", self.graph.is_some()),
            ("tokenBudget", self.token_budget.is_some()),
            ("offset", self.offset.is_some()),
            ("includeDeleted", self.include_deleted.is_some()),
            ("memoryTypes", self.memory_types.is_some()),
            ("memoryType", self.memory_type.is_some()),
            ("startTime", self.start_time.is_some()),
            ("endTime", self.end_time.is_some()),
            ("radius", self.radius.is_some()),
            ("currentTime", self.current_time.is_some()),
            ("includeCompressed", self.include_compressed.is_some()),
            ("soft", self.soft.is_some()),
            ("showExpired", self.show_expired.is_some()),
            ("asOf", self.as_of.is_some()),
            ("referenceDate", self.reference_date.is_some()),
            ("rerank", self.rerank.is_some()),
        ]
        .into_iter()
        .filter_map(|(key, given)| given.then_some(key))
    }

    fn only_keys_of(&self, call: ReadCall) -> Result<()> {
        match self.given().find(|key| !call.keys().contains(key)) {
            Some(key) => Err(MemoryError::InvalidInput(format!("{key}: not an option of {}", call.name()))),
            None => Ok(()),
        }
    }

    /// A scope and nothing else, which may be empty (`exportMemories({})` exports everything).
    pub fn any_scope(&self) -> Result<Scope> {
        self.only_keys_of(ReadCall::ScopeOnly)?;
        self.scope()
    }

    /// Checks the options for `call`: every key one it takes, a scope, a positive whole count (within the
    /// conversation API's maximum in its form), a valid filter, threshold, weights, types, radius and time window.
    pub fn check(&self, call: ReadCall) -> Result<Read> {
        self.only_keys_of(call)?;
        let mut scope = self.scope()?;
        let filters = super::filter_scope::split(&mut scope, &self.filters)?;
        let mut scope = scope.validated()?;
        let seed_form = form::conversational(call, self.scope.group_id.is_some(), self.memory_type.is_some());
        // A user's conversation read sees the group memories that involve them: the index is asked for the
        // group's (or every) memory, and `keeps` picks the user's.
        let participant = match seed_form && scope.agent_id.is_none() {
            true => scope.user_id.take(),
            false => None,
        };
        let count = match (self.limit, self.top_k) {
            (Some(limit), Some(top_k)) if limit != top_k => {
                let why = format!("limit ({limit}) and topK ({top_k}) are the same option; give one");
                return Err(MemoryError::InvalidInput(why));
            }
            (limit, top_k) => limit.or(top_k),
        };
        let limit = form::limit(call, seed_form, if self.limit.is_some() { "limit" } else { "topK" }, count)?;
        let threshold = checked_threshold(self.threshold)?;
        let given = self.weights.unwrap_or_default();
        let default = Weights::default();
        let weights =
            Weights::normalised(given.vector.unwrap_or(default.vector), given.keyword.unwrap_or(default.keyword))?;
        Ok(Read {
            scope,
            limit,
            filter: parse_filter(&filters)?,
            threshold,
            method: form::method(call, self.method)?,
            weights,
            graph: self.graph,
            token_budget: positive_whole("tokenBudget", self.token_budget, DEFAULT_TOKEN_BUDGET)?,
            offset: match self.offset {
                None => 0,
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n.is_finite() => n.min(u32::MAX as f64) as usize,
                Some(n) => {
                    return Err(MemoryError::InvalidInput(format!("offset must be a whole number ≥ 0, got {n}")))
                }
            },
            include_deleted: self.include_deleted.unwrap_or(false),
            memory_types: form::memory_types(call, seed_form, self.memory_type, &self.memory_types)?,
            soft: self.soft.unwrap_or(false),
            window: Window {
                as_of: window::instant("asOf", self.as_of.as_deref())?,
                reference: window::reference_date(self.reference_date.as_deref())?,
                ..Window::parse(
                    self.start_time.as_deref(),
                    self.end_time.as_deref(),
                    self.current_time.as_deref(),
                    call == ReadCall::DeleteAll || self.include_compressed.unwrap_or(false),
                )?
            },
            radius: form::radius(self.radius)?,
            importance_floor: None,
            show_expired: self.show_expired.unwrap_or(false),
            participant,
            rerank: self.rerank.unwrap_or(false),
            count_matches: false,
        })
    }
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
