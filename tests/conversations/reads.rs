//! The conversation API's reads of conversation memories through the engine, options checked as the binding checks them:
//! the fetch by type (`groupId`, `memoryType`, its defaults and maximum, pages, time ranges) and the search
//! options (time range, `radius`, `currentTime`, unsearchable profiles, the conversation API's `topK` cap).

use memwasm::core::engine::search::SearchResponse;
use memwasm::core::model::MemoryType;
use serde_json::{json, Value};

use super::rig::*;

fn texts(items: &[memwasm::core::model::types::MemoryItem]) -> Vec<&str> {
    items.iter().map(|m| m.memory.as_str()).collect()
}

fn found(response: &SearchResponse) -> Vec<&str> {
    texts(&response.results)
}

/// Episodes of g1 on days 0–4 ("Chat about topic N"); day 0's extraction also has an event-log fact, a
/// foresight item valid until 2025-01-16 and one until 2025-02-01, and a profile of alice.
fn five_days() -> Rig {
    let rig = Rig::new();
    rig.script.borrow_mut().episodes.push_back(json!({
        "summary": "Chat about topic 0 and coffee",
        "event_log": ["Alice drinks coffee daily"],
        "foresight": [
            {"text": "Alice will buy coffee beans", "valid_until": "2025-01-16"},
            {"text": "Alice will repair the coffee machine", "valid_until": "2025-02-01T00:00:00Z"}
        ],
        "profiles": [{"user_id": "alice", "attributes": [{"key": "likes", "value": "coffee"}]}]
    }));
    for day in 0..5 {
        rig.episode(&format!("m{day}"), day * DAY, &format!("topic {day}"));
    }
    rig
}

fn code<T: std::fmt::Debug>(result: memwasm::core::error::Result<T>) -> &'static str {
    result.unwrap_err().code()
}

#[test]
fn a_fetch_by_type_defaults_to_the_groups_episodes_forty_at_a_time() {
    let rig = five_days();
    let page = rig.get_all(json!({"groupId": "g1"})).unwrap();
    let all = [
        "Chat about topic 0 and coffee",
        "Chat about topic 1",
        "Chat about topic 2",
        "Chat about topic 3",
        "Chat about topic 4",
    ];
    assert_eq!(texts(&page.results), all, "episodic only, oldest first");
    assert_eq!((page.total_count, page.has_more), (5, false));
    let plain = rig.get_all(json!({"runId": "g1"})).unwrap();
    assert_eq!(plain.total_count, 9, "without groupId / memoryType every type, as before");
    let page = rig.get_all(json!({"group_id": "g1", "limit": 2, "offset": 2})).unwrap();
    assert_eq!(texts(&page.results), ["Chat about topic 2", "Chat about topic 3"]);
    assert_eq!((page.total_count, page.has_more), (5, true));
    let facts = rig.get_all(json!({"groupId": "g1", "memoryType": "event_log"})).unwrap();
    assert_eq!(texts(&facts.results), ["Alice drinks coffee daily"]);
    let profile = rig.get_all(json!({"userId": "alice", "groupId": "g1", "memory_type": "profile"})).unwrap();
    assert_eq!(profile.results[0].lifecycle.memory_type, MemoryType::Profile);
    let any_user = rig.get_all(json!({"userId": "__all__", "groupId": "g1"})).unwrap();
    assert_eq!(any_user.total_count, 5, "\"__all__\" is no id");
    let many: Vec<Value> = (0..45).map(|n| json!({"messageId": format!("x{n}"), "createTime": time(6 * DAY + n), "sender": "bob", "content": format!("note {n}"), "groupId": "g2"})).collect();
    for message in many {
        rig.add(message);
        block_on(rig.engine.conversations().flush_group("g2")).unwrap();
    }
    let page = rig.get_all(json!({"groupId": "g2"})).unwrap();
    assert_eq!((page.results.len(), page.total_count, page.has_more), (40, 45, true));
    assert_eq!(rig.get_all(json!({"groupId": "g2", "limit": 500})).unwrap().results.len(), 45);
    assert_eq!(code(rig.get_all(json!({"groupId": "g2", "limit": 501}))), "INVALID_INPUT");
    assert_eq!(rig.get_all(json!({"runId": "g2", "limit": 1000})).unwrap().results.len(), 45, "no cap without groupId");
}

#[test]
fn a_time_range_keeps_the_memories_whose_span_overlaps_it() {
    let rig = five_days();
    let range = json!({"groupId": "g1", "startTime": time(DAY), "endTime": time(3 * DAY)});
    let page = rig.get_all(range).unwrap();
    assert_eq!(texts(&page.results), ["Chat about topic 1", "Chat about topic 2", "Chat about topic 3"]);
    assert_eq!(page.total_count, 3);
    // The same instants in another zone; an open end.
    let shifted = |minute| memwasm::core::time::iso_from_millis(START + minute * MINUTE).replace(".000Z", "+00:00");
    let late = rig.get_all(json!({"groupId": "g1", "start_time": shifted(3 * DAY)})).unwrap();
    assert_eq!(texts(&late.results), ["Chat about topic 3", "Chat about topic 4"]);
    let early = rig.get_all(json!({"groupId": "g1", "endTime": "2025-01-15T12:00:00+02:00"})).unwrap();
    assert_eq!(texts(&early.results), ["Chat about topic 0 and coffee"], "10:00Z is 12:00+02:00");
    for bad in [
        json!({"groupId": "g1", "startTime": "2025-01-15T10:00:00"}),
        json!({"groupId": "g1", "endTime": "2025-01-15"}),
        json!({"groupId": "g1", "startTime": time(DAY), "endTime": time(0)}),
        json!({"groupId": "g1", "memoryType": "habit"}),
    ] {
        assert!(rig.get_all(bad.clone()).is_err(), "{bad}");
    }
}

