use super::*;

fn scope(user: &str) -> Scope {
    Scope { user_id: Some(user.into()), ..Scope::default() }
}

fn turn(text: &str) -> Vec<Message> {
    vec![Message::new("user", text)]
}

fn settings() -> BackgroundSettings {
    BackgroundSettings { debounce_ms: 2000, concurrency: 2, max_retries: 2, base_delay_ms: 100, max_delay_ms: 150 }
}

#[test]
fn turns_within_the_debounce_window_become_one_batch() {
    let mut queue = Queue::new(settings());
    for i in 0..10 {
        queue.push(&scope("u"), turn(&format!("turn {i}")), 1_000 + i * 100);
    }
    assert!(queue.take_due(3_899).is_empty(), "due 2000 ms after the last turn (at 1900)");
    assert_eq!(queue.next_due(), Some(3_900));
    let due = queue.take_due(3_900);
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].messages.len(), 10);
    assert_eq!(due[0].messages[9].content, "turn 9");
    assert!(!queue.is_idle(), "running until settled");
    assert_eq!(queue.settle(due[0].clone(), Ran::Ok, 4_000), Settled::Done);
    assert!(queue.is_idle());
}

#[test]
fn scopes_run_concurrently_up_to_the_limit_and_one_batch_per_scope() {
    let mut queue = Queue::new(settings());
    for user in ["a", "b", "c"] {
        queue.push(&scope(user), turn(user), 0);
    }
    let first = queue.take_due(5_000);
    assert_eq!(first.len(), 2);
    assert_eq!(queue.running(), 2);
    assert!(queue.take_due(5_000).is_empty(), "no free slot");
    queue.push(&scope("a"), turn("a again"), 5_000);
    assert_eq!(queue.unwritten(&scope("a")).unwrap().messages.len(), 2, "running and waiting turns persist together");
    queue.settle(first[0].clone(), Ran::Ok, 5_001);
    let next = queue.take_due(5_001);
    assert_eq!(next.iter().map(|b| b.scope.user_id.clone().unwrap()).collect::<Vec<_>>(), ["c"]);
    assert!(queue.take_due(7_000).is_empty(), "a's new turn waits: the slot limit is reached");
    queue.settle(first[1].clone(), Ran::Ok, 7_000);
    assert_eq!(queue.take_due(7_000)[0].messages[0].content, "a again");
}

#[test]
fn a_failed_batch_is_retried_with_a_doubling_capped_delay_then_given_up() {
    let mut queue = Queue::new(settings());
    queue.push(&scope("u"), turn("one"), 0);
    let batch = queue.take_due(2_000).remove(0);
    assert_eq!(queue.settle(batch, Ran::Failed, 2_000), Settled::Retrying);
    assert_eq!(queue.next_due(), Some(2_100));
    queue.push(&scope("u"), turn("two"), 2_050);
    let batch = queue.take_due(4_050).remove(0);
    assert_eq!((batch.attempts, batch.messages.len()), (1, 2), "the retry carries the newer turn too");
    assert_eq!(queue.settle(batch, Ran::Failed, 4_050), Settled::Retrying);
    assert_eq!(queue.next_due(), Some(4_200), "200 ms doubled, capped at 150");
    let batch = queue.take_due(4_200).remove(0);
    assert_eq!(queue.settle(batch, Ran::Failed, 4_200), Settled::GaveUp(3));
    assert!(queue.is_idle() && queue.unwritten(&scope("u")).is_none());
}

#[test]
fn restored_batches_keep_their_turns_unless_the_scope_already_waits() {
    let mut queue = Queue::new(settings());
    let kept = Batch { scope: scope("u"), messages: turn("old"), due_after: 10, attempts: 1 };
    queue.restore(kept.clone());
    queue.restore(Batch { messages: turn("other"), ..kept.clone() });
    assert_eq!(queue.take_due(10), vec![kept]);
}

#[test]
fn a_batch_that_failed_for_good_is_given_up_at_once() {
    let mut queue = Queue::new(settings());
    queue.push(&scope("u"), turn("one"), 0);
    let batch = queue.take_due(2_000).remove(0);
    assert_eq!(queue.settle(batch, Ran::FailedForGood, 2_000), Settled::GaveUp(1));
    assert!(queue.is_idle() && queue.unwritten(&scope("u")).is_none());
}

#[test]
fn a_batch_that_failed_for_now_is_held_until_the_next_flush_of_any_scope() {
    let mut queue = Queue::new(settings());
    queue.push(&scope("u"), turn("one"), 0);
    let batch = queue.take_due(2_000).remove(0);
    assert_eq!(queue.settle(batch, Ran::Spent, 2_000), Settled::Held);
    assert!(queue.is_idle(), "nothing runs until the next flush");
    assert_eq!(queue.next_due(), None, "no timer");
    assert!(queue.take_due(1_000_000).is_empty());
    assert_eq!(queue.unwritten(&scope("u")).unwrap().attempts, 1, "kept, its attempt counted");

    queue.push(&scope("other"), turn("hi"), 3_000);
    let due: Vec<_> = queue.take_due(5_000).into_iter().map(|b| (b.scope.user_id.clone().unwrap(), b)).collect();
    let names: Vec<&str> = due.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["other", "u"], "another scope's flush takes the held batch along");
    for (_, batch) in due {
        let ran = if batch.scope == scope("u") { Ran::Spent } else { Ran::Ok };
        queue.settle(batch, ran, 5_000);
    }
    assert_eq!(queue.unwritten(&scope("u")).unwrap().attempts, 2);
    queue.push(&scope("u"), turn("last"), 6_000);
    let batch = queue.take_due(8_000).remove(0);
    assert_eq!(batch.messages.len(), 2);
    assert_eq!(queue.settle(batch, Ran::Spent, 8_000), Settled::GaveUp(3), "within retry.maxRetries");
    assert!(queue.is_idle() && queue.unwritten(&scope("u")).is_none());
}
