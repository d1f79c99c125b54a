//! The turns of successive `add()`s keep the order they were said in: a call's turns are stamped a
//! millisecond apart, ahead of the clock, so the next call starts after the last of them, not among them.

use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::json;

use crate::core::model::scope_fields::ScopeFields;
use crate::core::pipeline_options::AddOptions;
use crate::core::storage::InMemoryStorage;
use crate::core::testing::letter_engine;
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
