use serde_json::json;

use super::*;

#[test]
fn extracts_json_from_what_llms_send() {
    let corpus = [
        (r#"{"facts": ["a"]}"#, json!({"facts": ["a"]})),
        ("```json\n{\"facts\": [\"a\"]}\n```", json!({"facts": ["a"]})),
        ("```\n[\"a\", \"b\"]\n```\nDone.", json!(["a", "b"])),
        ("<think>The user said {maybe} [stuff]</think>\n{\"facts\": []}", json!({"facts": []})),
        ("<think>a</think><think>b</think>[1]", json!([1])),
        ("Sure! Here are the facts: [\"x\"] Hope that helps.", json!(["x"])),
        ("Result: {broken [\"ok\"]", json!(["ok"])),
        ("  \n [ ] \n", json!([])),
        (
            "Here {\"memory\": [{\"event\": \"ADD\", \"text\": \"t\"}]} end",
            json!({"memory": [{"event": "ADD", "text": "t"}]}),
        ),
    ];
    for (reply, expected) in corpus {
        assert_eq!(extract_json(reply), Some(expected), "{reply}");
    }
    for reply in ["", "no json here", "<think>{\"facts\": []}", "{unterminated"] {
        assert!(extract_json(reply).is_none(), "{reply}");
    }
    assert_eq!(extract_json(" 42 "), Some(json!(42)), "a bare scalar is JSON; parse_facts rejects it");
}

#[test]
fn facts_accept_both_shapes_and_reject_wrong_types() {
    assert_eq!(parse_facts(r#"{"facts": ["A", " B ", "", "A"]}"#).unwrap(), ["A", "B"]);
    assert_eq!(parse_facts(r#"["User likes tea"]"#).unwrap(), ["User likes tea"]);
    assert_eq!(parse_facts("```json\n{\"facts\": []}\n```").unwrap(), Vec::<String>::new());
    for bad in [
        r#"{"facts": 5}"#,
        r#"{"facts": "x"}"#,
        r#"{"fact": []}"#,
        r#"[1, 2]"#,
        r#"["ok", {"a": 1}]"#,
        "42",
        "nothing",
        r#""str""#,
    ] {
        assert!(parse_facts(bad).is_err(), "{bad}");
    }
}

#[test]
fn decisions_accept_mem0_and_seed_shapes() {
    let mem0 = r#"{"memory":[{"id":"0","text":"User lives in SF","event":"UPDATE","old_memory":"User lives in NYC"},
        {"id":"1","text":"same","event":"NONE"},{"id":2,"event":"delete"},{"text":"new","event":"ADD"}]}"#;
    let decisions: Vec<_> = parse_decisions(mem0).unwrap().into_iter().map(Result::unwrap).collect();
    assert_eq!(
        decisions[0],
        Decision { event: EventKind::Update, id: Some("0".into()), text: Some("User lives in SF".into()) }
    );
    assert_eq!(decisions[1].event, EventKind::None);
    assert_eq!(decisions[2], Decision { event: EventKind::Delete, id: Some("2".into()), text: None });
    assert_eq!(decisions[3], Decision { event: EventKind::Add, id: None, text: Some("new".into()) });

    let seed =
        r#"[{"event":"ADD","data":"fact"},{"event":"UPDATE","id":"0","old_memory":"o","data":"n"},{"event":"NONE"}]"#;
    let decisions: Vec<_> = parse_decisions(seed).unwrap().into_iter().map(Result::unwrap).collect();
    assert_eq!(decisions[0].text.as_deref(), Some("fact"));
    assert_eq!(decisions[1].text.as_deref(), Some("n"));
    assert_eq!(decisions[2], Decision { event: EventKind::None, id: None, text: None });
    assert_eq!(parse_decisions(r#"{"events": []}"#).unwrap().len(), 0);
}

#[test]
fn bad_decision_entries_are_reported_one_by_one() {
    let entries =
        parse_decisions(r#"[{"event":"MERGE","id":"0"}, "ADD", {"id":"1"}, {"event":"ADD","text":"ok"}]"#).unwrap();
    assert!(entries[0].as_ref().unwrap_err().to_string().contains("MERGE"));
    assert!(entries[1].is_err() && entries[2].is_err() && entries[3].is_ok());
    for bad in ["nothing", r#"{"facts": []}"#, r#"{"memory": "x"}"#, "7"] {
        assert!(parse_decisions(bad).is_err(), "{bad}");
    }
}