#[test]
fn search_takes_a_time_range_a_radius_and_a_current_time() {
    let rig = five_days();
    let keyword = |extra: Value| {
        let mut options = json!({"groupId": "g1", "method": "keyword"});
        options.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        rig.search("coffee", options).unwrap()
    };
    let all = keyword(json!({}));
    assert_eq!(all.results.len(), 4, "episode, fact and both plans: {:?}", found(&all));
    assert!(all.results.iter().all(|m| m.lifecycle.memory_type != MemoryType::Profile), "profiles are not searched");
    assert_eq!(all.total_count, 8, "the pool leaves profiles out");
    // currentTime drops the plan that ran out (valid through 2025-01-16), not the other.
    let now = keyword(json!({"currentTime": "2025-01-20T00:00:00Z"}));
    assert_eq!(now.results.len(), 3);
    assert!(!found(&now).contains(&"Alice will buy coffee beans"));
    assert_eq!(keyword(json!({"current_time": "2025-01-16T23:59:59Z"})).results.len(), 4, "valid through its day");
    // Only day 0's memories mention coffee: a range after it finds none.
    assert!(keyword(json!({"startTime": time(DAY)})).results.is_empty());
    assert_eq!(keyword(json!({"endTime": time(0)})).results.len(), 4);

    // radius cuts the vector ranking: 0 keeps every cosine, 1 none (letter vectors never match exactly).
    let vector =
        |radius: f64| rig.search("coffee", json!({"groupId": "g1", "method": "vector", "radius": radius})).unwrap();
    assert_eq!(vector(0.0).results.len(), 8);
    assert!(vector(1.0).results.is_empty());
    // In a hybrid search the keyword side still counts.
    let hybrid = rig.search("coffee", json!({"groupId": "g1", "method": "hybrid", "radius": 1.0})).unwrap();
    assert_eq!(hybrid.results.len(), 4);
    // With keyword search there is no cosine to floor: radius is accepted and changes nothing.
    let keyword = |options: Value| rig.search("coffee", options).unwrap().results.len();
    assert_eq!(
        keyword(json!({"groupId": "g1", "radius": 0.5, "method": "keyword"})),
        keyword(json!({"groupId": "g1", "method": "keyword"}))
    );
    let bad = [
        json!({"groupId": "g1", "radius": 1.5}),
        json!({"groupId": "g1", "topK": 101}),
        json!({"groupId": "g1", "memoryTypes": ["profile"]}),
        json!({"groupId": "g1", "startTime": "yesterday"}),
        json!({"userId": "__all__", "groupId": "__all__"}),
        json!({"groupId": "g1", "runId": "g2"}),
    ];
    for options in bad {
        let error = rig.search("coffee", options.clone()).unwrap_err();
        assert!(["INVALID_INPUT", "SCOPE_REQUIRED"].contains(&error.code()), "{options}: {error}");
    }
    assert_eq!(rig.search("coffee", json!({"groupId": "g1", "topK": 100})).unwrap().results.len(), 8);
    assert_eq!(
        rig.search("coffee", json!({"runId": "g1", "topK": 101})).unwrap().results.len(),
        8,
        "cap with groupId only"
    );
}

use futures_executor::block_on;

#[test]
fn a_participant_reads_the_group_memories_that_involve_them_and_can_leave_them() {
    let rig = Rig::new();
    rig.send("m1", 0, "alice", "Shall we pick espresso beans for the coffee corner?");
    rig.send("m2", 1, "bob", "Yes, espresso beans it is");
    block_on(rig.engine.conversations().flush_group("g1")).unwrap();
    let texts = |response: Vec<memwasm::core::model::types::MemoryItem>| {
        response.into_iter().map(|m| m.memory).collect::<Vec<_>>()
    };
    let episodes_of = |who: &str, extra: Value| {
        let mut options = json!({"userId": who, "memoryType": "episodic"});
        options.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        texts(rig.get_all(options).unwrap().results)
    };
    let everyone = texts(rig.get_all(json!({"groupId": "g1"})).unwrap().results);
    assert_eq!(everyone.len(), 1, "one episode of the group: {everyone:?}");
    assert_eq!(episodes_of("bob", json!({})), everyone, "bob took part: his reads see it");
    assert_eq!(episodes_of("bob", json!({"groupId": "g1"})), everyone);
    assert!(episodes_of("carol", json!({})).is_empty(), "carol did not");
    assert!(episodes_of("bob", json!({"groupId": "g2"})).is_empty(), "another group");
    let found = rig.search("espresso beans", json!({"userId": "bob", "groupId": "g1", "method": "keyword"})).unwrap();
    assert_eq!(texts(found.results), everyone);
    let none = rig.search("espresso beans", json!({"userId": "carol", "groupId": "g1", "method": "keyword"})).unwrap();
    assert!(none.results.is_empty());

    // Deleting bob's memories in the group takes him off the group's episode, which stays the group's.
    let filter: memwasm::core::conversations::DeleteFilter =
        serde_json::from_value(json!({"userId": "bob", "groupId": "g1"})).unwrap();
    block_on(rig.engine.conversations().delete_memories(&filter)).unwrap();
    assert!(episodes_of("bob", json!({"groupId": "g1"})).is_empty());
    assert_eq!(texts(rig.get_all(json!({"groupId": "g1"})).unwrap().results), everyone);
}
