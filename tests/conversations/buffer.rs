//! The persisted buffer: a reload sees the pending messages, duplicates are ignored before and after
//! extraction, groups are apart, and a refused write keeps nothing.

use futures_executor::block_on;
use memwasm::core::conversations::buffer::BUFFER_KIND;
use memwasm::core::conversations::{MessageInput, Status};
use serde_json::json;

use super::rig::*;

#[test]
fn a_second_engine_over_the_same_storage_sees_the_pending_messages() {
    let rig = Rig::new();
    rig.send("m0", 0, "alice", "we need a venue");
    rig.send("m1", 3, "bob", "the old hall is free");
    let reopened = rig.reopen();
    let record = block_on(reopened.side_record(BUFFER_KIND, "g1")).unwrap().expect("the buffer is stored");
    assert_eq!(record["messages"].as_array().unwrap().len(), 2);
    assert_eq!(record["groupName"], "Launch crew");
    let outcome = rig.add_to(&reopened, msg("m2", 4, "alice", "book it"));
    assert_eq!(pending(&outcome), ["m0", "m1", "m2"]);
    let outcome = rig.add_to(&reopened, msg("m3", 4 + DAY, "bob", "booked"));
    assert_eq!(
        outcome.episodes[0].message_ids,
        ["m0", "m1", "m2"],
        "the restarted engine extracts what the first one buffered"
    );
    let third = rig.reopen();
    assert_eq!(
        pending(&rig.add_to(&third, msg("m1", 5 + DAY, "bob", "resent"))),
        ["m3"],
        "extracted ids are remembered"
    );
}

#[test]
fn a_duplicate_message_id_is_ignored_not_double_counted() {
    let rig = Rig::new();
    rig.send("m0", 0, "alice", "hi");
    let calls = rig.doubles.llm.calls().len();
    let duplicate = rig.send("m0", 1, "alice", "hi again");
    assert!(duplicate.duplicate);
    assert_eq!((duplicate.status, pending(&duplicate)), (Status::Accumulated, vec!["m0"]));
    assert_eq!(rig.doubles.llm.calls().len(), calls, "a duplicate costs no model call");
    assert_eq!(duplicate.pending_messages[0].content, "hi", "the first copy is kept");
    let outcome = rig.send("m1", 60, "bob", "later");
    assert_eq!(outcome.episodes[0].message_ids, ["m0"]);
    let resent = rig.send("m0", 61, "alice", "hi");
    assert!(resent.duplicate && resent.memories.is_empty());
    assert_eq!(pending(&resent), ["m1"]);
}

#[test]
fn groups_keep_their_own_buffers() {
    let rig = Rig::new();
    rig.send("m0", 0, "alice", "in g1");
    let mut other = msg("m0", 1, "carol", "in g2, same id");
    other["groupId"] = json!("g2");
    let outcome = rig.add(other);
    assert!(!outcome.duplicate, "ids are unique per group");
    assert_eq!((outcome.group_id.as_str(), pending(&outcome)), ("g2", vec!["m0"]));
    let direct =
        rig.add(json!({"messageId": "d0", "createTime": time(2), "sender": "dave", "content": "note to self"}));
    assert_eq!(direct.group_id, "default:dave");
}

#[test]
fn bad_messages_store_nothing() {
    let rig = Rig::new();
    for bad in [
        json!({"createTime": time(0), "sender": "a", "content": "x", "groupId": "g1"}),
        json!({"messageId": "m", "createTime": "2025-01-15T10:00:00", "sender": "a", "content": "x", "groupId": "g1"}),
        json!({"messageId": "m", "createTime": time(0), "sender": "a", "content": "", "groupId": "g1"}),
    ] {
        let input: MessageInput = serde_json::from_value(bad).unwrap();
        assert_eq!(block_on(rig.engine.conversations().add_message(input)).unwrap_err().code(), "INVALID_INPUT");
    }
    assert_eq!(block_on(rig.engine.side_record(BUFFER_KIND, "g1")).unwrap(), None);
}

#[test]
fn a_refused_write_keeps_neither_the_message_nor_the_memories() {
    let rig = Rig::new();
    rig.send("m0", 0, "alice", "first");
    rig.doubles.storage.refuse_commits_after(0);
    let input: MessageInput = serde_json::from_value(msg("m1", 90, "alice", "after a gap")).unwrap();
    assert_eq!(block_on(rig.engine.conversations().add_message(input)).unwrap_err().code(), "STORAGE");
    let record = block_on(rig.engine.side_record(BUFFER_KIND, "g1")).unwrap().unwrap();
    assert_eq!(record["messages"][0]["messageId"], "m0");
    assert_eq!(record["messages"].as_array().unwrap().len(), 1);
    assert!(rig.doubles.storage.memories().is_empty());
}
