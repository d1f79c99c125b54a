//! What reads see: expired and soft-deleted memories are invisible; pagination counts what matches.

use futures_executor::block_on;
use memwasm::core::fusion::Method;
use memwasm::core::lifecycle::LifecycleSettings;
use memwasm::core::model::types::EventKind;
use memwasm::core::read::Read;
use serde_json::json;

use crate::rig::{user_scope, Rig, DAY};

#[test]
fn expired_memories_vanish_from_every_read_and_are_purged_with_history() {
    let rig = Rig::new(LifecycleSettings::default());
    let soon = rig.add("u", "likes green tea", json!({"ttl": 60_000}));
    rig.add("u", "likes black coffee", json!({}));
    assert_eq!(rig.texts("u"), ["likes green tea", "likes black coffee"]);
    rig.wait(60_000);
    assert_eq!(rig.texts("u"), ["likes black coffee"], "getAll hides it and purges it");
    assert_eq!(block_on(rig.engine.get(&soon)).unwrap(), None);
    assert_eq!(rig.events(&soon), [EventKind::Add, EventKind::Delete]);
    let found = block_on(rig.engine.search("green tea", &Read::of(user_scope("u"), 10))).unwrap();
    assert!(found.results.iter().all(|m| m.id != soon));
    assert!(rig.storage.memories().iter().all(|m| m.item.id != soon), "gone from storage too");
}

#[test]
fn expiry_by_timestamp_and_purge_expired() {
    let rig = Rig::new(LifecycleSettings::default());
    let at = "2025-01-02T00:00:00+00:00";
    let id = rig.add("u", "a meeting tomorrow", json!({"expiresAt": at}));
    assert_eq!(rig.item(&id).lifecycle.expires_at.as_deref(), Some("2025-01-02T00:00:00.000Z"));
    rig.wait(DAY);
    assert_eq!(block_on(rig.engine.lifecycle().purge_expired(&user_scope("u"))).unwrap(), 1);
    assert_eq!(rig.events(&id), [EventKind::Add, EventKind::Delete]);
    assert_eq!(block_on(rig.engine.lifecycle().purge_expired(&user_scope("u"))).unwrap(), 0);
}

#[test]
fn soft_delete_hides_until_restored_and_keeps_history() {
    let rig = Rig::new(LifecycleSettings::default());
    let tea = rig.add("u", "likes tea", json!({}));
    rig.add("u", "likes chess", json!({}));
    block_on(rig.engine.delete(&tea, true)).unwrap();
    assert_eq!(rig.texts("u"), ["likes chess"]);
    assert_eq!(block_on(rig.engine.get(&tea)).unwrap(), None);
    let all = Read { include_deleted: true, ..Read::of(user_scope("u"), 10) };
    let page = block_on(rig.engine.get_all(&all)).unwrap();
    assert_eq!(page.total_count, 2);
    assert!(page.results[0].lifecycle.deleted_at.is_some());
    block_on(rig.engine.restore(&tea)).unwrap();
    assert_eq!(rig.texts("u"), ["likes tea", "likes chess"]);
    assert_eq!(rig.events(&tea), [EventKind::Add, EventKind::Delete, EventKind::Add]);
    assert_eq!(block_on(rig.engine.restore(&tea)).unwrap_err().code(), "INVALID_INPUT", "not deleted any more");
}

#[test]
fn get_all_pages_through_what_matches() {
    let rig = Rig::new(LifecycleSettings::default());
    for word in ["alpha", "bravo", "charlie", "delta", "echo"] {
        rig.add("u", word, json!({}));
    }
    let page =
        |offset, limit| block_on(rig.engine.get_all(&Read { offset, ..Read::of(user_scope("u"), limit) })).unwrap();
    let first = page(0, 2);
    assert_eq!((first.total_count, first.has_more), (5, true));
    assert_eq!(first.results.iter().map(|m| m.memory.as_str()).collect::<Vec<_>>(), ["alpha", "bravo"]);
    let last = page(4, 2);
    assert_eq!((last.results.len(), last.has_more), (1, false));
    assert!(page(9, 2).results.is_empty());
    let searched =
        block_on(rig.engine.search("alpha", &Read { method: Some(Method::Keyword), ..Read::of(user_scope("u"), 1) }));
    assert_eq!(searched.unwrap().total_count, 5);
}
