//! Pinning, decay and limits.

use futures_executor::block_on;
use memwasm::core::lifecycle::decay::DecayOptions;
use memwasm::core::lifecycle::LifecycleSettings;
use memwasm::core::model::types::EventKind;
use memwasm::core::read::Read;
use serde_json::json;

use crate::rig::{user_scope, Rig, DAY};

fn decay(rig: &Rig, half_life_days: f64, forget_below: f64) -> (usize, usize) {
    let options =
        DecayOptions { half_life_days: Some(half_life_days), forget_below: Some(forget_below), ..Default::default() };
    let plan = options.plan().unwrap();
    let outcome = block_on(rig.engine.lifecycle().decay(&user_scope("u"), plan)).unwrap();
    (outcome.decayed, outcome.forgotten)
}

#[test]
fn decay_halves_importance_per_half_life_and_forgets_below_the_line() {
    let rig = Rig::new(LifecycleSettings::default());
    let strong = rig.add("u", "strong memory", json!({"importance": 0.8}));
    let weak = rig.add("u", "weak memory", json!({"importance": 0.3}));
    let pinned = rig.add("u", "pinned memory", json!({"importance": 0.1, "pinned": true}));
    rig.wait(30 * DAY);
    assert_eq!(decay(&rig, 30.0, 0.2), (1, 1));
    assert_eq!(rig.item(&strong).lifecycle.importance, 0.4);
    assert_eq!(block_on(rig.engine.get(&weak)).unwrap(), None, "0.3 → 0.15 < 0.2: forgotten");
    assert_eq!(rig.events(&weak), [EventKind::Add, EventKind::Delete]);
    assert_eq!(rig.item(&pinned).lifecycle.importance, 0.1, "pinned memories never decay");
    // Decaying again at once changes nothing: the days already counted are not counted twice.
    assert_eq!(decay(&rig, 30.0, 0.2), (1, 0));
    assert_eq!(rig.item(&strong).lifecycle.importance, 0.4);
}

#[test]
fn a_search_hit_refreshes_last_access_so_decay_counts_from_there() {
    let rig = Rig::new(LifecycleSettings::default());
    let read = rig.add("u", "reads science fiction", json!({"importance": 0.8}));
    let idle = rig.add("u", "owns a bicycle", json!({"importance": 0.8}));
    rig.wait(30 * DAY);
    let found = block_on(rig.engine.search("science fiction", &Read::of(user_scope("u"), 1))).unwrap();
    assert_eq!(found.results[0].id, read);
    rig.wait(30 * DAY);
    decay(&rig, 30.0, 0.0);
    assert_eq!(rig.item(&read).lifecycle.importance, 0.4, "30 days since the search hit");
    assert_eq!(rig.item(&idle).lifecycle.importance, 0.2, "60 days since it was written");
    assert!(rig.item(&read).lifecycle.last_accessed_at.is_some(), "the access was written with the decay");
}

#[test]
fn pin_and_unpin() {
    let rig = Rig::new(LifecycleSettings::default());
    let id = rig.add("u", "likes tea", json!({}));
    assert!(block_on(rig.engine.lifecycle().pin(&id, true)).unwrap().lifecycle.pinned);
    assert!(rig.item(&id).lifecycle.pinned);
    assert!(!block_on(rig.engine.lifecycle().pin(&id, false)).unwrap().lifecycle.pinned);
    assert_eq!(block_on(rig.engine.lifecycle().pin("nope", true)).unwrap_err().code(), "NOT_FOUND");
}

#[test]
fn limits_trim_the_least_important_then_oldest_unpinned_in_the_same_write() {
    let settings = LifecycleSettings { max_memories_per_scope: Some(3), ..LifecycleSettings::default() };
    let rig = Rig::new(settings);
    let pinned = rig.add("u", "pinned but unimportant", json!({"importance": 0.05, "pinned": true}));
    let old_low = rig.add("u", "old and low", json!({"importance": 0.2}));
    rig.wait(1);
    rig.add("u", "new and low", json!({"importance": 0.2}));
    rig.wait(1);
    rig.add("u", "important", json!({"importance": 0.9}));
    assert_eq!(rig.texts("u"), ["pinned but unimportant", "new and low", "important"]);
    assert_eq!(rig.events(&old_low), [EventKind::Add, EventKind::Delete]);
    assert!(rig.storage.memories().iter().any(|m| m.item.id == pinned));
    rig.add("v", "another user's memory", json!({}));
    assert_eq!(rig.texts("u").len(), 3, "each scope has its own limit");
}

#[test]
fn min_to_store_skips_unimportant_new_memories_but_not_pinned_ones() {
    let settings = LifecycleSettings { min_to_store: 0.5, ..LifecycleSettings::default() };
    let rig = Rig::new(settings);
    rig.add("u", "first memory in an empty scope is novel", json!({}));
    let options = serde_json::from_value(json!({"userId": "u", "infer": false, "importance": 0.1})).unwrap();
    let skipped = block_on(rig.engine.add(&json!("not important"), &options)).unwrap();
    assert!(skipped.results.is_empty());
    assert_eq!(skipped.warnings[0].code.as_str(), "LOW_IMPORTANCE");
    rig.add("u", "not important but pinned", json!({"importance": 0.1, "pinned": true}));
    assert_eq!(rig.texts("u"), ["first memory in an empty scope is novel", "not important but pinned"]);
}

#[test]
fn a_refused_write_over_the_limit_trims_nothing() {
    let settings = LifecycleSettings { max_memories_per_scope: Some(2), ..LifecycleSettings::default() };
    let rig = Rig::new(settings);
    let first = rig.add("u", "first", json!({"importance": 0.1}));
    rig.add("u", "second", json!({"importance": 0.9}));
    rig.storage.refuse_commits_after(0);
    let options = serde_json::from_value(json!({"userId": "u", "infer": false})).unwrap();
    assert_eq!(block_on(rig.engine.add(&json!("third"), &options)).unwrap_err().code(), "STORAGE");
    assert_eq!(rig.texts("u"), ["first", "second"], "the trim was part of the refused write");
    assert_eq!(rig.events(&first), [EventKind::Add]);
    assert_eq!(rig.storage.memories().len(), 2);
}

#[test]
fn decay_spares_conversation_memories_unless_asked_for_them() {
    let rig = Rig::new(LifecycleSettings::default());
    let kinds = ["semantic", "procedural", "working", "episodic", "profile", "foresight", "event_log"];
    let ids: Vec<String> = kinds
        .iter()
        .map(|kind| rig.add("u", &format!("a {kind} memory"), json!({"importance": 0.3, "memoryType": kind})))
        .collect();
    rig.wait(60 * DAY);
    assert_eq!(decay(&rig, 30.0, 0.2), (0, 3), "semantic, procedural and working decay by default");
    for (kind, id) in kinds.iter().zip(&ids) {
        let kept = block_on(rig.engine.get(id)).unwrap().is_some();
        assert_eq!(kept, !["semantic", "procedural", "working"].contains(kind), "{kind}");
    }
    // A decay that names them takes them too.
    let plan = serde_json::from_value::<DecayOptions>(json!({"memoryTypes": ["episodic", "profile"]}))
        .unwrap()
        .plan()
        .unwrap();
    assert_eq!(block_on(rig.engine.lifecycle().decay(&user_scope("u"), plan)).unwrap().forgotten, 2);
    assert!(block_on(rig.engine.get(&ids[5])).unwrap().is_some(), "foresight was not named");
}
