//! A memory's metadata, shared by the copies of its record until one of them changes it. Opening a store
//! reads thousands of records whose metadata text is the same (a source, a role), and a copy of a record
//! (a search result, a page of a list) copies its metadata: sharing the parsed object makes either a count
//! increment instead of a copy of the map, each key and each value. Reading goes through `Deref`; writing
//! through `DerefMut` copies the map first when another record still shares it.

use std::ops::{Deref, DerefMut};
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The parsed metadata object (`types::Metadata`).
type Metadata = Map<String, Value>;

/// Metadata shared between records (copy on write). Serialized as the JSON object it holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SharedMetadata(Rc<Metadata>);

impl SharedMetadata {
    /// Empty metadata.
    pub fn new() -> Self {
        Self::default()
    }

    /// The map itself: moved out when no other record shares it, else copied.
    pub fn into_map(self) -> Metadata {
        Rc::try_unwrap(self.0).unwrap_or_else(|shared| (*shared).clone())
    }
}

impl Deref for SharedMetadata {
    type Target = Metadata;

    fn deref(&self) -> &Metadata {
        &self.0
    }
}

impl DerefMut for SharedMetadata {
    fn deref_mut(&mut self) -> &mut Metadata {
        Rc::make_mut(&mut self.0)
    }
}

impl From<Metadata> for SharedMetadata {
    fn from(map: Metadata) -> Self {
        Self(Rc::new(map))
    }
}

impl Serialize for SharedMetadata {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SharedMetadata {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Metadata::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn map(value: serde_json::Value) -> Metadata {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_change_to_one_copy_leaves_the_other_as_it_was() {
        let first = SharedMetadata::from(map(json!({"source": "chat", "role": "user"})));
        let mut second = first.clone();
        second.insert("role".into(), json!("assistant"));
        assert_eq!(first.get("role"), Some(&json!("user")));
        assert_eq!(second.get("role"), Some(&json!("assistant")));
        assert_eq!(second.get("source"), Some(&json!("chat")));
    }

    #[test]
    fn copies_share_one_map_until_one_changes() {
        let first = SharedMetadata::from(map(json!({"source": "chat"})));
        let second = first.clone();
        assert!(std::ptr::eq(&*first, &*second));
        let mut third = first.clone();
        third.remove("source");
        assert!(!std::ptr::eq(&*first, &*third));
        assert_eq!(first.len(), 1);
    }

    #[test]
    fn serialized_as_the_object_it_holds() {
        let shared = SharedMetadata::from(map(json!({"a": 1, "b": [true]})));
        let text = serde_json::to_string(&shared).unwrap_or_default();
        assert_eq!(text, r#"{"a":1,"b":[true]}"#);
        let back: SharedMetadata = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(back, shared);
        assert_eq!(back.into_map(), map(json!({"a": 1, "b": [true]})));
    }
}
