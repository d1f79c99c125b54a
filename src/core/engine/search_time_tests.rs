//! A query that names a time raises the memories of that time: by their date (`metadata.date`), or by when
//! they were stored; relative times count from `referenceDate`, else the engine's clock.

use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::{json, Value};

use crate::core::engine::memory::MemoryEngine;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::model::types::StoredMemory;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::{ReadCall, ReadOptions};
use crate::core::storage::InMemoryStorage;
use crate::core::storage::RemoteChange;
use crate::core::testing::{letter_engine, KeepingStorage, Letters, NoLlm};
use crate::core::time::{millis_from_iso, Clock};
use crate::core::vector_store::VectorStore;

fn dated(date: &str) -> AddOptions {
    let metadata = json!({"date": date}).as_object().cloned();
    AddOptions { scope: ScopeFields::user("u"), infer: Some(false), metadata, ..AddOptions::default() }
}

/// The memory texts `query` finds first with these read options (`userId: u` added).
fn first<L, E, S>(engine: &crate::core::engine::memory::MemoryEngine<L, E, S>, query: &str, options: Value) -> String
where
    L: crate::core::model_traits::Llm,
    E: crate::core::model_traits::Embedder,
    S: crate::core::storage::Storage,
{
    let mut options = options;
    options["userId"] = json!("u");
    let read = serde_json::from_value::<ReadOptions>(options).unwrap().check(ReadCall::Search).unwrap();
    block_on(engine.search(query, &read)).unwrap().results[0].memory.clone()
}

#[test]
fn the_memory_of_the_named_time_comes_first() {
    let engine = letter_engine(InMemoryStorage::default());
    block_on(engine.add(&json!("We went to the beach with the kids"), &dated("1:56 pm on 8 May, 2023"))).unwrap();
    block_on(engine.add(&json!("We went to the beach with friends"), &dated("June 8, 2023"))).unwrap();
    let query = |when: &str| format!("Where did we go {when}?");
    assert_eq!(first(&engine, &query("in May 2023"), json!({})), "We went to the beach with the kids");
    assert_eq!(first(&engine, &query("in June 2023"), json!({})), "We went to the beach with friends");
    assert_eq!(
        first(&engine, &query("on 8 June, 2023"), json!({"method": "rrf"})),
        "We went to the beach with friends"
    );
    assert_eq!(
        first(&engine, &query("on 8 May, 2023"), json!({"method": "rrf"})),
        "We went to the beach with the kids"
    );
    // Relative to the reference date: "last May" is May 2023 seen from August 2023; seen from 2030 it names
    // no memory's time, and the ranking is the one without it.
    let plain = first(&engine, &query(""), json!({}));
    for (reference, want) in [("2023-08-20", "We went to the beach with the kids"), ("2030-08-20", plain.as_str())] {
        let found = first(&engine, &query("last May"), json!({"referenceDate": reference}));
        assert_eq!(found, want, "from {reference}");
    }
    let found = first(&engine, &query("in June"), json!({"referenceDate": "2023-07-01T00:00:00Z"}));
    assert_eq!(found, "We went to the beach with friends");
}

#[test]
fn undated_memories_are_in_the_time_they_were_stored() {
    let mut engine = letter_engine(InMemoryStorage::default());
    let now = Rc::new(Cell::new(millis_from_iso("2024-03-01T09:00:00Z").unwrap()));
    engine.set_clock(Clock::from_fn({
        let now = now.clone();
        move || now.get()
    }));
    let plain = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    block_on(engine.add(&json!("Bought new running shoes"), &plain)).unwrap();
    now.set(now.get() + 20 * 86_400_000);
    block_on(engine.add(&json!("Bought new running socks"), &plain)).unwrap();
    now.set(now.get() + 86_400_000); // 2024-03-22
    assert_eq!(first(&engine, "What did I buy yesterday?", json!({})), "Bought new running socks");
    let three_weeks_ago = first(&engine, "What did I buy three weeks ago?", json!({}));
    assert_eq!(three_weeks_ago, "Bought new running shoes");
    // The clock is the default reference; a reference date moves it.
    let found = first(&engine, "What did I buy yesterday?", json!({"referenceDate": "2024-03-02"}));
    assert_eq!(found, "Bought new running shoes");
}

