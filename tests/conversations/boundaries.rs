//! The boundary rules: a gap, the size limits, the LLM's judgement, flushGroup, and what happens when a
//! model call fails.

use memwasm::core::conversations::prompts::{BOUNDARY_PROMPT, EPISODE_PROMPT};
use memwasm::core::conversations::{BoundarySettings, Cause, Status};
use memwasm::core::model::types::WarningCode;

use super::rig::*;

#[test]
fn messages_accumulate_until_a_gap_closes_the_buffer_before_the_new_message() {
    let rig = Rig::new();
    for (i, minute) in [0, 5, 12].into_iter().enumerate() {
        let outcome = rig.send(&format!("m{i}"), minute, "alice", &format!("launch note {i}"));
        assert_eq!((outcome.status, outcome.count, outcome.memories.len()), (Status::Accumulated, 0, 0));
        assert_eq!(outcome.pending_messages.len(), i + 1);
    }
    let outcome = rig.send("m3", 12 + 45, "bob", "anyone for lunch?");
    assert_eq!(outcome.status, Status::Extracted);
    assert_eq!(pending(&outcome), ["m3"], "the new message starts the next buffer");
    let episode = &outcome.episodes[0];
    assert_eq!((episode.cause, episode.message_ids.clone()), (Cause::Gap, vec!["m0".into(), "m1".into(), "m2".into()]));
    assert_eq!((episode.start_time.as_str(), episode.end_time.as_str()), (time(0).as_str(), time(12).as_str()));
    let extraction = &rig.calls_to(EPISODE_PROMPT)[0];
    assert!(extraction.user.contains("launch note 2") && !extraction.user.contains("lunch"), "{}", extraction.user);
    assert_eq!(extraction.reply, Some("record_episode"));
}

#[test]
fn the_llm_is_asked_only_with_a_buffered_message_and_no_hard_rule() {
    let rig = Rig::with(BoundarySettings { max_messages: 3, ..BoundarySettings::default() });
    rig.send("m0", 0, "alice", "hi");
    assert_eq!(rig.calls_to(BOUNDARY_PROMPT).len(), 0, "a lone message is never judged");
    rig.send("m1", 1, "bob", "hello");
    let calls = rig.calls_to(BOUNDARY_PROMPT);
    assert_eq!(calls.len(), 1);
    assert!(calls[0].user.contains("Conversation so far (oldest first):\n[2025-01-15T10:00:00.000Z] alice: hi"));
    assert!(calls[0].user.contains("New message:\n[2025-01-15T10:01:00.000Z] bob: hello"));
    assert_eq!(calls[0].reply, Some("judge_boundary"));
    rig.send("m2", 2, "alice", "third message fills the buffer");
    rig.send("m3", 60, "alice", "after a long pause");
    assert_eq!(rig.calls_to(BOUNDARY_PROMPT).len(), 1, "a size limit and a gap need no judgement");
}

#[test]
fn an_llm_boundary_closes_the_buffer_before_the_new_message() {
    let rig = Rig::new();
    rig.script.borrow_mut().boundary_on.push("budget".into());
    rig.send("m0", 0, "alice", "the deploy went fine");
    rig.send("m1", 1, "bob", "great, thanks");
    let outcome = rig.send("m2", 2, "alice", "now, about the budget");
    assert_eq!(outcome.status, Status::Extracted);
    assert_eq!(
        (outcome.episodes[0].cause, outcome.episodes[0].reason.as_deref()),
        (Cause::Llm, Some("budget starts a new topic"))
    );
    assert_eq!(outcome.episodes[0].message_ids, ["m0", "m1"]);
    assert_eq!(pending(&outcome), ["m2"]);
}

