//! How a feature attaches to the engine without the engine naming it: the feature's state, kept in a slot
//! found by its type, and the hooks the engine runs at fixed points of a commit (`EngineHooks`).

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use super::memory::MemoryEngine;
use super::pipeline::Destination;
use crate::core::add_pipeline::Pipeline;
use crate::core::error::Result;
use crate::core::filter::Filter;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, Message};
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::Changeset;

/// What a feature does at the engine's fixed points; every hook does nothing unless the feature says.
pub(crate) trait EngineHooks<L, E, S, V> {
    /// Before `changes` go to storage: the feature adds to them (cascades, follow-up records).
    fn before_commit(&self, _engine: &MemoryEngine<L, E, S, V>, _changes: &mut Changeset) {}

    /// Storage took `changes`: the feature brings its own state in line.
    fn after_commit(&self, _changes: &Changeset) {}

    /// The index was emptied (a reset, or another tab's): the feature forgets what it derived from it.
    fn on_clear(&self) {}

    /// A storage that loads on demand put `scope` into the index: the feature loads what it keeps of it.
    fn on_load_scope<'a>(
        &'a self,
        _engine: &'a MemoryEngine<L, E, S, V>,
        _scope: &'a Scope,
    ) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(std::future::ready(Ok(())))
    }

    /// True when this feature runs `add()`'s `pipeline` (then `infer` does); the engine's own is the exact one.
    fn runs_pipeline(&self, _engine: &MemoryEngine<L, E, S, V>, _pipeline: Pipeline) -> bool {
        false
    }

    /// The vector path of an inferring `add()` by this feature's pipeline (see `runs_pipeline`).
    fn infer<'a>(
        &'a self,
        _engine: &'a MemoryEngine<L, E, S, V>,
        _call: AddCall<'a>,
        result: AddResult,
    ) -> LocalBoxFuture<'a, Inferred> {
        Box::pin(std::future::ready(Ok((result, Changeset::default()))))
    }
}

/// What an inferring `add()` hands the pipeline that runs it (none does in a build without the core features).
#[cfg_attr(not(feature = "core-features"), allow(dead_code))]
pub(crate) struct AddCall<'a> {
    pub(crate) messages: &'a [Message],
    pub(crate) to: &'a Destination,
    pub(crate) filter: &'a Option<Filter>,
    pub(crate) options: &'a AddOptions,
}

/// The events and the writes of an `add()`, not yet committed.
pub(crate) type Inferred = Result<(AddResult, Changeset)>;

/// The features' states (one per type) and their hooks, in the order the features attached.
pub(crate) struct Extensions<L, E, S, V> {
    states: RefCell<Vec<(TypeId, Rc<dyn Any>)>>,
    hooks: RefCell<Vec<Rc<dyn EngineHooks<L, E, S, V>>>>,
}

impl<L, E, S, V> Default for Extensions<L, E, S, V> {
    fn default() -> Self {
        Self { states: RefCell::default(), hooks: RefCell::default() }
    }
}

impl<L, E, S, V> Extensions<L, E, S, V> {
    /// The state of type `T`, when a feature attached one.
    pub(crate) fn get<T: 'static>(&self) -> Option<Rc<T>> {
        let states = self.states.borrow();
        let (_, state) = states.iter().find(|(id, _)| *id == TypeId::of::<T>())?;
        Rc::clone(state).downcast().ok()
    }

    /// The state of type `T`, attached as `T::default()` on first use with its hooks, which the engine runs
    /// from then on.
    pub(crate) fn get_or_attach<T: EngineHooks<L, E, S, V> + Default + 'static>(&self) -> Rc<T> {
        self.get().unwrap_or_else(|| {
            let state = Rc::new(T::default());
            self.states.borrow_mut().push((TypeId::of::<T>(), state.clone()));
            self.hooks.borrow_mut().push(state.clone());
            state
        })
    }

    /// The hooks attached, for one pass (a hook may attach more state meanwhile).
    pub(crate) fn hooks(&self) -> Vec<Rc<dyn EngineHooks<L, E, S, V>>> {
        self.hooks.borrow().clone()
    }
}
