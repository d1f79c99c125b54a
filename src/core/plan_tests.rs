use super::*;
use crate::core::model::scope::Scope;
use crate::core::model::types::MemoryItem;

fn stored(id: &str, text: &str) -> StoredMemory {
    StoredMemory {
        item: MemoryItem {
            id: id.into(),
            memory: text.into(),
            hash: content_hash(text),
            metadata: Default::default(),
            score: None,
            fused_score: None,
            created_at: String::new(),
            updated_at: String::new(),
            scope: Scope { user_id: Some("alice".into()), ..Scope::default() },
            lifecycle: Default::default(),
        },
        embedding: None,
    }
}

fn decision(event: EventKind, id: Option<&str>, text: Option<&str>) -> Result<Decision, MemoryError> {
    Ok(Decision { event, id: id.map(Into::into), text: text.map(Into::into) })
}

fn nothing_stored(_: &str) -> Option<StoredMemory> {
    None
}

#[test]
fn maps_temporary_ids_back_to_real_memories() {
    let shown = [
        stored("uuid-a", "User lives in NYC"),
        stored("uuid-b", "User is vegetarian"),
        stored("uuid-c", "User likes tea"),
    ];
    let decisions = vec![
        decision(EventKind::Update, Some("0"), Some("User lives in SF")),
        decision(EventKind::Delete, Some("1"), None),
        decision(EventKind::None, Some("2"), Some("User likes tea")),
        decision(EventKind::Add, None, Some("User likes jazz")),
    ];
    let (ops, warnings) = plan(decisions, &shown, nothing_stored);
    assert!(warnings.is_empty());
    assert_eq!(
        ops,
        vec![
            Op::Update { target: shown[0].clone(), text: "User lives in SF".into() },
            Op::Delete { target: shown[1].clone() },
            Op::Keep { target: shown[2].clone() },
            Op::Add { text: "User likes jazz".into() },
        ]
    );
}

#[test]
fn invented_and_real_uuid_ids_are_refused_and_reported() {
    let shown = [stored("uuid-a", "User lives in NYC")];
    let decisions = vec![
        decision(EventKind::Update, Some("7"), Some("x")),
        decision(EventKind::Delete, Some("uuid-a"), None),
        decision(EventKind::Update, Some("00"), Some("y")),
        decision(EventKind::None, Some("-1"), None),
    ];
    let (ops, warnings) = plan(decisions, &shown, nothing_stored);
    assert!(ops.is_empty());
    assert_eq!(warnings.len(), 4);
    assert!(warnings.iter().all(|w| w.code == WarningCode::UnknownMemoryId));
    assert!(warnings[1].message.contains("uuid-a"));
}

#[test]
fn duplicates_collapse_and_each_memory_is_touched_once() {
    let shown = [stored("uuid-a", "User lives in NYC")];
    let existing = stored("uuid-z", "User likes tea");
    let lookup = |hash: &str| (hash == existing.item.hash).then(|| existing.clone());
    let decisions = vec![
        decision(EventKind::Add, None, Some("User likes tea")),
        decision(EventKind::Add, None, Some("User likes jazz")),
        decision(EventKind::Add, None, Some("User likes jazz")),
        decision(EventKind::Update, Some("0"), Some("User lives in NYC")),
        decision(EventKind::Delete, Some("0"), None),
        decision(EventKind::None, None, None),
    ];
    let (ops, warnings) = plan(decisions, &shown, lookup);
    assert_eq!(
        ops,
        vec![
            Op::Keep { target: existing.clone() },
            Op::Add { text: "User likes jazz".into() },
            Op::Delete { target: shown[0].clone() },
        ]
    );
    assert!(warnings.is_empty(), "an UPDATE to the same text is a NONE, which the DELETE beats: {warnings:?}");
}

#[test]
fn unusable_entries_become_warnings() {
    let shown = [stored("uuid-a", "x")];
    let decisions = vec![
        Err(MemoryError::LlmResponse("unknown event \"MERGE\"".into())),
        decision(EventKind::Add, None, None),
        decision(EventKind::Update, None, Some("t")),
        decision(EventKind::Update, Some("0"), None),
        decision(EventKind::Delete, Some("0"), None),
    ];
    let (ops, warnings) = plan(decisions, &shown, nothing_stored);
    assert_eq!(ops, vec![Op::Delete { target: shown[0].clone() }]);
    assert_eq!(warnings.iter().map(|w| w.code).collect::<Vec<_>>(), [WarningCode::InvalidDecision; 4]);
}

#[test]
fn an_update_or_delete_beats_a_none_for_the_same_memory_whatever_the_order() {
    let shown = [stored("uuid-a", "User lives in NYC"), stored("uuid-b", "User likes tea")];
    let decisions = vec![
        decision(EventKind::None, Some("0"), Some("User lives in NYC")),
        decision(EventKind::Update, Some("0"), Some("User lives in Berlin")),
        decision(EventKind::None, Some("1"), None),
        decision(EventKind::Delete, Some("1"), None),
        decision(EventKind::None, Some("1"), None),
        decision(EventKind::None, Some("0"), None),
    ];
    let (ops, warnings) = plan(decisions, &shown, nothing_stored);
    assert_eq!(
        ops,
        vec![
            Op::Update { target: shown[0].clone(), text: "User lives in Berlin".into() },
            Op::Delete { target: shown[1].clone() },
        ]
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn of_two_changes_to_one_memory_the_last_is_applied_and_the_other_reported() {
    let shown = [stored("uuid-a", "User lives in NYC")];
    let decisions = vec![
        decision(EventKind::Update, Some("0"), Some("User lives in Paris")),
        decision(EventKind::Update, Some("0"), Some("User lives in Berlin")),
    ];
    let (ops, warnings) = plan(decisions, &shown, nothing_stored);
    assert_eq!(ops, vec![Op::Update { target: shown[0].clone(), text: "User lives in Berlin".into() }]);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code, WarningCode::InvalidDecision);
    for part in ["\"uuid-a\"", "UPDATE to \"User lives in Paris\"", "UPDATE to \"User lives in Berlin\"", "last"] {
        assert!(warnings[0].message.contains(part), "{part} in {}", warnings[0].message);
    }
}
