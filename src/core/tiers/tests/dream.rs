//! Journals, dreams and the background writer's batches.

use super::*;
use crate::core::model::types::EventKind;

/// Extraction finds one fact per user line; decisions add every fact; dreams rewrite the profile.
fn responder(request: &LlmRequest<'_>) -> String {
    match request.reply.map(|shape| shape.name) {
        Some("record_facts") => {
            let lines = request.user.lines().filter_map(|l| l.strip_prefix("user: "));
            json!({ "facts": lines.collect::<Vec<_>>() }).to_string()
        }
        Some("record_memory_operations") => {
            let facts = request.user.split("New facts:\n").nth(1).and_then(|rest| rest.lines().next());
            let facts: Vec<String> = facts.and_then(|line| serde_json::from_str(line).ok()).unwrap_or_default();
            let adds: Vec<_> = facts.iter().map(|f| json!({"event": "ADD", "text": f})).collect();
            json!({ "memory": adds }).to_string()
        }
        Some("consolidate_memory") => {
            let days = request.user.matches("# Journal").count();
            let profile = format!("# Alice\n- dreamt over {days} journal(s)");
            json!({"profile": profile, "facts": ["Alice lives in Lisbon"], "reason": "moved"}).to_string()
        }
        _ => "{}".into(),
    }
}

fn flush(engine: &Engine, background: &Background, text: &str) {
    block_on(engine.tiers().flush_turns(background, &alice(), vec![turn("user", text)])).unwrap();
}

#[test]
fn flushed_turns_are_journaled_per_day_and_listed() {
    let world = World::new(responder);
    let engine = world.engine();
    let background = Background::new(BackgroundSettings::default());
    flush(&engine, &background, "I moved to Lisbon");
    world.advance(86_400_000);
    flush(&engine, &background, "I like <b>tea</b>");
    flush(&engine, &background, "and cake");
    let today = block_on(engine.tiers().journal(&alice(), None)).unwrap().unwrap();
    assert!(today.starts_with("# Journal 2026-11-24\n"), "{today}");
    assert!(today.contains("- **user:** I like <b>tea</b>\n") && today.contains("- **user:** and cake"));
    let first = block_on(engine.tiers().journal(&alice(), Some("2026-11-23"))).unwrap().unwrap();
    assert!(first.contains("## 09:00:00 UTC\n- **user:** I moved to Lisbon"), "{first}");
    assert_eq!(block_on(engine.tiers().journal(&alice(), Some("2026-11-22"))).unwrap(), None);
    let days = block_on(engine.tiers().journals(&alice(), None)).unwrap();
    let listed: Vec<(&str, usize)> = days.iter().map(|d| (d.date.as_str(), d.turns)).collect();
    assert_eq!(listed, [("2026-11-23", 1), ("2026-11-24", 2)]);
    assert_eq!(block_on(engine.tiers().journals(&alice(), Some("2026-11-24"))).unwrap().len(), 1);
    let bob = Scope { user_id: Some("bob".into()), ..Scope::default() };
    assert!(block_on(engine.tiers().journals(&bob, None)).unwrap().is_empty(), "journals are per scope");
    assert_eq!(block_on(engine.tiers().scopes_to_dream()).unwrap(), vec![alice()]);
}