#[test]
fn size_limits_close_the_buffer_with_the_new_message() {
    let rig = Rig::with(BoundarySettings { max_messages: 3, llm: false, ..BoundarySettings::default() });
    rig.send("m0", 0, "alice", "one");
    rig.send("m1", 1, "alice", "two");
    let outcome = rig.send("m2", 2, "alice", "three");
    assert_eq!((outcome.status, outcome.episodes[0].cause), (Status::Extracted, Cause::MaxMessages));
    assert_eq!(outcome.episodes[0].message_ids, ["m0", "m1", "m2"]);
    assert!(outcome.pending_messages.is_empty());

    let rig = Rig::with(BoundarySettings { max_tokens: 30, llm: false, ..BoundarySettings::default() });
    assert_eq!(rig.send("m0", 0, "alice", "a short line").status, Status::Accumulated);
    let outcome = rig.send("m1", 1, "alice", &"a much longer line of text ".repeat(4));
    assert_eq!(outcome.episodes[0].cause, Cause::MaxTokens);
}

#[test]
fn flush_group_extracts_now_and_an_empty_or_unknown_group_is_a_no_op() {
    let rig = Rig::new();
    rig.send("m0", 0, "alice", "let's ship on friday");
    let outcome = futures_executor::block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    assert_eq!((outcome.status, outcome.episodes[0].cause), (Status::Extracted, Cause::Flush));
    assert!(outcome.pending_messages.is_empty());
    let again = futures_executor::block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    assert_eq!((again.status, again.episodes.len()), (Status::Accumulated, 0));
    let unknown = futures_executor::block_on(rig.engine.conversations().flush_group("nobody")).unwrap();
    assert_eq!((unknown.status, unknown.group_id.as_str()), (Status::Accumulated, "nobody"));
    let blank = futures_executor::block_on(rig.engine.conversations().flush_group(" ")).unwrap_err();
    assert_eq!(blank.code(), "INVALID_INPUT");
}

#[test]
fn a_failed_boundary_call_is_a_warning_and_the_message_waits() {
    let rig = Rig::new();
    rig.script.borrow_mut().boundary_reply = Some("I think so".into());
    rig.send("m0", 0, "alice", "hi");
    let outcome = rig.send("m1", 1, "bob", "hello");
    assert_eq!(outcome.status, Status::Accumulated);
    assert_eq!(outcome.warnings.iter().map(|w| w.code).collect::<Vec<_>>(), [WarningCode::BoundaryFailed]);
    assert_eq!(pending(&outcome), ["m0", "m1"]);
}

#[test]
fn a_failed_extraction_keeps_every_message_pending_and_flush_retries() {
    let rig = Rig::new();
    rig.script.borrow_mut().episode_reply = Some("sorry, no".into());
    rig.send("m0", 0, "alice", "first");
    let outcome = rig.send("m1", 90, "alice", "after the gap");
    assert_eq!(outcome.status, Status::Accumulated);
    assert_eq!(outcome.warnings.iter().map(|w| w.code).collect::<Vec<_>>(), [WarningCode::ExtractionFailed]);
    assert_eq!(pending(&outcome), ["m0", "m1"], "nothing is lost");
    assert!(rig.doubles.storage.memories().is_empty());
    rig.script.borrow_mut().episode_reply = None;
    let outcome = futures_executor::block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    assert_eq!(outcome.episodes[0].message_ids, ["m0", "m1"]);
    assert_eq!(rig.memories(group("g1")).len(), 1);
}

#[test]
fn without_an_llm_the_transcript_becomes_the_episode() {
    use memwasm::core::testing::{KeepingStorage, Letters, NoLlm};
    let mut engine: memwasm::MemoryEngine<NoLlm, Letters, KeepingStorage> =
        memwasm::MemoryEngine::new(NoLlm, Letters::new(26), KeepingStorage::new(), Default::default());
    engine.set_boundary(BoundarySettings { max_messages: 2, ..BoundarySettings::default() });
    let add = |value| {
        futures_executor::block_on(engine.conversations().add_message(serde_json::from_value(value).unwrap())).unwrap()
    };
    add(msg("m0", 0, "alice", "hello"));
    let outcome = add(msg("m1", 1, "bob", "hi alice"));
    assert_eq!(outcome.status, Status::Extracted);
    assert_eq!(outcome.memories.len(), 1);
    let text = &outcome.memories[0].event.memory;
    assert_eq!(text, &format!("[{}] alice: hello\n[{}] bob: hi alice", time(0), time(1)));
}
