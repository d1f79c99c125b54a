use serde::Deserialize;
use serde_json::{json, Value};

use crate::core::model::scope_fields::{ScopeFields, ScopeForm};
use crate::core::value_de::from_value_path;

/// Options read the new way: the scope as one field.
#[derive(Debug, Default, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
struct Scoped {
    #[serde(skip)]
    scope: ScopeFields,
    metadata: Option<serde_json::Map<String, Value>>,
    #[serde(alias = "top_k")]
    top_k: Option<f64>,
}
scoped_options!(Scoped, ScopeForm::WithGroup);

/// The same options with the scope keys written out, as serde's derive reads them.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
struct Written {
    #[serde(alias = "user_id")]
    user_id: Option<String>,
    #[serde(alias = "agent_id")]
    agent_id: Option<String>,
    #[serde(alias = "run_id")]
    run_id: Option<String>,
    #[serde(alias = "group_id")]
    group_id: Option<String>,
    metadata: Option<serde_json::Map<String, Value>>,
    #[serde(alias = "top_k")]
    top_k: Option<f64>,
}

fn error_of<T: serde::de::DeserializeOwned + std::fmt::Debug>(value: &Value) -> (String, String) {
    let (path, error) = from_value_path::<T>(value).unwrap_err();
    (path, error.to_string().replace("struct Written", "struct Scoped"))
}

#[test]
fn scope_keys_are_read_into_the_scope_field() {
    let value = json!({"user_id": "u", "agentId": "a", "groupId": "g", "top_k": 3, "metadata": {"x": 1}});
    let options: Scoped = from_value_path(&value).unwrap();
    let expected = ScopeFields {
        user_id: Some("u".into()),
        agent_id: Some("a".into()),
        group_id: Some("g".into()),
        form: ScopeForm::WithGroup,
        ..ScopeFields::default()
    };
    assert_eq!((options.scope, options.top_k), (expected, Some(3.0)));
    let options: Scoped = serde_json::from_value(json!({"runId": null, "metadata": {}})).unwrap();
    assert_eq!(options.scope.run_id, None);
}

#[test]
fn errors_read_as_the_derive_writes_them() {
    for value in [
        json!({"userID": "u"}),
        json!({"userId": "u", "colour": 1}),
        json!({"userId": 5}),
        json!({"userId": "u", "user_id": "v"}),
        json!({"run_id": null, "runId": "r"}),
        json!({"metadata": 1, "userId": "u"}),
        json!({"top_k": "3"}),
        json!({"topK": 1, "top_k": 2}),
        json!(5),
        json!([]),
    ] {
        assert_eq!(error_of::<Scoped>(&value), error_of::<Written>(&value), "{value}");
    }
    let (_, message) = error_of::<Scoped>(&json!({"userID": "u"}));
    assert_eq!(message, "unknown field `userID`, did you mean `userId`?");
    let plain = serde_json::from_value::<Scoped>(json!({"colour": 1})).unwrap_err().to_string();
    let written = serde_json::from_value::<Written>(json!({"colour": 1})).unwrap_err().to_string();
    assert_eq!(plain, written);
}
