use serde_json::json;

use super::*;

#[test]
fn boundary_replies_are_read_robustly() {
    assert_eq!(parse_boundary(r#"{"boundary": true, "reason": "new topic"}"#).unwrap(), Some("new topic".into()));
    assert_eq!(parse_boundary("```json\n{\"boundary\": false, \"reason\": \"same\"}\n```").unwrap(), None);
    assert_eq!(parse_boundary(r#"<think>hmm</think> {"boundary": "true"}"#).unwrap(), Some(String::new()));
    for bad in [r#"{"facts": [], "memory": []}"#, "yes", r#"{"boundary": "maybe"}"#, "[true]"] {
        assert_eq!(parse_boundary(bad).unwrap_err().code(), "LLM_RESPONSE", "{bad}");
    }
}

#[test]
fn an_extraction_reply_gives_every_kind() {
    let reply = json!({
        "title": "Launch planning",
        "summary": "On 2025-01-15 Alice and Bob planned the launch.",
        "event_log": ["Alice moved the launch to 2025-02-03", " ", "Alice moved the launch to 2025-02-03"],
        "foresight": [
            {"text": "Bob will send the deck", "valid_from": "2025-01-16", "valid_until": "2025-01-17T18:00:00+01:00",
             "replaces": ["1", 3, " "]},
            {"text": "Demo next week", "valid_until": "next week"},
            "Alice plans a retro"
        ],
        "profiles": [
            {"user_id": "alice", "attributes": [{"key": "occupation", "value": "tech lead"}, {"key": "likes", "value": ""}]},
            {"userId": "bob", "attributes": {"skills": ["rust", "sql"], "age": 41}}
        ]
    });
    let extraction = parse_extraction(&reply.to_string()).unwrap();
    assert_eq!(extraction.title.as_deref(), Some("Launch planning"));
    assert_eq!(extraction.event_log, ["Alice moved the launch to 2025-02-03"]);
    assert_eq!(
        extraction.foresight[0],
        ForesightItem {
            text: "Bob will send the deck".into(),
            valid_from: Some("2025-01-16".into()),
            valid_until: Some("2025-01-17T17:00:00.000Z".into()),
            replaces: vec!["1".into(), "3".into()],
        }
    );
    assert_eq!(extraction.foresight[1].valid_until, None, "not a date: dropped");
    assert_eq!(extraction.foresight[2].text, "Alice plans a retro");
    let replaces = |value| labels(Some(&value));
    assert_eq!(
        (replaces(json!("[2]")), replaces(json!(4)), replaces(json!({}))),
        (vec!["2".into()], vec!["4".into()], vec![])
    );
    assert_eq!(
        extraction.profiles[0].attributes,
        [("occupation".into(), Some("tech lead".into())), ("likes".into(), None)]
    );
    assert_eq!(extraction.profiles[1].user, "bob");
    assert_eq!(
        extraction.profiles[1].attributes,
        [("age".into(), Some("41".into())), ("skills".into(), Some("rust, sql".into()))]
    );
}

#[test]
fn an_extraction_reply_needs_at_least_one_known_key() {
    let sparse = parse_extraction(r#"{"summary": "They talked."}"#).unwrap();
    assert_eq!((sparse.summary.as_deref(), sparse.event_log.len()), (Some("They talked."), 0));
    for bad in [r#"{"facts": [], "memory": []}"#, "no json", "[1, 2]"] {
        assert_eq!(parse_extraction(bad).unwrap_err().code(), "LLM_RESPONSE", "{bad}");
    }
    assert_eq!(normalize_when(Some(&json!("2025-02-30"))), None);
}
