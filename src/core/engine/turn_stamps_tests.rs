//! The turns of successive `add()`s keep the order they were said in: a call's turns are stamped a
//! millisecond apart, ahead of the clock, so the next call starts after the last of them, not among them;
//! any other write is stamped no earlier than them.

use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::json;

use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::{letter_engine, Doubles, KeepingStorage, Letters, NoLlm};
use crate::core::time::{millis_from_iso, Clock};

#[test]
fn the_next_add_is_stamped_after_every_turn_of_the_one_before() {
    let mut engine = letter_engine(InMemoryStorage::default());
    let now = Rc::new(Cell::new(1_700_000_000_000_i64));
    engine.set_clock(Clock::from_fn({
        let now = now.clone();
        move || now.get()
    }));
    let options = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    let turns = json!([
        {"role": "user", "content": "I adopted a zebra"},
        {"role": "assistant", "content": "Congratulations!"},
        {"role": "user", "content": "She is called Stripes"},
    ]);
    let first = block_on(engine.add(&turns, &options)).unwrap();
    now.set(now.get() + 1); // the next call, a millisecond later
    let second = block_on(engine.add(&json!([{"role": "user", "content": "We went hiking"}]), &options)).unwrap();

    let stamp = |id: &str| millis_from_iso(&block_on(engine.get(id)).unwrap().unwrap().created_at).unwrap();
    let stamps: Vec<i64> = first.results.iter().chain(&second.results).map(|event| stamp(&event.id)).collect();
    assert!(stamps.windows(2).all(|pair| pair[0] < pair[1]), "in the order said: {stamps:?}");
}

/// An engine over `storage` whose clock reads `now`.
fn engine_at(
    storage: &KeepingStorage,
    now: &Rc<Cell<i64>>,
) -> crate::core::engine::memory::MemoryEngine<NoLlm, Letters, KeepingStorage> {
    let doubles = Doubles { llm: NoLlm, embedder: Letters::new(26), storage: storage.clone() };
    let mut engine = block_on(doubles.open()).unwrap();
    let clock = now.clone();
    engine.set_clock(Clock::from_fn(move || clock.get()));
    engine
}

/// `infer: false` adds of user "u"'s turns.
fn turns_of_u() -> AddOptions {
    AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() }
}

/// An engine over `storage` at `now` that has just added 50 turns in one call (stamped 50 ms ahead).
fn fifty_turns(
    storage: &KeepingStorage,
    now: &Rc<Cell<i64>>,
) -> (crate::core::engine::memory::MemoryEngine<NoLlm, Letters, KeepingStorage>, crate::core::model::types::AddResult) {
    let turns: Vec<_> = (0..50).map(|n| json!({"role": "user", "content": format!("turn {n}")})).collect();
    let engine = engine_at(storage, now);
    let said = block_on(engine.add(&json!(turns), &turns_of_u())).unwrap();
    (engine, said)
}

#[test]
fn turns_added_after_a_restart_come_after_the_turns_stamped_ahead_before_it() {
    let storage = KeepingStorage::default();
    let now = Rc::new(Cell::new(1_700_000_000_000_i64));
    let (before, first) = fifty_turns(&storage, &now);
    drop(before);
    now.set(now.get() + 1); // restarted within the 50 ms the turns were stamped ahead
    let after = engine_at(&storage, &now);
    let next = block_on(after.add(&json!([{"role": "user", "content": "after the restart"}]), &turns_of_u())).unwrap();

    let stamp = |id: &str| millis_from_iso(&block_on(after.get(id)).unwrap().unwrap().created_at).unwrap();
    let last_before = first.results.iter().map(|event| stamp(&event.id)).max().unwrap();
    let restarted = stamp(&next.results[0].id);
    assert!(restarted > last_before, "stamped {restarted}, the last turn before the restart {last_before}");
}

#[test]
fn a_memory_dated_in_the_future_does_not_move_the_next_turns() {
    let storage = KeepingStorage::default();
    let now = Rc::new(Cell::new(1_700_000_000_000_i64));
    let options = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    now.set(now.get() + 86_400_000);
    let future = block_on(engine_at(&storage, &now).add(&json!([{"role": "user", "content": "tomorrow"}]), &options));
    future.unwrap();
    now.set(now.get() - 86_400_000);
    let today = engine_at(&storage, &now);
    let next = block_on(today.add(&json!([{"role": "user", "content": "today"}]), &options)).unwrap();
    let created = block_on(today.get(&next.results[0].id)).unwrap().unwrap().created_at;
    assert_eq!(millis_from_iso(&created), Some(now.get()));
}

#[test]
#[cfg(feature = "core-features")] // keys are a feature's
fn a_write_after_turns_stamped_ahead_is_stamped_no_earlier_than_them() {
    let storage = KeepingStorage::default();
    let now = Rc::new(Cell::new(1_700_000_000_000_i64));
    let (engine, said) = fifty_turns(&storage, &now);
    // In the same millisecond: a key's value, which no turn stamp orders.
    let write = crate::core::lifecycle::write::WriteLifecycle::default();
    let scope = crate::core::model::scope::Scope { user_id: Some("u".into()), ..Default::default() };
    let stored = block_on(engine.lifecycle().store("city", "Paris", &scope, None, Default::default(), &write)).unwrap();

    let stamp = |id: &str| millis_from_iso(&block_on(engine.get(id)).unwrap().unwrap().created_at).unwrap();
    let last_turn = said.results.iter().map(|event| stamp(&event.id)).max().unwrap();
    let key = stamp(&stored.id);
    assert!(key >= last_turn, "the key stamped {key}, the last turn {last_turn}: storage would list it among them");
    let history = block_on(engine.history(&stored.id)).unwrap();
    assert!(history.iter().all(|record| millis_from_iso(&record.timestamp).unwrap() >= last_turn), "{history:?}");

    // And after a restart in that millisecond, from the memories loaded.
    drop(engine);
    let restarted = engine_at(&storage, &now);
    let again =
        block_on(restarted.lifecycle().store("pet", "a zebra", &scope, None, Default::default(), &write)).unwrap();
    let created = block_on(restarted.get(&again.id)).unwrap().unwrap().created_at;
    assert!(millis_from_iso(&created).unwrap() >= last_turn, "after the restart: {created}");
}
