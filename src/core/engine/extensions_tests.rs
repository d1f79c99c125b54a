//! The engine's extensions: one state per type, attached once with its hooks, and a pass over the hooks that
//! a feature attaching meanwhile leaves as it was.

use std::cell::Cell;

use super::extensions::{EngineHooks, Extensions};

/// A feature's state whose hook counts the clears it saw.
#[derive(Default)]
struct Clears(Cell<usize>);

impl EngineHooks<()> for Clears {
    fn on_clear(&self) {
        self.0.set(self.0.get() + 1);
    }
}

/// A second feature, attached in the middle of a pass.
#[derive(Default)]
struct Late(Cell<usize>);

impl EngineHooks<()> for Late {
    fn on_clear(&self) {
        self.0.set(self.0.get() + 1);
    }
}

#[test]
fn a_state_is_attached_once_and_found_by_its_type() {
    let extensions = Extensions::<()>::default();
    assert!(extensions.get::<Clears>().is_none());
    let first = extensions.get_or_attach::<Clears>();
    let again = extensions.get_or_attach::<Clears>();
    assert!(std::rc::Rc::ptr_eq(&first, &again));
    assert!(std::rc::Rc::ptr_eq(&first, &extensions.get::<Clears>().unwrap()));
    assert_eq!(extensions.hooks().count(), 1, "attached twice, its hooks run once");
    assert!(extensions.get::<Late>().is_none(), "another type is another state");
}

#[test]
fn a_feature_attaching_during_a_pass_joins_the_next_one() {
    let extensions = Extensions::<()>::default();
    let clears = extensions.get_or_attach::<Clears>();
    for hooks in extensions.hooks() {
        hooks.on_clear();
        extensions.get_or_attach::<Late>();
    }
    let late = extensions.get::<Late>().unwrap();
    assert_eq!((clears.0.get(), late.0.get()), (1, 0));
    extensions.hooks().for_each(|hooks| hooks.on_clear());
    assert_eq!((clears.0.get(), late.0.get()), (2, 1));
}
