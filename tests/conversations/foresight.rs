//! Foresight that a later episode changes: the extraction is shown the group's current plans and names the
//! one a new plan replaces; the old plan is ended (its `validUntil` becomes the time of the change, with
//! `supersededBy` and an UPDATE in its history), so a read at a `currentTime` after the change finds only
//! the new plan.

use futures_executor::block_on;
use memwasm::core::conversations::prompts::EPISODE_PROMPT;
use memwasm::core::model::types::{EventKind, MemoryItem};
use memwasm::core::model::MemoryType;
use serde_json::{json, Value};

use super::rig::*;

fn reply(summary: &str, foresight: Value) -> Value {
    json!({"summary": summary, "event_log": [], "foresight": foresight, "profiles": []})
}

fn texts(items: &[MemoryItem]) -> Vec<&str> {
    items.iter().map(|m| m.memory.as_str()).collect()
}

const OLD: &str = "Alice will run the database cutover on 2025-03-10";
const NEW: &str = "Alice will run the database cutover on 2025-03-12";

/// Day 0 plans the cutover for 03-10; day 1 moves it to 03-12, naming plan 1 as the one it replaces.
fn moved_cutover(rig: &Rig) {
    let mut script = rig.script.borrow_mut();
    script.episodes.push_back(reply("Alice planned the cutover", json!([{"text": OLD, "valid_until": "2025-03-10"}])));
    let moved = json!([{"text": NEW, "valid_until": "2025-03-12", "replaces": ["1"]}]);
    script.episodes.push_back(reply("Alice moved the cutover", moved));
    drop(script);
    rig.episode("m0", 0, "the cutover is on march 10");
    rig.episode("m1", DAY, "the cutover moves from march 10 to march 12");
}

#[test]
fn a_plan_a_later_episode_replaces_ends_at_the_change() {
    let rig = Rig::new();
    moved_cutover(&rig);

    let plans = |now: &str| {
        let options = json!({"groupId": "g1", "memoryType": "foresight", "currentTime": now});
        rig.get_all(options).unwrap().results
    };
    assert_eq!(texts(&plans("2025-03-09T00:00:00Z")), [NEW], "the moved plan only");
    assert_eq!(texts(&plans(&time(DAY - 60))), [OLD, NEW], "before the change the old plan was live");
    let search = rig.search("cutover", json!({"groupId": "g1", "currentTime": "2025-03-09T00:00:00Z"})).unwrap();
    let found: Vec<&MemoryItem> =
        search.results.iter().filter(|m| m.lifecycle.memory_type == MemoryType::Foresight).collect();
    assert_eq!(found.iter().map(|m| m.memory.as_str()).collect::<Vec<_>>(), [NEW]);

    let prompt = &rig.calls_to(EPISODE_PROMPT)[1].user;
    assert!(prompt.contains(&format!("Current plans:\n- [1] {OLD} (valid until 2025-03-10)\n")), "{prompt}");
    let all = rig.get_all(json!({"groupId": "g1", "memoryType": "foresight"})).unwrap().results;
    let (old, new) = (&all[0], &all[1]);
    assert_eq!(old.memory, OLD, "nothing is deleted: the old plan is kept, ended");
    assert_eq!(old.metadata["validUntil"], json!(time(DAY)), "ended at the change (the episode's end)");
    assert_eq!(old.metadata["supersededBy"], json!(new.id));
    assert_eq!(new.metadata["validUntil"], "2025-03-12");
    let history = block_on(rig.engine.history(&old.id)).unwrap();
    assert_eq!(history.iter().map(|r| r.event).collect::<Vec<_>>(), [EventKind::Add, EventKind::Update]);
}

#[test]
fn the_episode_reports_the_ended_plan_and_later_episodes_no_longer_see_it() {
    let rig = Rig::new();
    let mut script = rig.script.borrow_mut();
    script.episodes.push_back(reply("plans", json!([{"text": OLD, "valid_until": "2025-03-10"}])));
    drop(script);
    rig.episode("m0", 0, "the cutover is on march 10");
    let moved = json!([{"text": NEW, "valid_until": "2025-03-12", "replaces": [1, "7"]}]);
    rig.script.borrow_mut().episodes.push_back(reply("moved", moved));
    rig.send("m1", DAY, "alice", "the cutover moves to march 12");
    let outcome = block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    let events: Vec<(EventKind, MemoryType, &str)> =
        outcome.memories.iter().map(|m| (m.event.event, m.memory_type, m.event.memory.as_str())).collect();
    assert_eq!(
        events,
        [
            (EventKind::Add, MemoryType::Episodic, "moved"),
            (EventKind::Add, MemoryType::Foresight, NEW),
            (EventKind::Update, MemoryType::Foresight, OLD)
        ]
    );
    assert!(
        outcome.warnings.iter().any(|w| w.message.contains("\"7\"")),
        "an unknown plan number is ignored with a warning: {:?}",
        outcome.warnings
    );
    rig.episode("m2", 2 * DAY, "lunch?");
    let prompt = &rig.calls_to(EPISODE_PROMPT)[2].user;
    assert!(prompt.contains(&format!("Current plans:\n- [1] {NEW} (valid until 2025-03-12)\n")), "{prompt}");
    assert!(!prompt.contains(OLD), "an ended plan is not shown again: {prompt}");
}
