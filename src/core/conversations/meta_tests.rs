use serde_json::{json, Value};

use super::*;
use crate::core::conversations::meta_patch::MetaPatch;

fn input(value: Value) -> MetaInput {
    serde_json::from_value(value).unwrap()
}

fn seed_meta() -> Value {
    json!({
        "version": "1.0.0", "scene": "group_chat",
        "scene_desc": {"description": "Project discussion group chat", "type": "project_discussion"},
        "name": "Engineering Team", "description": "Backend team discussions", "group_id": "group_123",
        "created_at": "2025-01-15T10:00:00Z", "default_timezone": "America/New_York",
        "user_details": {"alice": {"full_name": "Alice Smith", "role": "user", "custom_role": "Tech Lead"}},
        "tags": ["engineering", "backend"]
    })
}

#[test]
fn the_seed_example_is_accepted_in_snake_case() {
    let meta = input(seed_meta()).check("id1".into(), "2025-01-16T00:00:00.000Z".into()).unwrap();
    assert_eq!(meta.group_id.as_deref(), Some("group_123"));
    assert_eq!(meta.scene, Scene::GroupChat);
    assert_eq!(meta.created_at, "2025-01-15T10:00:00.000Z");
    assert_eq!(meta.user_details["alice"].full_name.as_deref(), Some("Alice Smith"));
    let view = serde_json::to_value(MetaView::from(meta)).unwrap();
    assert_eq!(view["isDefault"], false);
    assert_eq!(view["userDetails"]["alice"]["customRole"], "Tech Lead");
    assert_eq!(view["sceneDesc"]["type"], "project_discussion");
    assert_eq!(meta_key(Some("g")), "group:g");
    assert_eq!(meta_key(None), "default");
}

#[test]
fn required_fields_are_checked() {
    for (key, value, field) in [
        ("version", Value::Null, "version"),
        ("scene", Value::Null, "scene"),
        ("scene_desc", Value::Null, "sceneDesc"),
        ("name", json!(" "), "name"),
        ("created_at", json!("2025-01-15T10:00:00"), "createdAt"),
    ] {
        let mut bad = seed_meta();
        bad[key] = value;
        let error = input(bad).check("id".into(), "now".into()).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT");
        assert!(error.to_string().contains(field), "{error}");
    }
    assert!(serde_json::from_value::<MetaInput>(json!({"scene": "chat"})).is_err(), "unknown scene");
    assert!(serde_json::from_value::<MetaInput>(json!({"owner": "x"})).is_err(), "unknown key");
}

#[test]
fn a_patch_changes_only_updatable_fields_and_names_them() {
    let mut meta = input(seed_meta()).check("id1".into(), "t0".into()).unwrap();
    let patch = MetaPatch::parse(json!({"group_id": "group_123", "name": "Updated Team Name", "tags": ["python"]}));
    let fields = patch.unwrap().apply(&mut meta, "t1".into()).unwrap();
    assert_eq!(fields, ["name", "tags"]);
    assert_eq!(
        (meta.name.as_str(), meta.tags.clone(), meta.updated_at.as_str()),
        ("Updated Team Name", vec!["python".to_owned()], "t1")
    );
    for bad in [json!({"scene": "assistant"}), json!({"version": "2"}), json!("x")] {
        assert_eq!(MetaPatch::parse(bad).unwrap_err().code(), "INVALID_INPUT");
    }
    let error = MetaPatch::parse(json!({"scene": "assistant"})).unwrap_err();
    assert!(error.to_string().contains("scene cannot be updated"), "{error}");
    let empty = MetaPatch::parse(json!({"groupId": "group_123"})).unwrap();
    assert_eq!(empty.apply(&mut meta, "t2".into()).unwrap_err().code(), "INVALID_INPUT");
}
