//! `compress()` through the engine: above the threshold the oldest sessions are summarised (one LLM call each)
//! into semantic memories, the originals are marked compressed and hidden from reads unless
//! `includeCompressed`, history records the marks, everything is one commit, and a session whose call fails
//! stays as it was.

use futures_executor::block_on;
use memwasm::core::conversations::prompts::COMPRESS_PROMPT;
use memwasm::core::conversations::{CompressOptions, CompressOutcome};
use memwasm::core::error::Result;
use memwasm::core::model::types::{EventKind, WarningCode};
use memwasm::core::model::MemoryType;
use memwasm::core::read::{ReadCall, ReadOptions};
use memwasm::core::testing::{letter_engine, KeepingStorage};
use serde_json::{json, Value};

use super::rig::*;

/// Episodes of g1 on days 0–4: "Chat about topic N".
fn five_sessions() -> (Rig, Vec<String>) {
    let rig = Rig::new();
    let sessions = (0..5).map(|day| rig.episode(&format!("m{day}"), day * DAY, &format!("topic {day}"))).collect();
    (rig, sessions)
}

fn compress(rig: &Rig, options: Value) -> Result<CompressOutcome> {
    block_on(rig.engine.conversations().compress(&serde_json::from_value::<CompressOptions>(options).unwrap()))
}

fn texts(rig: &Rig, options: Value) -> Vec<String> {
    rig.get_all(options).unwrap().results.into_iter().map(|m| m.memory).collect()
}

#[test]
fn the_oldest_sessions_become_summaries_and_their_originals_are_hidden() {
    let (rig, sessions) = five_sessions();
    let calls = rig.calls_to(COMPRESS_PROMPT).len();
    let outcome = compress(&rig, json!({"groupId": "g1", "threshold": 4})).unwrap();
    assert_eq!(rig.calls_to(COMPRESS_PROMPT).len() - calls, 2, "one call per session, threshold / 2 sessions");
    assert_eq!(outcome.sessions, 5);
    let done: Vec<&str> = outcome.compressed.iter().map(|c| c.session_id.as_str()).collect();
    assert_eq!(done, [sessions[0].as_str(), sessions[1].as_str()], "the oldest first");
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    assert_eq!(outcome.compressed[0].summary, "Summary of Chat about topic 0");
    assert_eq!(outcome.compressed[0].start_time, time(0));
    assert!(rig.calls_to(COMPRESS_PROMPT)[0].user.starts_with("Conversation:\n["));

    assert_eq!(
        texts(&rig, json!({"groupId": "g1"})),
        ["Chat about topic 2", "Chat about topic 3", "Chat about topic 4"]
    );
    assert_eq!(texts(&rig, json!({"groupId": "g1", "includeCompressed": true})).len(), 5);
    let summaries = rig.get_all(json!({"groupId": "g1", "memoryType": "semantic"})).unwrap().results;
    assert_eq!(summaries.len(), 2);
    let summary = &summaries[0];
    assert_eq!(summary.id, outcome.compressed[0].summary_id);
    assert_eq!(
        (summary.metadata["sourceSessionId"].clone(), summary.metadata["compressionSource"].clone()),
        (json!(sessions[0]), json!(true))
    );
    assert_eq!(
        (summary.metadata["groupId"].clone(), summary.metadata["startTime"].clone()),
        (json!("g1"), json!(time(0)))
    );
    assert_eq!(summary.scope, group("g1"));

    let original_id = &outcome.compressed[0].memory_ids[0];
    let original = rig.memories(group("g1")).into_iter().find(|m| &m.id == original_id);
    assert!(original.is_none(), "hidden from reads by default");
    let shown = rig.get_all(json!({"runId": "g1", "includeCompressed": true})).unwrap().results;
    let original = shown.iter().find(|m| &m.id == original_id).unwrap();
    assert_eq!(
        (original.metadata["compressed"].clone(), original.metadata["compressedInto"].clone()),
        (json!(true), json!(summary.id))
    );
    let history = block_on(rig.engine.history(original_id)).unwrap();
    let events: Vec<EventKind> = history.iter().map(|h| h.event).collect();
    assert_eq!(events, [EventKind::Add, EventKind::Update], "the mark is an UPDATE; nothing is deleted");

    // Search and recall find the summary, not the original, unless asked.
    let search = |extra: Value| {
        let mut options = json!({"groupId": "g1", "method": "keyword"});
        options.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        rig.search("topic 0", options).unwrap().results.into_iter().map(|m| m.memory).collect::<Vec<_>>()
    };
    assert!(search(json!({})).contains(&"Summary of Chat about topic 0".to_owned()));
    assert!(!search(json!({})).contains(&"Chat about topic 0".to_owned()));
    assert!(search(json!({"include_compressed": true})).contains(&"Chat about topic 0".to_owned()));
    let recall = serde_json::from_value::<ReadOptions>(json!({"runId": "g1", "topK": 10}))
        .unwrap()
        .check(ReadCall::Recall)
        .unwrap();
    let recalled = block_on(rig.engine.recall("topic 0", &recall)).unwrap();
    assert!(recalled.memories.iter().all(|m| m.id != *original_id));

    // Three sessions left, not above the threshold: nothing to do, no call.
    let calls = rig.calls_to(COMPRESS_PROMPT).len();
    let again = compress(&rig, json!({"group_id": "g1", "threshold": 4})).unwrap();
    assert_eq!((again.sessions, again.compressed.len(), rig.calls_to(COMPRESS_PROMPT).len()), (3, 0, calls));
}