#[test]
fn a_dream_rewrites_the_profile_once_and_never_reprocesses_a_journal() {
    let world = World::new(responder);
    let engine = world.engine();
    let background = Background::new(BackgroundSettings::default());
    flush(&engine, &background, "I moved to Lisbon");
    let first = block_on(engine.tiers().dream(&alice(), 1)).unwrap();
    assert!(first.dreamed);
    assert_eq!(first.journals, ["2026-11-23"]);
    assert_eq!(first.profile.as_ref().unwrap().markdown, "# Alice\n- dreamt over 1 journal(s)");
    assert_eq!(first.results.len(), 1);
    assert_eq!(first.results[0].memory, "Alice lives in Lisbon");
    assert_eq!(world.calls("consolidate_memory"), 1);
    assert_eq!(block_on(engine.history(&first.results[0].id)).unwrap().len(), 1, "applied with history");
    let stored = block_on(engine.get(&first.results[0].id)).unwrap().unwrap();
    assert_eq!(stored.metadata.get("source"), Some(&json!("dream")));

    let calls = world.doubles.llm.calls().len();
    let again = block_on(engine.tiers().dream(&alice(), 1)).unwrap();
    assert!(!again.dreamed && again.results.is_empty());
    assert_eq!(world.doubles.llm.calls().len(), calls, "a second dream over the same journals makes no call");
    assert_eq!(again.profile, first.profile);
    assert!(block_on(engine.tiers().scopes_to_dream()).unwrap().is_empty());
    assert!(block_on(engine.tiers().journals(&alice(), None)).unwrap()[0].consolidated);

    world.advance(86_400_000);
    flush(&engine, &background, "I adopted a cat");
    let reopened = world.engine();
    let next = block_on(reopened.tiers().dream(&alice(), 1)).unwrap();
    assert_eq!(next.journals, ["2026-11-24"], "only the new journal is sent, after a reopen too");
    let calls = world.doubles.llm.calls();
    let prompt = calls.iter().rev().find(|c| c.reply == Some("consolidate_memory")).unwrap();
    assert!(prompt.user.contains("dreamt over 1 journal(s)") && !prompt.user.contains("I moved to Lisbon"));
    let diary = block_on(reopened.tiers().dream_diary(&alice())).unwrap();
    assert_eq!(diary.len(), 2);
    assert_eq!((diary[0].reason.as_str(), diary[0].profile_changed, diary[1].profile_changed), ("moved", true, false));
    assert_eq!(block_on(reopened.tiers().core_profile(&alice())).unwrap(), next.profile);
}

#[test]
fn a_failed_dream_writes_nothing() {
    let world = World::new(responder);
    let engine = world.engine();
    flush(&engine, &Background::default(), "I moved to Lisbon");
    world.doubles.llm.fail_when(|_| true);
    assert_eq!(block_on(engine.tiers().dream(&alice(), 1)).unwrap_err().code(), "LLM_HTTP");
    world.doubles.llm.fail_when(|_| false);
    world.doubles.llm.queue("not json");
    assert_eq!(block_on(engine.tiers().dream(&alice(), 1)).unwrap_err().code(), "LLM_RESPONSE");
    assert_eq!(block_on(engine.tiers().core_profile(&alice())).unwrap(), None);
    assert_eq!(block_on(engine.tiers().scopes_to_dream()).unwrap(), vec![alice()], "still to dream");
}

#[test]
fn ten_flushes_make_one_add_and_a_failed_model_call_is_not_retried_twice() {
    let world = World::new(responder);
    let engine = world.engine();
    let background = Background::new(BackgroundSettings { max_retries: 1, ..BackgroundSettings::default() });
    for i in 0..10 {
        flush(&engine, &background, &format!("fact number {i}"));
        world.advance(100);
    }
    assert!(background.queue.borrow_mut().take_due(world.now.get()).is_empty(), "still debouncing");
    world.advance(2_000);
    let due = background.queue.borrow_mut().take_due(world.now.get());
    assert_eq!(due.len(), 1);
    let BatchOutcome::Changed { result, .. } = block_on(engine.tiers().run_batch(&background, due[0].clone())) else {
        panic!("the add ran")
    };
    assert_eq!(result.results.len(), 10);
    assert_eq!(world.calls("record_facts"), 1, "one extraction for ten turns");
    assert!(block_on(engine.side_records(QUEUE)).unwrap().is_empty(), "nothing left to resume");

    // A model call that failed for now after its own retries is not run again by a timer (one retry budget
    // per call): its turns are held for the next flush, which takes them along.
    world.doubles.llm.fail_when(|request| request.reply.is_some_and(|r| r.name == "record_facts"));
    flush(&engine, &background, "held over");
    world.advance(2_000);
    let batch = background.queue.borrow_mut().take_due(world.now.get()).remove(0);
    let outcome = block_on(engine.tiers().run_batch(&background, batch));
    let held = matches!(&outcome, BatchOutcome::Failed { retrying: false, kept: true, attempts: 1, failure, .. } if failure.code == "LLM_HTTP" && failure.status == Some(500));
    assert!(held, "{outcome:?}");
    assert!(background.queue.borrow().is_idle(), "nothing runs until the next flush");
    assert_eq!(background.queue.borrow().next_due(), None, "no timer for a held batch");
    assert_eq!(block_on(engine.side_records(QUEUE)).unwrap().len(), 1, "held: its turns stay persisted");
    world.doubles.llm.fail_when(|_| false);
    flush(&engine, &background, "and a new turn");
    world.advance(2_000);
    let batch = background.queue.borrow_mut().take_due(world.now.get()).remove(0);
    let said: Vec<&str> = batch.messages.iter().map(|m| m.content.as_str()).collect();
    assert!(said.iter().any(|m| m.contains("held over")) && said.iter().any(|m| m.contains("a new turn")), "{said:?}");
    let outcome = block_on(engine.tiers().run_batch(&background, batch));
    assert!(matches!(&outcome, BatchOutcome::Changed { .. }), "{outcome:?}");
    assert!(block_on(engine.side_records(QUEUE)).unwrap().is_empty(), "written: nothing to resume");

    // A reply that could not be read is worth another run, up to `retry.maxRetries`.
    world.doubles.llm.fail_when(|_| false);
    world.doubles.llm.queue("not json");
    world.doubles.llm.queue("still not json");
    flush(&engine, &background, "unreadable");
    world.advance(2_000);
    let batch = background.queue.borrow_mut().take_due(world.now.get()).remove(0);
    let outcome = block_on(engine.tiers().run_batch(&background, batch));
    let retrying = matches!(&outcome, BatchOutcome::Failed { retrying: true, attempts: 1, failure, .. } if failure.code == "LLM_RESPONSE");
    assert!(retrying, "{outcome:?}");
    assert_eq!(block_on(world.engine().side_records(QUEUE)).unwrap().len(), 1, "the failed turns stay persisted");
    world.advance(1_000);
    let batch = background.queue.borrow_mut().take_due(world.now.get()).remove(0);
    let outcome = block_on(engine.tiers().run_batch(&background, batch));
    assert!(matches!(&outcome, BatchOutcome::Failed { retrying: false, attempts: 2, .. }), "{outcome:?}");
    assert!(background.queue.borrow().is_idle());
}

