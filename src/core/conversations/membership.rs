//! Who reads a group's shared memories. What a group conversation yields (episodes, event logs, foresight
//! and the summaries `compress` makes of them) belongs to the group: it is filed under the group, not under a
//! user, and `metadata.participants` lists the users who read it as theirs (`read::involves`). An episode
//! names everyone who wrote in it; a later episode that updates a fact adds its own participants; a
//! participant's `deleteMemories({userId, groupId})` takes them off, and the memory stays for the others.

use serde_json::Value;

use crate::core::model::types::{MemoryItem, Metadata};

/// The metadata key that lists a shared memory's participants.
pub const PARTICIPANTS: &str = "participants";

/// The user ids `metadata.participants` lists (none when it is absent or not a list).
pub fn participants(metadata: &Metadata) -> Vec<String> {
    let listed = metadata.get(PARTICIPANTS).and_then(Value::as_array);
    listed.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// Adds the `ids` not listed yet, in order; true when the list changed.
pub fn join(metadata: &mut Metadata, ids: &[String]) -> bool {
    let mut listed = participants(metadata);
    let before = listed.len();
    for id in ids {
        if !listed.contains(id) {
            listed.push(id.clone());
        }
    }
    let changed = listed.len() != before || !metadata.contains_key(PARTICIPANTS);
    metadata.insert(PARTICIPANTS.into(), Value::from(listed));
    changed
}

/// Takes `who` off the list; true when they were on it.
pub fn leave(metadata: &mut Metadata, who: &str) -> bool {
    let mut listed = participants(metadata);
    let before = listed.len();
    listed.retain(|id| id != who);
    metadata.insert(PARTICIPANTS.into(), Value::from(listed.clone()));
    listed.len() != before
}

/// True for a group's shared memory: filed under a group and under no user.
pub fn is_shared(item: &MemoryItem) -> bool {
    item.scope.user_id.is_none() && item.scope.run_id.is_some()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn listing(value: Value) -> Metadata {
        serde_json::from_value(json!({ PARTICIPANTS: value })).unwrap()
    }

    #[test]
    fn participants_join_once_and_leave() {
        let mut metadata = listing(json!(["alice", "bob"]));
        assert!(join(&mut metadata, &["bob".into(), "carol".into()]));
        assert_eq!(participants(&metadata), ["alice", "bob", "carol"]);
        assert!(!join(&mut metadata, &["alice".into()]), "already there");
        assert!(leave(&mut metadata, "alice"));
        assert!(!leave(&mut metadata, "alice"));
        assert_eq!(metadata[PARTICIPANTS], json!(["bob", "carol"]));
        assert!(participants(&listing(json!("alice"))).is_empty(), "not a list: nobody");
        assert!(join(&mut Metadata::new(), &[]), "an empty list is written");
    }
}
