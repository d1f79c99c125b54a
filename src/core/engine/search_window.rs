//! A query that names a time draws the memories of that time into its candidates. The vector ranking
//! draws the [`FUSION_POOL`](super::search::FUSION_POOL) memories most similar to the query, and the time
//! raises only candidates (`query_time::raise_in`): in a larger scope, "What happened on 3 June, 2023?"
//! would otherwise never rank a memory of that day that is not among the most similar. Each memory's time
//! is read once and kept ([`EventTimes`]), so such a search costs a pass over the kept times.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use futures_util::future::LocalBoxFuture;

use super::extensions::EngineHooks;
use crate::core::error::Result;
use crate::core::fusion::Ranking;
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::query_time::{event_span, Span};
use crate::core::storage::Changeset;
use crate::core::vector_store::VectorStore;

/// The most memories of a query's time drawn beside the vector ranking's candidates. A window that holds
/// more (a year of a busy store) draws none: the candidates of that time are raised, as in a smaller scope.
pub const WINDOW_DRAW: usize = 1000;
/// The most memories of a query's time looked at, in every scope: past it, the window is too wide to draw.
const LOOKED_AT: usize = 20 * WINDOW_DRAW;

/// Each memory's time (`event_span`), by id: read from the index at the first search that draws by time,
/// then kept in step with this engine's commits, and read again after any other change of the index (a
/// reset, another tab's write, a scope loaded on demand).
#[derive(Default)]
pub(crate) struct EventTimes {
    spans: RefCell<Option<HashMap<String, Span>>>,
}

impl EventTimes {
    /// The memories of `index` whose time overlaps `window` and that `keep` passes, read in no set order;
    /// `None` when there are more than [`WINDOW_DRAW`] (or more than [`LOOKED_AT`] in every scope).
    pub fn within<'a, V: VectorStore + ?Sized>(
        &self,
        index: &'a V,
        window: Span,
        keep: impl Fn(&MemoryItem) -> bool,
    ) -> Option<Vec<&'a StoredMemory>> {
        let mut spans = self.spans.borrow_mut();
        let spans = spans.get_or_insert_with(|| {
            let all = index.list(usize::MAX, &|_| true);
            all.into_iter().map(|memory| (memory.item.id.clone(), event_span(&memory.item))).collect()
        });
        let mut found = Vec::new();
        let mut looked = 0;
        for (id, _) in spans.iter().filter(|(_, span)| span.overlaps(&window)) {
            looked += 1;
            if looked > LOOKED_AT {
                return None;
            }
            if let Some(memory) = index.get(id).filter(|memory| keep(&memory.item)) {
                if found.len() == WINDOW_DRAW {
                    return None;
                }
                found.push(memory);
            }
        }
        Some(found)
    }

    fn forget(&self) {
        self.spans.borrow_mut().take();
    }
}

impl<Engine> EngineHooks<Engine> for EventTimes {
    fn after_commit(&self, changes: &Changeset) {
        if let Some(spans) = self.spans.borrow_mut().as_mut() {
            for id in &changes.deletes {
                spans.remove(id);
            }
            for memory in &changes.upserts {
                spans.insert(memory.item.id.clone(), event_span(&memory.item));
            }
        }
    }

    fn on_clear(&self) {
        self.forget();
    }

    fn on_remote_change(&self) {
        self.forget();
    }

    fn on_load_scope<'a>(&'a self, _engine: &'a Engine, _scope: &'a Scope) -> Option<LocalBoxFuture<'a, Result<()>>> {
        self.forget();
        None
    }
}

/// `drawn`, the vector ranking's candidates best first (`wanted` asked for), followed by the memories
/// `members()` lists that it lacks (the memories of the query's time, `None`: too many), best first by
/// `similarity` (those it cannot score are left out). As they were not drawn, none is more similar than the
/// last drawn, so the list stays best first. `drawn` as it is when it holds fewer than `wanted` (every
/// memory was drawn).
pub fn with_window_members<'a>(
    mut drawn: Ranking<'a>,
    wanted: usize,
    members: impl FnOnce() -> Option<Vec<&'a StoredMemory>>,
    similarity: impl Fn(&StoredMemory) -> Option<f64>,
) -> Ranking<'a> {
    if drawn.len() < wanted {
        return drawn;
    }
    let Some(members) = members() else { return drawn };
    let have: HashSet<&str> = drawn.iter().map(|(_, id)| *id).collect();
    let mut scored: Ranking<'a> = members
        .into_iter()
        .filter(|memory| !have.contains(memory.item.id.as_str()))
        .filter_map(|memory| Some((similarity(memory)?, memory.item.id.as_str())))
        .collect();
    crate::core::sort::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    drawn.extend(scored);
    drawn
}
