//! The reader gives the values, messages and paths of serde_json + serde_path_to_error (unknown-field
//! messages reworded by `unknown_field`).

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use super::from_value_path;
use crate::core::model::types::Message;
use crate::core::pipeline_options::AddOptions;
use crate::core::read::ReadOptions;

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Sample {
    name: String,
    #[serde(default)]
    count: Option<u32>,
    #[serde(default)]
    ratio: f64,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    kind: Option<Kind>,
    #[serde(default)]
    shape: Option<Shape>,
    #[serde(default)]
    nested: Option<Box<Sample>>,
    #[serde(default)]
    extra: Option<Value>,
    #[serde(default)]
    pair: Option<(u8, String)>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Plain,
    Fancy,
}

#[derive(Debug, PartialEq, Deserialize)]
enum Shape {
    Circle(f64),
    Rect { w: u32, h: u32 },
    Pair(u8, u8),
    Dot,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(untagged)]
enum Either {
    Text(String),
    Many(Vec<u32>),
}

/// serde_json's message, as the reader words it.
fn worded(error: &serde_json::Error) -> String {
    let message = error.to_string();
    crate::core::unknown_field::reworded(&message).unwrap_or(message)
}

/// Both readers give the same `Ok`, or the same message at the same path.
fn same<T: DeserializeOwned + PartialEq + std::fmt::Debug>(value: Value) {
    let ours = from_value_path::<T>(&value).map_err(|(path, e)| (path, e.to_string()));
    let theirs =
        serde_path_to_error::deserialize::<_, T>(value.clone()).map_err(|e| (e.path().to_string(), worded(e.inner())));
    assert_eq!(ours, theirs, "{value}");
}

/// The same, for types without `PartialEq`: the same outcome and error.
fn same_error<T: DeserializeOwned>(value: Value) {
    let ours = from_value_path::<T>(&value).map(|_| ()).map_err(|(path, e)| (path, e.to_string()));
    let theirs = serde_path_to_error::deserialize::<_, T>(value.clone())
        .map(|_| ())
        .map_err(|e| (e.path().to_string(), worded(e.inner())));
    assert_eq!(ours, theirs, "{value}");
}

#[test]
fn matches_serde_path_to_error() {
    let cases = [
        json!({"name": "a"}),
        json!({"name": "a", "count": 3, "ratio": 2, "tags": ["x", "y"], "kind": "fancy", "extra": {"k": [1, null]}}),
        json!({"name": 5}),
        json!({"name": "a", "count": -1}),
        json!({"name": "a", "count": 1.5}),
        json!({"name": "a", "count": "3"}),
        json!({"name": "a", "count": 5_000_000_000u64}),
        json!({"name": "a", "ratio": "x"}),
        json!({"name": "a", "tags": ["x", 2]}),
        json!({"name": "a", "kind": "odd"}),
        json!({"name": "a", "kind": 3}),
        json!({"name": "a", "shape": {"Circle": 2.5}}),
        json!({"name": "a", "shape": {"Rect": {"w": 1, "h": "x"}}}),
        json!({"name": "a", "shape": {"Rect": {"w": 1}}}),
        json!({"name": "a", "shape": {"Pair": [1, 2]}}),
        json!({"name": "a", "shape": {"Pair": [1, 2, 3]}}),
        json!({"name": "a", "shape": {"Pair": []}}),
        json!({"name": "a", "shape": {"Pair": 1}}),
        json!({"name": "a", "shape": "Dot"}),
        json!({"name": "a", "shape": "Circle"}),
        json!({"name": "a", "shape": {"Dot": null}}),
        json!({"name": "a", "shape": {"Dot": 1, "Rect": 2}}),
        json!({"name": "a", "shape": {}}),
        json!({"name": "a", "nested": {"name": "b", "tags": [null]}}),
        json!({"name": "a", "nested": {"nope": 1}}),
        json!({"name": "a", "pair": [1, "x"]}),
        json!({"name": "a", "pair": [1]}),
        json!({"name": "a", "pair": [1, "x", 3]}),
        json!({"name": "a", "unknown": 1}),
        json!({"count": 1}),
        json!(null),
        json!("text"),
    ];
    for case in cases {
        same::<Sample>(case);
    }
    for case in [json!("x"), json!([1, 2]), json!([1, "x"]), json!({"a": 1})] {
        same::<Either>(case);
    }
    for case in [json!({"a": 1, "b": [true]}), json!({"a": {"b": 1}}), json!([])] {
        same::<std::collections::BTreeMap<String, u8>>(case.clone());
        same::<Value>(case);
    }
}

#[test]
fn reads_structs_from_objects_only() {
    let error = from_value_path::<Sample>(&json!(["a"])).unwrap_err();
    assert_eq!(
        (error.0.as_str(), error.1.to_string().as_str()),
        (".", "invalid type: sequence, expected struct Sample")
    );
}

#[test]
fn matches_on_the_package_types() {
    for case in [
        json!({"userId": "u", "metadata": 5}),
        json!({"userId": "u", "metdata": {}}),
        json!({"user_id": "u", "memoryType": "working", "ttl": 5, "importance": "high"}),
        json!({"user_id": "u", "memoryType": "nope"}),
    ] {
        same_error::<AddOptions>(case);
    }
    for case in [json!({"userId": 5}), json!({"limit": "3"}), json!({"filters": {"AND": [1]}, "method": "nope"})] {
        same_error::<ReadOptions>(case);
    }
    same_error::<Vec<Message>>(json!([{"role": "user", "content": "hi"}, {"role": 1, "content": "x"}]));
}
