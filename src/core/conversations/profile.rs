//! Profiles: one `profile` memory per participant and group, keyed `profile:<userId>`, whose attributes
//! (`metadata.attributes`, snake_case keys) are merged across episodes: a new value replaces the old one
//! under the same key, an empty one removes it. Its text is rendered from the attributes.

use crate::core::case::CaseExt;
use std::collections::BTreeMap;

use serde_json::Value;

use crate::core::model::types::MemoryItem;

/// A profile's traits, by key.
pub type Attributes = BTreeMap<String, String>;

/// One participant's update from an extraction: `(key, value)`, `None` removing the key.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileUpdate {
    /// The user id or name the LLM gave.
    pub user: String,
    pub attributes: Vec<(String, Option<String>)>,
}

/// The lifecycle key of `user`'s profile memory.
pub fn profile_key(user: &str) -> String {
    format!("profile:{user}")
}

/// A key as stored: trimmed, lower case, runs of spaces and dashes as `_`.
pub fn normalize_key(key: &str) -> String {
    let words: Vec<String> = key
        .trim()
        .lowercased()
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    words.join("_")
}

/// The attributes a profile memory holds (`metadata.attributes`).
pub fn attributes_of(item: &MemoryItem) -> Attributes {
    let Some(Value::Object(map)) = item.metadata.get("attributes") else { return Attributes::new() };
    map.iter().filter_map(|(key, value)| value.as_str().map(|v| (key.clone(), v.to_owned()))).collect()
}

/// `old` with `updates` applied in order.
pub fn merge(old: &Attributes, updates: &[(String, Option<String>)]) -> Attributes {
    let mut merged = old.clone();
    for (key, value) in updates {
        let key = normalize_key(key);
        if key.is_empty() {
            continue;
        }
        match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
            Some(value) => merged.insert(key, value.to_owned()),
            None => merged.remove(&key),
        };
    }
    merged
}

/// The profile's text: `Profile of Alice Smith (alice): location: Berlin; occupation: tech lead`.
pub fn render(name: &str, user: &str, attributes: &Attributes) -> String {
    let who = if name == user { user.to_owned() } else { format!("{name} ({user})") };
    let traits: Vec<String> = attributes.iter().map(|(k, v)| format!("{}: {v}", k.replace('_', " "))).collect();
    if traits.is_empty() {
        return format!("Profile of {who}");
    }
    format!("Profile of {who}: {}", traits.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
        items.iter().map(|(k, v)| ((*k).to_owned(), v.map(str::to_owned))).collect()
    }

    #[test]
    fn a_new_value_replaces_the_old_one_and_an_empty_one_removes_it() {
        let old = merge(&Attributes::new(), &pairs(&[("Occupation", Some("engineer")), ("home city", Some("Paris"))]));
        assert_eq!(old.keys().collect::<Vec<_>>(), ["home_city", "occupation"]);
        let new =
            merge(&old, &pairs(&[("home-city", Some("Berlin")), ("occupation", Some(" ")), ("likes", Some("tea"))]));
        let expected: Attributes =
            [("home_city", "Berlin"), ("likes", "tea")].map(|(k, v)| (k.to_owned(), v.to_owned())).into();
        assert_eq!(new, expected);
    }

    #[test]
    fn the_text_lists_the_traits_in_key_order() {
        let attributes =
            merge(&Attributes::new(), &pairs(&[("occupation", Some("tech lead")), ("home_city", Some("Berlin"))]));
        assert_eq!(
            render("Alice Smith", "alice", &attributes),
            "Profile of Alice Smith (alice): home city: Berlin; occupation: tech lead"
        );
        assert_eq!(render("bob", "bob", &Attributes::new()), "Profile of bob");
        assert_eq!(profile_key("bob"), "profile:bob");
    }
}
