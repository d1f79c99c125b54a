use super::*;
use crate::core::model::scope::Scope;

const NOW: i64 = 1_700_000_000_000;

fn input() -> LifecycleInput {
    LifecycleInput::default()
}

#[test]
fn ttl_and_expires_at_become_one_iso_expiry() {
    let ttl = LifecycleInput { ttl: Some(60_000.0), ..input() }.check(NOW).unwrap();
    assert_eq!(ttl.expires_at.as_deref(), Some(iso_from_millis(NOW + 60_000).as_str()));
    assert_eq!(LifecycleInput { ttl: Some(0.0), ..input() }.check(NOW).unwrap().expires_at, None);
    let at = LifecycleInput { expires_at: Some("2030-01-01T01:00:00+01:00".into()), ..input() }.check(NOW).unwrap();
    assert_eq!(at.expires_at.as_deref(), Some("2030-01-01T00:00:00.000Z"));
}

#[test]
fn bad_lifecycle_input_is_a_coded_error() {
    for bad in [
        LifecycleInput { ttl: Some(-1.0), ..input() },
        LifecycleInput { ttl: Some(f64::NAN), ..input() },
        LifecycleInput { ttl: Some(f64::INFINITY), ..input() },
        LifecycleInput { expires_at: Some("next week".into()), ..input() },
        LifecycleInput { expires_at: Some("2030-01-01T00:00:00".into()), ..input() },
        LifecycleInput { ttl: Some(5.0), expires_at: Some("2030-01-01T00:00:00Z".into()), ..input() },
        LifecycleInput { importance: Some(1.5), ..input() },
        LifecycleInput { importance: Some(-0.5), ..input() },
        LifecycleInput { importance: Some(f64::NAN), ..input() },
    ] {
        assert_eq!(bad.clone().check(NOW).unwrap_err().code(), "INVALID_INPUT", "{bad:?}");
    }
}

#[test]
fn new_memories_get_routed_types_and_computed_importance() {
    let write = input().check(NOW).unwrap();
    let preference = write.for_new("User prefers tea", Some(&[1.0, 0.0]), None);
    assert_eq!(preference.memory_type, MemoryType::Procedural);
    assert!((preference.importance - (0.6 + 0.4 * 0.4)).abs() < 1e-9, "novel (empty scope) + preference");
    let fact = write.for_new("user owns a bike", Some(&[1.0, 0.0]), Some(&[1.0, 0.0]));
    assert_eq!((fact.memory_type, fact.importance), (MemoryType::Semantic, 0.0), "not novel, no signal");
    let given =
        LifecycleInput { memory_type: Some(MemoryType::Working), importance: Some(0.9), pinned: Some(true), ..input() };
    let given = given.check(NOW).unwrap().for_new("User prefers tea", None, None);
    assert_eq!((given.memory_type, given.importance, given.pinned), (MemoryType::Working, 0.9, true));
}

fn memory(id: &str, importance: f64, created: &str, pinned: bool) -> MemoryItem {
    MemoryItem {
        id: id.into(),
        memory: id.into(),
        hash: String::new(),
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at: created.into(),
        updated_at: created.into(),
        scope: Scope::default(),
        lifecycle: Lifecycle { importance, pinned, ..Lifecycle::default() },
    }
}

#[test]
fn trimming_takes_the_least_important_then_the_oldest_unpinned() {
    let items = [
        memory("pinned-low", 0.1, "2024-01-01", true),
        memory("low-new", 0.2, "2024-03-01", false),
        memory("low-old", 0.2, "2024-02-01", false),
        memory("high", 0.9, "2024-01-01", false),
        memory("just-added", 0.0, "2024-04-01", false),
    ];
    let refs: Vec<&MemoryItem> = items.iter().collect();
    let chosen = over_limit(&refs, 3, &|id| id == "just-added");
    assert_eq!(chosen.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["low-old", "low-new"]);
    assert!(over_limit(&refs, 5, &|_| false).is_empty());
    assert_eq!(over_limit(&refs, 0, &|_| false).len(), 4, "pinned memories are never trimmed");
}