#[test]
fn a_bad_reference_date_is_refused() {
    for bad in ["yesterday", "2024-13-01", "2024-03-02T10:00:00"] {
        let options = json!({"userId": "u", "referenceDate": bad});
        let read = serde_json::from_value::<ReadOptions>(options).unwrap().check(ReadCall::Search);
        assert_eq!(read.unwrap_err().code(), "INVALID_INPUT", "{bad}");
    }
    let options = json!({"userId": "u", "referenceDate": "2024-03-02"});
    let refused = serde_json::from_value::<ReadOptions>(options).unwrap().check(ReadCall::GetAll);
    assert!(refused.unwrap_err().to_string().contains("referenceDate: not an option of getAll"));
}

#[test]
fn a_read_as_of_a_time_counts_relative_times_from_it() {
    let mut engine = letter_engine(InMemoryStorage::default());
    let day = 86_400_000;
    let start = millis_from_iso("2024-03-01T09:00:00Z").unwrap();
    let now = Rc::new(Cell::new(start));
    engine.set_clock(Clock::from_fn({
        let now = now.clone();
        move || now.get()
    }));
    let plain = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    block_on(engine.add(&json!("Bought new running shoes"), &plain)).unwrap();
    now.set(start + 20 * day);
    block_on(engine.add(&json!("Bought new running socks"), &plain)).unwrap();
    now.set(start + 40 * day);
    let query = "What did I buy three weeks ago?";
    // From now (day 40) three weeks ago is about day 19: the socks; from day 21 it is about day 0: the shoes.
    assert_eq!(first(&engine, query, json!({})), "Bought new running socks");
    assert_eq!(first(&engine, query, json!({"asOf": "2024-03-22T09:00:00Z"})), "Bought new running shoes");
    let both = json!({"asOf": "2024-03-22T09:00:00Z", "referenceDate": "2024-04-10"});
    assert_eq!(first(&engine, query, both), "Bought new running socks", "a reference date still wins");
}

#[test]
fn an_add_says_the_time_its_memories_refer_to_and_a_bad_one_stores_nothing() {
    let engine = letter_engine(InMemoryStorage::default());
    let at = |time: &str| AddOptions { event_time: Some(time.into()), ..dated("not a date") };
    block_on(engine.add(&json!("We went to the beach with the kids"), &at("2023-05-08"))).unwrap();
    block_on(engine.add(&json!("We went to the beach with friends"), &at("2023-06-08T10:00:00+02:00"))).unwrap();
    assert_eq!(first(&engine, "Where did we go in May 2023?", json!({})), "We went to the beach with the kids");
    assert_eq!(first(&engine, "Where did we go in June 2023?", json!({})), "We went to the beach with friends");
    for bad in ["last May", "2023-13-01", "2023-06-08T10:00:00"] {
        let refused = block_on(engine.add(&json!("We went sailing"), &at(bad))).unwrap_err();
        assert_eq!(refused.code(), "INVALID_INPUT", "{bad}");
        assert!(refused.to_string().contains("eventTime must be"), "{refused}");
    }
    let read = serde_json::from_value::<ReadOptions>(json!({"userId": "u"})).unwrap().check(ReadCall::GetAll).unwrap();
    let kept = block_on(engine.get_all(&read)).unwrap();
    assert_eq!(kept.results.len(), 2, "nothing stored by the refused adds");
    assert!(kept.results.iter().all(|m| m.metadata.get("eventTime").is_some()));
}

#[test]
fn a_question_that_asks_when_puts_the_memory_that_says_a_time_first() {
    let engine = letter_engine(InMemoryStorage::default());
    let plain = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    for text in [
        "Caroline loves the support group and the support group loves her",
        "Caroline went to the support group yesterday",
    ] {
        block_on(engine.add(&json!(text), &plain)).unwrap();
    }
    // Without a when-question the memory that repeats the words comes first; asked when, the one with a time.
    assert_eq!(
        first(&engine, "Did Caroline go to the support group?", json!({})),
        "Caroline loves the support group and the support group loves her"
    );
    for question in ["When did Caroline go to the support group?", "How long ago did Caroline go to the support group?"]
    {
        assert_eq!(first(&engine, question, json!({})), "Caroline went to the support group yesterday", "{question}");
    }
    // Only the fused ranking: the keyword method alone ranks as it does without the question word.
    let keyword = |question: &str| first(&engine, question, json!({"method": "keyword"}));
    assert_eq!(keyword("When did Caroline go to the support group?"), keyword("Did Caroline go to the support group?"));
}