#[test]
fn a_session_whose_call_fails_stays_uncompressed_with_a_warning() {
    let (rig, sessions) = five_sessions();
    rig.doubles.llm.fail_when(|request| request.system == COMPRESS_PROMPT && request.user.contains("topic 1"));
    let outcome = compress(&rig, json!({"groupId": "g1", "threshold": 2, "sessionsToCompress": 3})).unwrap();
    let done: Vec<&str> = outcome.compressed.iter().map(|c| c.session_id.as_str()).collect();
    assert_eq!(done, [sessions[0].as_str(), sessions[2].as_str()]);
    assert_eq!(outcome.warnings.len(), 1);
    let warning = &outcome.warnings[0];
    assert_eq!((warning.code, warning.cause), (WarningCode::CompressionFailed, Some("LLM_HTTP")));
    assert!(warning.message.contains(&sessions[1]), "{}", warning.message);
    assert_eq!(
        texts(&rig, json!({"groupId": "g1"})),
        ["Chat about topic 1", "Chat about topic 3", "Chat about topic 4"]
    );
}

#[test]
fn one_compress_is_one_commit_and_bad_calls_change_nothing() {
    let (rig, _) = five_sessions();
    rig.doubles.storage.refuse_commits_after(0);
    assert_eq!(compress(&rig, json!({"groupId": "g1", "threshold": 1})).unwrap_err().code(), "STORAGE");
    assert_eq!(texts(&rig, json!({"groupId": "g1"})).len(), 5, "nothing of a refused commit is kept");
    rig.doubles.storage.refuse_commits_after(1);
    let outcome = compress(&rig, json!({"groupId": "g1", "threshold": 1, "sessionsToCompress": 4})).unwrap();
    assert_eq!(outcome.compressed.len(), 4, "four summaries and their marks in the one commit allowed");
    assert_eq!(rig.get_all(json!({"groupId": "g1", "memoryType": "semantic"})).unwrap().total_count, 4);

    let before = rig.doubles.storage.memories();
    for (options, code) in [
        (json!({"groupId": "g1"}), "INVALID_INPUT"),
        (json!({"groupId": "g1", "threshold": -1}), "INVALID_INPUT"),
        (json!({"groupId": "g1", "threshold": 1, "sessionsToCompress": 0}), "INVALID_INPUT"),
        (json!({"userId": "__all__", "groupId": "__all__", "threshold": 1}), "SCOPE_REQUIRED"),
        (json!({"runId": "g1", "groupId": "g2", "threshold": 1}), "INVALID_INPUT"),
    ] {
        assert_eq!(compress(&rig, options.clone()).unwrap_err().code(), code, "{options}");
    }
    assert_eq!(rig.doubles.storage.memories(), before);

    let engine = letter_engine(KeepingStorage::new());
    let options = serde_json::from_value::<CompressOptions>(json!({"userId": "u", "threshold": 0})).unwrap();
    assert_eq!(
        block_on(engine.conversations().compress(&options)).unwrap_err().code(),
        "INVALID_INPUT",
        "no LLM to summarise with"
    );
    let _ = MemoryType::Semantic;
}

