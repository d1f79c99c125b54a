//! Memory by key: store (upsert without an LLM), getByKey (NOT_FOUND vs EXPIRED), deleteByKey,
//! reflections, share by glob, stats, and search by vector.

use futures_executor::block_on;
use memwasm::core::lifecycle::write::{LifecycleInput, WriteLifecycle};
use memwasm::core::lifecycle::LifecycleSettings;
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::EventKind;
use memwasm::core::model::MemoryType;
use memwasm::core::read::Read;

use crate::rig::{user_scope, Rig, START};

fn agent(id: &str) -> Scope {
    Scope { agent_id: Some(id.into()), ..Scope::default() }
}

fn store(rig: &Rig, scope: &Scope, key: &str, value: &str, write: &WriteLifecycle) -> EventKind {
    block_on(rig.engine.lifecycle().store(key, value, scope, None, Default::default(), write)).unwrap().event
}

#[test]
fn store_upserts_by_key_and_get_by_key_tells_expired_from_missing() {
    let rig = Rig::new(LifecycleSettings::default());
    let plain = WriteLifecycle::default();
    assert_eq!(store(&rig, &agent("a"), "lesson_1", "validate input", &plain), EventKind::Add);
    assert_eq!(store(&rig, &agent("a"), "lesson_1", "validate all input", &plain), EventKind::Update);
    let item = block_on(rig.engine.lifecycle().get_by_key("lesson_1", &agent("a"))).unwrap();
    assert_eq!((item.memory.as_str(), item.lifecycle.key.as_deref()), ("validate all input", Some("lesson_1")));
    assert_eq!(rig.events(&item.id), [EventKind::Add, EventKind::Update]);
    assert_eq!(block_on(rig.engine.lifecycle().get_by_key("lesson_1", &agent("b"))).unwrap_err().code(), "NOT_FOUND");

    let short = LifecycleInput { ttl: Some(1000.0), ..Default::default() }.check(START).unwrap();
    store(&rig, &agent("a"), "cache", "temporary", &short);
    rig.wait(1000);
    assert_eq!(block_on(rig.engine.lifecycle().get_by_key("cache", &agent("a"))).unwrap_err().code(), "EXPIRED");
    assert_eq!(
        block_on(rig.engine.lifecycle().get_by_key("cache", &agent("a"))).unwrap_err().code(),
        "NOT_FOUND",
        "purged"
    );
    block_on(rig.engine.lifecycle().delete_by_key("lesson_1", &agent("a"))).unwrap();
    assert_eq!(
        block_on(rig.engine.lifecycle().delete_by_key("lesson_1", &agent("a"))).unwrap_err().code(),
        "NOT_FOUND"
    );
}

#[test]
fn a_given_embedding_is_used_as_is_and_a_wrong_length_stores_nothing() {
    let rig = Rig::new(LifecycleSettings::default());
    let plain = WriteLifecycle::default();
    store(&rig, &agent("a"), "first", "letters set the length", &plain);
    let wrong =
        block_on(rig.engine.lifecycle().store("k", "v", &agent("a"), Some(vec![1.0; 5]), Default::default(), &plain));
    assert_eq!(wrong.unwrap_err().code(), "DIMENSION_MISMATCH");
    assert!(block_on(rig.engine.lifecycle().get_by_key("k", &agent("a"))).is_err(), "nothing stored");
    let mut axis = vec![0.0; 26];
    axis[25] = 3.0;
    block_on(rig.engine.lifecycle().store("z", "zebra", &agent("a"), Some(axis.clone()), Default::default(), &plain))
        .unwrap();
    let found = block_on(rig.engine.search_by_vector(axis, &Read::of(agent("a"), 1))).unwrap();
    assert_eq!(found.results[0].memory, "zebra");
    assert!((found.results[0].score.unwrap() - 1.0).abs() < 1e-6, "the vector was kept as given");
}

#[test]
fn reflections_share_and_stats() {
    let rig = Rig::new(LifecycleSettings::default());
    let plain = WriteLifecycle::default();
    let procedural = WriteLifecycle { memory_type: Some(MemoryType::Procedural), pinned: true, ..Default::default() };
    store(&rig, &agent("a"), "reflection:s1", "the user likes brevity", &procedural);
    store(&rig, &agent("a"), "lesson_1", "check inputs", &plain);
    store(&rig, &agent("a"), "lesson_2", "write tests", &plain);
    store(&rig, &agent("a"), "other", "not a lesson", &plain);
    let reflections = block_on(rig.engine.lifecycle().reflections(&agent("a"))).unwrap();
    assert_eq!(reflections.iter().map(|m| m.memory.as_str()).collect::<Vec<_>>(), ["the user likes brevity"]);

    assert_eq!(block_on(rig.engine.lifecycle().share(&agent("a"), &agent("b"), "lesson_*")).unwrap(), 2);
    let copy = block_on(rig.engine.lifecycle().get_by_key("lesson_2", &agent("b"))).unwrap();
    assert_eq!(rig.events(&copy.id), [EventKind::Add]);
    assert_eq!(
        block_on(rig.engine.lifecycle().share(&agent("a"), &agent("b"), "lesson_?")).unwrap(),
        2,
        "again: replaced"
    );
    assert_eq!(
        block_on(rig.engine.lifecycle().share(&agent("a"), &agent("b"), "")).unwrap_err().code(),
        "INVALID_INPUT"
    );

    let stats = block_on(rig.engine.lifecycle().stats(&Scope::default())).unwrap();
    assert_eq!((stats.total_entries, stats.pinned, stats.expired), (6, 1, 0));
    assert_eq!(stats.by_type["procedural"], 1);
    assert_eq!(stats.by_type["semantic"], 5);
    assert_eq!(stats.by_scope.iter().map(|s| s.count).collect::<Vec<_>>(), [4, 2]);
    assert_eq!(block_on(rig.engine.lifecycle().stats(&user_scope("nobody"))).unwrap().total_entries, 0);
}
