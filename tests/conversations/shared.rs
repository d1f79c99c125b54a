//! Who owns a group's memories: what a group conversation yields (episodes, event logs, foresight) belongs
//! to the group, and each of its participants reads all of it; a participant's own memories (their profile)
//! are theirs. A participant's `deleteMemories({userId, groupId})` removes what is theirs and their
//! membership, never the group's shared memories for the others.

use futures_executor::block_on;
use memwasm::core::conversations::DeleteFilter;
use memwasm::core::model::types::{EventKind, MemoryItem};
use serde_json::json;

use super::rig::*;

const FACT: &str = "The launch review moved to Thursday";
const PLAN: &str = "Bob will prepare the slides by Wednesday";

/// One episode of g1 in which alice and bob wrote: an episodic narrative, an event-log fact, a plan and a
/// profile each.
fn launch_episode() -> Rig {
    let rig = Rig::new();
    rig.script.borrow_mut().episodes.push_back(json!({
        "summary": "Alice and Bob planned the launch review", "event_log": [FACT],
        "foresight": [{"text": PLAN, "valid_until": "2025-01-22"}],
        "profiles": [{"user_id": "alice", "attributes": [{"key": "role", "value": "PM"}]},
                     {"user_id": "bob", "attributes": [{"key": "role", "value": "designer"}]}]
    }));
    rig.send("m1", 0, "alice", "The launch review moved to Thursday.");
    rig.send("m2", 1, "bob", "I'll prepare the slides by Wednesday.");
    block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    rig
}

fn texts(items: Vec<MemoryItem>) -> Vec<String> {
    items.into_iter().map(|m| m.memory).collect()
}

/// `getAll({userId: who, groupId: "g1", memoryType: kind})`.
fn read_as(rig: &Rig, who: &str, kind: &str) -> Vec<String> {
    texts(rig.get_all(json!({"userId": who, "groupId": "g1", "memoryType": kind})).unwrap().results)
}

/// What the group's three shared types hold, read by `who`.
fn shared_as(rig: &Rig, who: &str) -> Vec<Vec<String>> {
    ["episodic", "event_log", "foresight"].iter().map(|kind| read_as(rig, who, kind)).collect()
}

fn everything() -> Vec<Vec<String>> {
    vec![vec!["Alice and Bob planned the launch review".to_owned()], vec![FACT.to_owned()], vec![PLAN.to_owned()]]
}

#[test]
fn a_participant_reads_every_memory_the_group_conversation_yielded() {
    let rig = launch_episode();
    assert_eq!(shared_as(&rig, "bob"), everything(), "bob took part: episodes, event log and plans");
    assert_eq!(shared_as(&rig, "alice"), everything());
    assert_eq!(shared_as(&rig, "carol"), vec![Vec::<String>::new(); 3], "carol did not");
    let kinds = json!(["episodic", "event_log", "foresight"]);
    for group in ["g1", "__all__"] {
        let options = json!({"userId": "bob", "groupId": group, "memoryTypes": kinds, "method": "keyword"});
        let found = texts(rig.search("launch review Thursday", options).unwrap().results);
        assert!(found.contains(&FACT.to_owned()), "groupId {group}: bob's search finds the group's fact: {found:?}");
        let options = json!({"userId": "carol", "groupId": group, "memoryTypes": kinds, "method": "keyword"});
        assert!(rig.search("launch review Thursday", options).unwrap().results.is_empty());
    }
}

#[test]
fn a_participant_delete_takes_their_own_memories_and_membership_not_the_groups() {
    let rig = launch_episode();
    let filter: DeleteFilter = serde_json::from_value(json!({"userId": "alice", "groupId": "g1"})).unwrap();
    let outcome = block_on(rig.engine.conversations().delete_memories(&filter)).unwrap();
    assert_eq!(outcome.count, 1, "alice's profile is hers: {outcome:?}");
    let left = serde_json::to_value(&outcome).unwrap()["left"].clone();
    assert_eq!(left, json!(3), "she leaves the episode, the fact and the plan");

    assert_eq!(shared_as(&rig, "bob"), everything(), "bob still reads the group's memories");
    assert_eq!(shared_as(&rig, "alice"), vec![Vec::<String>::new(); 3], "alice no longer does");
    assert!(read_as(&rig, "alice", "profile").is_empty(), "her profile is deleted");
    assert_eq!(read_as(&rig, "bob", "profile").len(), 1, "bob's is not");
    let group = |kind: &str| rig.get_all(json!({"groupId": "g1", "memoryType": kind})).unwrap().results;
    assert_eq!(group("episodic").len() + group("event_log").len() + group("foresight").len(), 3);
    let episode = &group("episodic")[0];
    assert_eq!(episode.metadata["participants"], json!(["bob"]));
    let history = block_on(rig.engine.history(&episode.id)).unwrap();
    let last = history.last().unwrap();
    assert_eq!((last.event, last.old_value.as_deref()), (EventKind::Update, last.new_value.as_deref()));

    // Bob leaving too leaves the group's memories to the group.
    let filter: DeleteFilter = serde_json::from_value(json!({"userId": "bob", "groupId": "g1"})).unwrap();
    block_on(rig.engine.conversations().delete_memories(&filter)).unwrap();
    assert_eq!(group("episodic").len() + group("event_log").len() + group("foresight").len(), 3);
    assert_eq!(shared_as(&rig, "bob"), vec![Vec::<String>::new(); 3]);
    assert_eq!(group("event_log")[0].metadata["participants"], json!([]));
}

#[test]
fn a_fact_a_later_episode_updates_is_read_by_both_episodes_participants() {
    let rig = launch_episode();
    let moved = "The launch review moved to Friday";
    rig.script.borrow_mut().episodes.push_back(json!({
        "summary": "Carol moved the review", "event_log": [moved], "foresight": [], "profiles": []
    }));
    rig.script.borrow_mut().decisions.push_back(json!({"memory": [{"id": "0", "text": moved, "event": "UPDATE"}]}));
    rig.send("m3", DAY, "carol", "The review is on Friday now.");
    block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    assert_eq!(read_as(&rig, "carol", "event_log"), [moved], "carol changed the fact: she reads it");
    assert_eq!(read_as(&rig, "bob", "event_log"), [moved], "bob still does");
    assert_eq!(read_as(&rig, "carol", "episodic"), ["Carol moved the review"], "not the episode she was not in");
}
