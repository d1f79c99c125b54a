//! How a feature attaches to the engine without the engine naming it: the feature's state, kept in a slot
//! found by its type, and the hooks the engine runs at fixed points of a commit (`EngineHooks`). `Engine` is
//! the engine's type (`MemoryEngine<L, E, S, V>`); this file does not name it.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use super::destination::{AddCall, Inferred};
use crate::core::add_pipeline::Pipeline;
use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model::types::AddResult;
use crate::core::storage::Changeset;

/// What a feature does at the engine's fixed points; every hook does nothing unless the feature says.
pub(crate) trait EngineHooks<Engine> {
    /// Before `changes` go to storage: the feature adds to them (cascades, follow-up records).
    fn before_commit(&self, _engine: &Engine, _changes: &mut Changeset) {}

    /// Storage took `changes`: the feature brings its own state in line.
    fn after_commit(&self, _changes: &Changeset) {}

    /// The index was emptied (a reset, or another tab's): the feature forgets what it derived from it.
    fn on_clear(&self) {}

    /// A storage that loads on demand put `scope` into the index: what loads the feature's own part of it
    /// (`None` when the feature keeps nothing of it).
    fn on_load_scope<'a>(&'a self, _engine: &'a Engine, _scope: &'a Scope) -> Option<LocalBoxFuture<'a, Result<()>>> {
        None
    }

    /// The `add()` pipeline `pipeline`, when this feature runs it (the engine's own is the exact one).
    fn add_pipeline(&self, _engine: &Engine, _pipeline: Pipeline) -> Option<&dyn AddPipeline<Engine>> {
        None
    }
}

/// An `add()` pipeline a feature runs (see `EngineHooks::add_pipeline`).
pub(crate) trait AddPipeline<Engine> {
    /// The vector path of an inferring `add()`: the events and the writes, not yet committed.
    fn infer<'a>(&'a self, engine: &'a Engine, call: AddCall<'a>, result: AddResult) -> LocalBoxFuture<'a, Inferred>;
}

/// The features' states, one per type.
#[derive(Default)]
struct States(RefCell<Vec<(TypeId, Rc<dyn Any>)>>);

impl States {
    fn find(&self, id: TypeId) -> Option<Rc<dyn Any>> {
        self.0.borrow().iter().find(|(held, _)| *held == id).map(|(_, state)| Rc::clone(state))
    }

    fn get<T: 'static>(&self) -> Option<Rc<T>> {
        self.find(TypeId::of::<T>())?.downcast().ok()
    }

    fn push(&self, id: TypeId, state: Rc<dyn Any>) {
        self.0.borrow_mut().push((id, state));
    }
}

/// A list of hooks, replaced (not changed) when a feature attaches, so a pass over it holds a snapshot.
type Hooks<Engine> = Rc<Vec<Rc<dyn EngineHooks<Engine>>>>;

/// The features' states (one per type) and their hooks, in the order the features attached.
pub(crate) struct Extensions<Engine> {
    states: States,
    hooks: RefCell<Hooks<Engine>>,
}

impl<Engine> Default for Extensions<Engine> {
    fn default() -> Self {
        Self { states: States::default(), hooks: RefCell::default() }
    }
}

impl<Engine> Extensions<Engine> {
    /// The state of type `T`, when a feature attached one.
    pub(crate) fn get<T: 'static>(&self) -> Option<Rc<T>> {
        self.states.get()
    }

    /// The state of type `T`, attached as `T::default()` on first use with its hooks, which the engine runs
    /// from then on.
    pub(crate) fn get_or_attach<T: EngineHooks<Engine> + Default + 'static>(&self) -> Rc<T> {
        if let Some(state) = self.get() {
            return state;
        }
        let state = Rc::new(T::default());
        self.states.push(TypeId::of::<T>(), state.clone());
        self.attach_hooks(state.clone());
        state
    }

    fn attach_hooks(&self, hooks: Rc<dyn EngineHooks<Engine>>) {
        let mut list = Vec::clone(&self.hooks.borrow());
        list.push(hooks);
        *self.hooks.borrow_mut() = Rc::new(list);
    }

    /// The hooks attached, for one pass (a feature attaching meanwhile changes the next pass).
    pub(crate) fn hooks(&self) -> Hooks<Engine> {
        self.hooks.borrow().clone()
    }
}
