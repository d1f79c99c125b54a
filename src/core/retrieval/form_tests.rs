use serde_json::{json, Value};

use crate::core::error::Result;
use crate::core::fusion::Method;
use crate::core::model::scope::Scope;
use crate::core::model::MemoryType;
use crate::core::read::{Read, ReadCall, ReadOptions, DEFAULT_LIMIT};

fn check(value: Value, call: ReadCall) -> Result<Read> {
    serde_json::from_value::<ReadOptions>(value).unwrap().check(call)
}

fn code(value: Value, call: ReadCall) -> &'static str {
    check(value.clone(), call).map(|_| "ok").unwrap_or_else(|e| e.code())
}

#[test]
fn group_id_is_the_run_scope_and_all_is_no_id() {
    let read = check(json!({"groupId": "g"}), ReadCall::GetAll).unwrap();
    assert_eq!(read.scope, Scope { run_id: Some("g".into()), ..Scope::default() });
    let read = check(json!({"user_id": "__all__", "group_id": "g", "run_id": "g"}), ReadCall::Search).unwrap();
    assert_eq!(read.scope, Scope { run_id: Some("g".into()), ..Scope::default() });
    assert_eq!(code(json!({"userId": "__all__", "groupId": "__all__"}), ReadCall::GetAll), "SCOPE_REQUIRED");
    assert_eq!(code(json!({"runId": "a", "groupId": "b"}), ReadCall::Search), "INVALID_INPUT");
    let export: ReadOptions = serde_json::from_value(json!({"groupId": "g"})).unwrap();
    assert_eq!(export.any_scope().unwrap().run_id.as_deref(), Some("g"));
}

#[test]
fn a_fetch_by_type_has_the_seeds_defaults_and_maximum() {
    let read = check(json!({"groupId": "g"}), ReadCall::GetAll).unwrap();
    assert_eq!((read.limit, read.memory_types), (40, Some(vec![MemoryType::Episodic])));
    let read = check(json!({"userId": "u", "memory_type": "foresight", "limit": 500}), ReadCall::GetAll).unwrap();
    assert_eq!((read.limit, read.memory_types), (500, Some(vec![MemoryType::Foresight])));
    let seed_name = serde_json::from_value::<ReadOptions>(json!({"userId": "u", "memoryType": "episodic_memory"}));
    assert!(seed_name.is_err(), "the library's type names only");
    assert_eq!(code(json!({"groupId": "g", "limit": 501}), ReadCall::GetAll), "INVALID_INPUT");
    assert_eq!(
        code(json!({"groupId": "g", "memoryType": "semantic", "memoryTypes": []}), ReadCall::GetAll),
        "INVALID_INPUT"
    );
    assert!(serde_json::from_value::<ReadOptions>(json!({"memoryType": "habit"})).is_err());
    // Without groupId / memoryType: the library's defaults, no maximum.
    let read = check(json!({"runId": "g", "limit": 1000}), ReadCall::GetAll).unwrap();
    assert_eq!((read.limit, read.memory_types), (1000, None));
    assert_eq!(check(json!({"runId": "g"}), ReadCall::GetAll).unwrap().limit, DEFAULT_LIMIT);
    assert_eq!(code(json!({"userId": "u", "memoryType": "episodic"}), ReadCall::Search), "INVALID_INPUT");
}

#[test]
fn searches_leave_profiles_out_and_cap_the_seeds_form() {
    let read = check(json!({"userId": "u"}), ReadCall::Search).unwrap();
    let types = read.memory_types.unwrap();
    assert!(!types.contains(&MemoryType::Profile) && types.len() == MemoryType::ALL.len() - 1);
    assert_eq!(code(json!({"userId": "u", "memoryTypes": ["episodic", "profile"]}), ReadCall::Search), "INVALID_INPUT");
    assert_eq!(
        check(json!({"userId": "u", "memoryTypes": ["profile"]}), ReadCall::Recall).unwrap().memory_types,
        Some(vec![MemoryType::Profile])
    );
    assert_eq!(check(json!({"groupId": "g"}), ReadCall::Search).unwrap().limit, 40);
    assert_eq!(check(json!({"groupId": "g", "topK": 100}), ReadCall::Search).unwrap().limit, 100);
    assert_eq!(code(json!({"groupId": "g", "top_k": 101}), ReadCall::Search), "INVALID_INPUT");
    assert_eq!(check(json!({"runId": "g", "topK": 101}), ReadCall::Search).unwrap().limit, 101, "not that API's form");
}

#[test]
fn radius_method_and_times_are_checked() {
    let read = check(json!({"userId": "u", "radius": 0.6, "method": "hybrid"}), ReadCall::Search).unwrap();
    assert_eq!(read.radius, Some(0.6));
    for radius in [json!(1.5), json!(-0.1)] {
        assert_eq!(code(json!({"userId": "u", "radius": radius}), ReadCall::Search), "INVALID_INPUT");
    }
    let keyword = check(json!({"userId": "u", "radius": 0.5, "method": "keyword"}), ReadCall::Search).unwrap();
    assert_eq!(keyword.radius, Some(0.5), "accepted with keyword; the keyword ranking has no cosine to floor");
    assert_eq!(code(json!({"userId": "u", "radius": 0.5}), ReadCall::GetAll), "INVALID_INPUT");
    assert_eq!(
        check(json!({"userId": "u", "method": "agentic"}), ReadCall::Search).unwrap().method,
        Some(Method::Agentic)
    );
    assert_eq!(code(json!({"userId": "u", "method": "agentic"}), ReadCall::Recall), "INVALID_INPUT");
    let read = check(
        json!({"userId": "u", "start_time": "2025-01-15T10:00:00+01:00", "endTime": "2025-01-16T00:00:00Z", "current_time": "2025-01-20T00:00:00Z", "include_compressed": true}),
        ReadCall::Search,
    )
    .unwrap();
    assert_eq!(
        (read.window.start, read.window.current.is_some(), read.window.include_compressed),
        (Some(1_736_931_600_000), true, true)
    );
    assert_eq!(code(json!({"userId": "u", "startTime": "2025-01-15T10:00:00"}), ReadCall::GetAll), "INVALID_INPUT");
    let listed = check(json!({"userId": "u", "currentTime": "2025-01-15T10:00:00Z"}), ReadCall::GetAll).unwrap();
    assert!(listed.window.current.is_some(), "getAll filters foresight at currentTime too");
    assert!(
        check(json!({"userId": "u"}), ReadCall::DeleteAll).unwrap().window.include_compressed,
        "deleteAll covers them"
    );
}
