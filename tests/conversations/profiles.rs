//! Profiles: one memory per participant and group, merged across episodes with UPDATE history; names and
//! roles from the conversation metadata; assistants and strangers get none.

use futures_executor::block_on;
use memwasm::core::conversations::prompts::EPISODE_PROMPT;
use memwasm::core::conversations::MetaInput;
use memwasm::core::model::types::{EventKind, WarningCode};
use memwasm::core::model::MemoryType;
use serde_json::{json, Value};

use super::rig::*;

fn profiles(updates: Value) -> Value {
    json!({"summary": "They talked.", "event_log": [], "foresight": [], "profiles": updates})
}

fn save_meta(rig: &Rig) {
    let meta: MetaInput = serde_json::from_value(json!({
        "version": "1", "scene": "group_chat", "sceneDesc": {"description": "launch planning"}, "name": "Launch crew",
        "groupId": "g1", "createdAt": "2025-01-01T00:00:00Z",
        "userDetails": {"alice": {"fullName": "Alice Smith", "customRole": "PM"}, "helper-bot": {"role": "assistant"}}
    }))
    .unwrap();
    block_on(rig.engine.conversations().save_conversation_meta(meta)).unwrap();
}

#[test]
fn profiles_merge_into_one_memory_per_user_and_group_with_update_history() {
    let rig = Rig::new();
    save_meta(&rig);
    let mut script = rig.script.borrow_mut();
    script.episodes.push_back(profiles(json!([
        {"user_id": "alice", "attributes": [{"key": "occupation", "value": "product manager"}, {"key": "home_city", "value": "Paris"}]},
        {"user_id": "bob", "attributes": [{"key": "skills", "value": "rust"}]},
        {"user_id": "helper-bot", "attributes": [{"key": "model", "value": "gpt"}]},
        {"user_id": "carol", "attributes": [{"key": "likes", "value": "tea"}]}
    ])));
    script.episodes.push_back(profiles(json!([
        {"user_id": "Alice Smith", "attributes": [{"key": "home city", "value": "Berlin"}]},
        {"user_id": "bob", "attributes": [{"key": "skills", "value": "rust"}]}
    ])));
    drop(script);
    rig.send("m0", 0, "alice", "I'm the PM, living in Paris");
    rig.add(json!({"messageId": "m1", "createTime": time(1), "sender": "helper-bot", "role": "assistant", "content": "noted", "groupId": "g1"}));
    rig.send("m2", 2, "bob", "I write rust");
    let first = rig.send("m3", DAY, "alice", "I moved to Berlin");
    let warnings: Vec<_> =
        first.warnings.iter().filter(|w| w.code == WarningCode::InvalidDecision).map(|w| w.message.clone()).collect();
    assert_eq!(warnings.len(), 2, "the assistant and a stranger get no profile: {warnings:?}");
    let alice = first
        .memories
        .iter()
        .find(|m| m.memory_type == MemoryType::Profile && m.event.memory.contains("alice"))
        .unwrap();
    assert_eq!(alice.event.memory, "Profile of Alice Smith (alice): home city: Paris; occupation: product manager");

    rig.send("m4", DAY + 1, "bob", "still writing rust");
    let second = block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    let changed: Vec<_> = second.memories.iter().filter(|m| m.memory_type == MemoryType::Profile).collect();
    assert_eq!(changed.len(), 1, "bob's unchanged profile is not rewritten");
    assert_eq!((changed[0].event.event, changed[0].event.id.as_str()), (EventKind::Update, alice.event.id.as_str()));
    let stored = rig.memories(user_in("alice", "g1"));
    assert_eq!(stored.len(), 1, "one profile per user and group");
    assert_eq!(stored[0].memory, "Profile of Alice Smith (alice): home city: Berlin; occupation: product manager");
    assert_eq!(stored[0].metadata["attributes"], json!({"home_city": "Berlin", "occupation": "product manager"}));
    assert_eq!(stored[0].metadata["lastSessionId"], json!(second.episodes[0].session_id));
    let history = block_on(rig.engine.history(&stored[0].id)).unwrap();
    assert_eq!(history.iter().map(|r| r.event).collect::<Vec<_>>(), [EventKind::Add, EventKind::Update]);
    assert_eq!(history[1].old_value.as_deref(), Some(alice.event.memory.as_str()));

    let prompt = &rig.calls_to(EPISODE_PROMPT)[1].user;
    assert!(prompt.contains("Scene: group_chat (launch planning)\n"), "{prompt}");
    assert!(prompt.contains("- alice: Alice Smith, PM\n"), "{prompt}");
    assert!(prompt.contains("Current profiles:\n- alice: {\"home_city\":\"Paris\",\"occupation\":\"product manager\"}\n- bob: {\"skills\":\"rust\"}\n"), "{prompt}");
    let first_prompt = &rig.calls_to(EPISODE_PROMPT)[0].user;
    assert!(first_prompt.contains("- helper-bot: helper-bot, AI assistant\n"), "{first_prompt}");
}

#[test]
fn the_same_user_has_a_separate_profile_in_each_group() {
    let rig = Rig::new();
    let mut script = rig.script.borrow_mut();
    for city in ["Paris", "Rome"] {
        script
            .episodes
            .push_back(profiles(json!([{"user_id": "alice", "attributes": [{"key": "city", "value": city}]}])));
    }
    drop(script);
    rig.send("m0", 0, "alice", "hi from Paris");
    block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    let mut other = msg("m0", 1, "alice", "hi from Rome");
    other["groupId"] = json!("g2");
    rig.add(other);
    block_on(rig.engine.conversations().flush_group("g2")).unwrap();
    assert_eq!(rig.memories(user_in("alice", "g1"))[0].memory, "Profile of alice: city: Paris");
    assert_eq!(rig.memories(user_in("alice", "g2"))[0].memory, "Profile of alice: city: Rome");
}