#[test]
fn a_reopened_memory_resumes_the_persisted_queue() {
    let world = World::new(responder);
    flush(&world.engine(), &Background::default(), "I moved to Lisbon");
    let reopened = world.engine();
    let resumed = Background::default();
    assert_eq!(block_on(reopened.tiers().resume_background(&resumed)).unwrap(), 1);
    let batch = resumed.queue.borrow_mut().take_due(world.now.get()).remove(0); // due at once, debounce or not
    assert!(matches!(block_on(reopened.tiers().run_batch(&resumed, batch)), BatchOutcome::Changed { .. }));
    let page = block_on(reopened.get_all(&crate::core::read::Read::of(alice(), 100))).unwrap();
    assert_eq!(page.results.len(), 1);
}

#[test]
fn a_batch_over_the_add_limit_runs_as_several_adds_and_oversized_turns_are_refused_at_flush() {
    let world = World::new(responder);
    let engine = world.engine();
    let background = Background::default();
    let turns: Vec<Message> = (0..1_200).map(|i| turn("user", &format!("fact number {i}"))).collect();
    block_on(engine.tiers().flush_turns(&background, &alice(), turns)).unwrap();
    world.advance(5_000);
    let batch = background.queue.borrow_mut().take_due(world.now.get()).remove(0);
    let BatchOutcome::Changed { result, .. } = block_on(engine.tiers().run_batch(&background, batch)) else {
        panic!("every part ran")
    };
    let count = |kind: EventKind| result.results.iter().filter(|event| event.event == kind).count();
    assert_eq!(count(EventKind::Add), 1_200);
    assert_eq!(count(EventKind::Delete), 700, "the fact budget (500) kept, and the result says what it took");
    assert_eq!(world.calls("record_facts"), 3, "1,200 turns: three adds of at most 500");
    let huge = turn("user", &"x".repeat(crate::core::limits::MAX_MESSAGE_BYTES + 1));
    let error = block_on(engine.tiers().flush_turns(&background, &alice(), vec![huge])).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT");
    assert!(background.queue.borrow().unwritten(&alice()).is_none(), "nothing queued");
}

#[test]
fn the_dream_reply_reads_as_json_builds_it() {
    let schema = json!({
        "type": "object",
        "properties": {
            "profile": {"type": "string"},
            "facts": {"type": "array", "items": {"type": "string"}},
            "reason": {"type": "string"},
        },
        "required": ["profile", "facts", "reason"],
    });
    assert_eq!(crate::core::tiers::prompts::dream_reply().schema, schema);
}