#[test]
fn deleting_a_summary_shows_its_originals_again() {
    for soft in [false, true] {
        let (rig, _) = five_sessions();
        let outcome = compress(&rig, json!({"groupId": "g1", "threshold": 4})).unwrap();
        let (summary, originals) = (&outcome.compressed[0].summary_id, &outcome.compressed[0].memory_ids);
        assert!(!texts(&rig, json!({"groupId": "g1"})).contains(&"Chat about topic 0".to_owned()));
        block_on(rig.engine.delete(summary, soft)).unwrap();
        let shown = texts(&rig, json!({"groupId": "g1"}));
        assert!(shown.contains(&"Chat about topic 0".to_owned()), "soft {soft}: {shown:?}");
        assert!(!shown.contains(&"Chat about topic 1".to_owned()), "the other summary still covers its session");
        let found = rig.search("topic 0", json!({"groupId": "g1", "method": "keyword"})).unwrap().results;
        assert!(found.iter().any(|m| m.memory == "Chat about topic 0"), "soft {soft}: search finds it");
        let history = block_on(rig.engine.history(&originals[0])).unwrap();
        let events: Vec<EventKind> = history.iter().map(|h| h.event).collect();
        assert_eq!(events, [EventKind::Add, EventKind::Update, EventKind::Update], "the mark and its removal");
        // The uncovered session counts as uncompressed again.
        let reopened = rig.reopen();
        let all = block_on(
            reopened.get_all(&read_options(json!({"groupId": "g1"})).unwrap().check(ReadCall::GetAll).unwrap()),
        );
        assert!(all.unwrap().results.iter().any(|m| m.memory == "Chat about topic 0"), "soft {soft}: after reopening");
    }
}

#[test]
fn restoring_a_summary_hides_its_originals_again_and_brings_back_nothing_else() {
    let (rig, _) = five_sessions();
    let outcome = compress(&rig, json!({"groupId": "g1", "threshold": 4})).unwrap();
    let (first, second) = (&outcome.compressed[0], &outcome.compressed[1]);
    for done in [first, second] {
        block_on(rig.engine.delete(&done.summary_id, true)).unwrap();
    }
    // Meanwhile the first session's memory is deleted on its own.
    block_on(rig.engine.delete(&first.memory_ids[0], true)).unwrap();
    for done in [first, second] {
        block_on(rig.engine.restore(&done.summary_id)).unwrap();
    }
    let shown = texts(&rig, json!({"groupId": "g1", "memoryTypes": ["episodic", "semantic"]}));
    assert_eq!(
        shown,
        [
            "Chat about topic 2",
            "Chat about topic 3",
            "Chat about topic 4",
            "Summary of Chat about topic 0",
            "Summary of Chat about topic 1"
        ],
        "as before the summaries' delete: each summary in place of its session"
    );
    let original = block_on(rig.engine.get(&second.memory_ids[0])).unwrap().unwrap();
    assert_eq!(original.metadata["compressedInto"], json!(second.summary_id), "covered by its summary again");
    let history = block_on(rig.engine.history(&second.memory_ids[0])).unwrap();
    let events: Vec<EventKind> = history.iter().map(|h| h.event).collect();
    assert_eq!(
        events,
        [EventKind::Add, EventKind::Update, EventKind::Update, EventKind::Update],
        "marked, uncovered, marked"
    );
    let all = rig.get_all(json!({"groupId": "g1", "includeDeleted": true, "includeCompressed": true})).unwrap().results;
    let deleted = all.iter().find(|m| m.id == first.memory_ids[0]).unwrap();
    assert!(deleted.lifecycle.deleted_at.is_some(), "a memory deleted on its own stays deleted");
    assert!(deleted.metadata.get("compressedInto").is_none(), "and is not marked");
}