#[test]
fn a_memory_of_the_named_time_is_found_in_a_scope_larger_than_the_candidate_pool() {
    let engine = letter_engine(InMemoryStorage::default());
    crowd(&engine);
    let kayaking = block_on(engine.add(&json!("Went kayaking with Pat"), &dated("11:00 am on 3 June, 2023"))).unwrap();
    let (kayak, rowing) = ("Went kayaking with Pat".to_owned(), "Went rowing with Pat".to_owned());
    let query = "What happened on 3 June, 2023?";
    // Raised by its time, it passes them all.
    assert_eq!(found_by(&engine, query, json!({"limit": 3}))[0], kayak);
    // Under rrf it leads the time's own list; without a time it is not drawn at all.
    assert!(found_by(&engine, query, json!({"limit": DRAWING, "method": "rrf"})).contains(&kayak));
    assert!(!found_by(&engine, "What happened then?", json!({"limit": DRAWING})).contains(&kayak));
    // The times read for those searches follow later writes: a memory of that day added (less similar than
    // any other, so drawn only by its time), the first one deleted.
    block_on(engine.add(&json!(rowing), &dated("3 June 2023"))).unwrap();
    assert!(found_by(&engine, query, json!({"limit": DRAWING})).contains(&rowing));
    block_on(engine.delete(&kayaking.results[0].id, false)).unwrap();
    let found = found_by(&engine, query, json!({"limit": DRAWING}));
    assert!(found.contains(&rowing) && !found.contains(&kayak));
}

/// The largest limit whose search draws no more than the vector ranking's pool (`limit × 4` ≤ 1,000), so
/// that a memory outside the pool is in its results only when its time drew it.
const DRAWING: usize = 250;

/// 1,100 memories of user `u`, more than the vector ranking draws, each nearer "What happened on 3 June,
/// 2023?" than the dated memories of these tests (cosine 0.61 to 0.82 against 0.57 and 0.58) and sharing
/// none of its words.
fn crowd<S: crate::core::storage::Storage>(engine: &MemoryEngine<NoLlm, Letters, S>) {
    let plain = AddOptions { scope: ScopeFields::user("u"), infer: Some(false), ..AddOptions::default() };
    let verbs = "fixed washed cooked sold carried moved lost watered folded read wrote tested packed closed fetched";
    let nouns = "gate table chair shelf kettle window ladder basket blanket candle letter parcel bucket carpet helmet";
    let (verbs, nouns): (Vec<&str>, Vec<&str>) = (verbs.split(' ').collect(), nouns.split(' ').collect());
    let pairs = nouns.iter().flat_map(|b| nouns.iter().filter(move |c| *c != b).map(move |c| (b, c)));
    let others = pairs.flat_map(|(b, c)| verbs.iter().map(move |a| format!("{a} the {b} and the {c}")));
    for text in others.take(1_100) {
        block_on(engine.add(&json!(text), &plain)).unwrap();
    }
}

/// The texts `engine` finds for `query` among user `u`'s memories, with these read options.
fn found_by<S: crate::core::storage::Storage>(
    engine: &MemoryEngine<NoLlm, Letters, S>,
    query: &str,
    options: Value,
) -> Vec<String> {
    let mut options = options;
    options["userId"] = json!("u");
    let read = serde_json::from_value::<ReadOptions>(options).unwrap().check(ReadCall::Search).unwrap();
    block_on(engine.search(query, &read)).unwrap().results.into_iter().map(|m| m.memory).collect()
}

#[test]
fn a_memory_of_the_named_time_written_by_another_tab_is_found_too() {
    let storage = KeepingStorage::new();
    let engine = Rc::new(letter_engine(storage.clone()));
    engine.follow_remote();
    crowd(&engine);
    let query = "What happened on 3 June, 2023?";
    assert_eq!(found_by(&engine, query, json!({"limit": DRAWING})).len(), DRAWING, "the times are read");
    // Another tab stores a memory of that day, less similar to the query than any other.
    let other = letter_engine(InMemoryStorage::default());
    block_on(other.add(&json!("Went rowing with Pat"), &dated("3 June 2023"))).unwrap();
    let rowing = {
        let index = other.index.borrow();
        let memory = index.list(1, &|_| true)[0];
        StoredMemory { embedding: index.vector(&memory.item.id), ..memory.clone() }
    };
    storage.notify(RemoteChange { cleared: false, upserts: vec![rowing], deletes: vec![] });
    let rowing = "Went rowing with Pat".to_owned();
    assert!(found_by(&engine, query, json!({"limit": DRAWING})).contains(&rowing));
    assert!(!found_by(&engine, "What happened then?", json!({"limit": DRAWING})).contains(&rowing));
}
