//! Conversation metadata (save, get with the default fallback, patch) and soft delete by filter.

use futures_executor::block_on;
use memwasm::core::conversations::{DeleteFilter, MetaInput, MetaPatch, Scene};
use memwasm::core::model::types::EventKind;
use memwasm::core::read::Read;
use serde_json::{json, Value};

use super::rig::*;

fn meta(value: Value) -> MetaInput {
    serde_json::from_value(value).unwrap()
}

#[test]
fn conversation_meta_is_saved_read_with_fallback_and_patched() {
    let rig = Rig::new();
    assert_eq!(block_on(rig.engine.conversations().conversation_meta(Some("g1"))).unwrap(), None);
    let base = json!({"version": "1.0.0", "scene": "assistant", "sceneDesc": {"description": "help desk"}, "name": "Default", "createdAt": "2025-01-01T00:00:00+02:00"});
    let default = block_on(rig.engine.conversations().save_conversation_meta(meta(base.clone()))).unwrap();
    assert!(default.is_default);
    assert_eq!(default.meta.created_at, "2024-12-31T22:00:00.000Z");
    let fallback = block_on(rig.engine.conversations().conversation_meta(Some("g1"))).unwrap().unwrap();
    assert_eq!((fallback.is_default, fallback.meta.name.as_str()), (true, "Default"));

    let mut group = base.clone();
    group["groupId"] = json!("g1");
    group["scene"] = json!("group_chat");
    group["name"] = json!("Launch crew");
    let saved = block_on(rig.engine.conversations().save_conversation_meta(meta(group.clone()))).unwrap();
    rig.now.set(START + MINUTE);
    let resaved = block_on(rig.engine.conversations().save_conversation_meta(meta(group))).unwrap();
    assert_eq!(resaved.meta.id, saved.meta.id, "an upsert keeps the id");
    assert_eq!(resaved.meta.updated_at, time(1));
    let got = block_on(rig.engine.conversations().conversation_meta(Some("g1"))).unwrap().unwrap();
    assert_eq!((got.is_default, got.meta.scene), (false, Scene::GroupChat));

    let patch = MetaPatch::parse(json!({"groupId": "g1", "name": "Launch team", "tags": ["launch"]})).unwrap();
    let updated = block_on(rig.engine.conversations().update_conversation_meta(patch)).unwrap();
    assert_eq!(updated.updated_fields, ["name", "tags"]);
    assert_eq!(
        block_on(rig.reopen().conversations().conversation_meta(Some("g1"))).unwrap().unwrap().meta.name,
        "Launch team"
    );
    let missing = MetaPatch::parse(json!({"groupId": "g9", "name": "x"})).unwrap();
    assert_eq!(block_on(rig.engine.conversations().update_conversation_meta(missing)).unwrap_err().code(), "NOT_FOUND");
}

#[test]
fn delete_memories_soft_deletes_what_every_filter_matches() {
    let rig = Rig::new();
    let reply = |facts: Value, user: &str| {
        json!({"summary": format!("episode with {user}"), "event_log": facts, "foresight": [],
               "profiles": [{"user_id": user, "attributes": [{"key": "seen", "value": "yes"}]}]})
    };
    let mut script = rig.script.borrow_mut();
    script.episodes.push_back(reply(json!(["alice likes tea", "alice owns a bike"]), "alice"));
    script.episodes.push_back(reply(json!(["bob likes coffee"]), "bob"));
    script.episodes.push_back(reply(json!([]), "carol"));
    drop(script);
    rig.send("m0", 0, "alice", "tea and bikes");
    let first = rig.send("m1", DAY, "bob", "coffee");
    let session = first.episodes[0].session_id.clone();
    let mut other = msg("m0", DAY + 1, "carol", "elsewhere");
    other["groupId"] = json!("g2");
    rig.add(other);
    block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    block_on(rig.engine.conversations().flush_group("g2")).unwrap();
    let live = |scope| rig.memories(scope).len();
    assert_eq!((live(group("g1")), live(group("g2"))), (7, 2));

    let delete = |value: Value| {
        block_on(rig.engine.conversations().delete_memories(&serde_json::from_value::<DeleteFilter>(value).unwrap()))
    };
    for empty in [json!({}), json!({"userId": "__all__", "groupId": "", "eventId": "__all__"})] {
        assert_eq!(delete(empty).unwrap_err().code(), "INVALID_INPUT");
    }
    assert_eq!(live(group("g1")), 7, "a refused delete deletes nothing");

    let by_event = delete(json!({"eventId": session})).unwrap();
    assert_eq!(
        (by_event.count, by_event.filters.clone()),
        (3, vec!["eventId"]),
        "the episode's memories, not the profile"
    );
    let by_user = delete(json!({"user_id": "alice", "group_id": "g1"})).unwrap();
    assert_eq!((by_user.count, by_user.filters), (1, vec!["userId", "groupId"]));
    let by_group = delete(json!({"groupId": "g2"})).unwrap();
    assert_eq!(by_group.count, 2);
    assert_eq!((live(group("g1")), live(group("g2"))), (3, 0));

    let mut read = Read::of(group("g1"), 100);
    read.include_deleted = true;
    let all = block_on(rig.engine.get_all(&read)).unwrap().results;
    let deleted: Vec<_> = all.iter().filter(|m| m.lifecycle.deleted_at.is_some()).collect();
    assert_eq!(deleted.len(), 4);
    let history = block_on(rig.engine.history(&deleted[0].id)).unwrap();
    assert_eq!(history.last().unwrap().event, EventKind::Delete);
    block_on(rig.engine.restore(&deleted[0].id)).unwrap();
    assert_eq!(live(group("g1")), 4, "a soft delete can be undone");
}
