//! How a feature attaches to the engine without the engine naming it: the feature's state, found by its
//! type, which is also the hooks the engine runs at fixed points of a commit (`EngineHooks`). `Engine` is
//! the engine's type (`MemoryEngine<L, E, S, V>`); this file does not name it.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use super::destination::{AddCall, AddRequest, Inferred};
use super::search_response::SearchResponse;
use crate::core::add_pipeline::Pipeline;
use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model::types::{AddResult, Message};
use crate::core::read::Read;
use crate::core::storage::Changeset;

/// What a feature's own step of `add()` stages once the add's events are known (see `EngineHooks::add_step`).
pub(crate) type Staging<'a> = Box<dyn FnOnce(&Scope, &mut AddResult, &mut Changeset) + 'a>;

/// A feature's state and what it does at the engine's fixed points; every hook does nothing unless the
/// feature says.
pub(crate) trait EngineHooks<Engine> {
    /// Before a commit is staged: what the feature must read from storage first (its own state, once), so
    /// that opening reads nothing for it. `None` when there is nothing to read.
    fn prepare_commit<'a>(&'a self, _engine: &'a Engine) -> Option<LocalBoxFuture<'a, Result<()>>> {
        None
    }

    /// Before `changes` go to storage: the feature adds to them (cascades, follow-up records).
    fn before_commit(&self, _engine: &Engine, _changes: &mut Changeset) {}

    /// Storage took `changes`: the feature brings its own state in line.
    fn after_commit(&self, _changes: &Changeset) {}

    /// The index was emptied (a reset, or another tab's): the feature forgets what it derived from it.
    fn on_clear(&self) {}

    /// Another instance (a tab, a `Memory` on the same storage) committed: what the feature read of its own
    /// state in storage may be stale.
    fn on_remote_change(&self) {}

    /// A storage that loads on demand put `scope` into the index: what loads the feature's own part of it
    /// (`None` when the feature keeps nothing of it).
    fn on_load_scope<'a>(&'a self, _engine: &'a Engine, _scope: &'a Scope) -> Option<LocalBoxFuture<'a, Result<()>>> {
        None
    }

    /// A memory read from storage alone (not with its scope) joins the index: true when the feature's state
    /// needs the memory's whole scope loaded then.
    fn needs_whole_scope(&self) -> bool {
        false
    }

    /// The vector path of an inferring `add()` by the pipeline `pipeline` (its events and writes, not yet
    /// committed), when this feature runs that pipeline (the engine's own is the exact one). Takes the
    /// feature by `Rc`, so the path may outlive the pass over the hooks that found it.
    fn add_pipeline<'a>(
        self: Rc<Self>,
        _engine: &'a Engine,
        _pipeline: Pipeline,
        _call: AddCall<'a>,
    ) -> Option<LocalBoxFuture<'a, Inferred>> {
        None
    }

    /// The feature's own step of an inferring `add()` of `messages` (its own model call), run alongside the
    /// vector path; what it stages runs once the add's events are known, under the add's commit lock.
    fn add_step<'a>(&self, _engine: &'a Engine, _messages: &'a [Message]) -> Option<LocalBoxFuture<'a, Staging<'a>>> {
        None
    }

    /// Before an `add()` does anything (its arguments checked): the result of an earlier add that this one
    /// repeats, when the feature kept one (an `idempotencyKey` committed before). The add then returns it and
    /// makes no model call and no write. `None` when the feature has nothing to say.
    fn add_replay<'a>(
        &'a self,
        _engine: &'a Engine,
        _request: AddRequest<'a>,
    ) -> Option<LocalBoxFuture<'a, Result<Option<AddResult>>>> {
        None
    }

    /// An `add()` (inferring, by any pipeline, or `infer: false`) is about to commit `changes` and return
    /// `result` (its final events): the feature adds its own writes to the same commit. Runs also when the
    /// add stores nothing.
    fn before_add_commit(
        &self,
        _engine: &Engine,
        _request: AddRequest<'_>,
        _result: &AddResult,
        _changes: &mut Changeset,
    ) {
    }

    /// The kind of side records this feature keeps per memory, keyed `<memoryId>/…`, that travel with
    /// the memory in exports and come back with imports.
    fn exported_side_kind(&self) -> Option<&'static str> {
        None
    }

    /// A search for `text` (`None` for a search by vector) ranked `response`'s results (at most `read.limit`):
    /// the feature adds what it found, or notes what was returned. Runs in the order the features attached.
    fn after_search(&self, _engine: &Engine, _text: Option<&str>, _read: &Read, _response: &mut SearchResponse) {}
}

/// An attached feature: its state (found by its type) and the same state as its hooks.
type Attached<Engine> = (Rc<dyn Any>, Rc<dyn EngineHooks<Engine>>);

/// The features' states (one per type), which are also their hooks, in the order the features attached.
pub(crate) struct Extensions<Engine> {
    attached: RefCell<Vec<Attached<Engine>>>,
}

impl<Engine> Default for Extensions<Engine> {
    fn default() -> Self {
        Self { attached: RefCell::default() }
    }
}

// A build without the features attaches none; the engine's own tests still attach test features.
#[cfg_attr(not(feature = "core-features"), allow(dead_code))]
impl<Engine> Extensions<Engine> {
    /// The state of type `T`, when a feature attached one.
    pub(crate) fn get<T: 'static>(&self) -> Option<Rc<T>> {
        self.find(TypeId::of::<T>())?.downcast().ok()
    }

    /// The attached state whose type is `id` (not generic over the state, so compiled once per engine type).
    fn find(&self, id: TypeId) -> Option<Rc<dyn Any>> {
        let attached = self.attached.borrow();
        let (state, _) = attached.iter().find(|(state, _)| (**state).type_id() == id)?;
        Some(state.clone())
    }

    /// The state of type `T`, attached as `T::default()` on first use with its hooks, which the engine runs
    /// from then on.
    pub(crate) fn get_or_attach<T: EngineHooks<Engine> + Default + 'static>(&self) -> Rc<T> {
        if let Some(state) = self.get() {
            return state;
        }
        let state = Rc::new(T::default());
        self.attached.borrow_mut().push((state.clone(), state.clone()));
        state
    }

    /// The hooks attached, for one pass: those attached when it starts (a feature attaching meanwhile joins
    /// the next pass). The list is not borrowed between steps, so a hook may attach a feature.
    pub(crate) fn hooks(&self) -> Pass<'_, Engine> {
        Pass { extensions: self, next: 0, end: self.attached.borrow().len() }
    }
}

/// One pass over the hooks (see `Extensions::hooks`).
pub(crate) struct Pass<'a, Engine> {
    extensions: &'a Extensions<Engine>,
    next: usize,
    end: usize,
}

impl<Engine> Iterator for Pass<'_, Engine> {
    type Item = Rc<dyn EngineHooks<Engine>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next == self.end {
            return None;
        }
        let hooks = self.extensions.attached.borrow().get(self.next)?.1.clone();
        self.next += 1;
        Some(hooks)
    }
}
