//! Scoping: every memory belongs to a user, an agent, a run, or a combination.

use std::cell::Cell;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use crate::core::error::{MemoryError, Result};
use crate::core::limits::{check_id_chars, MAX_ID_CHARS};

/// Metadata keys that name a scope (mem0's, both casings, and its `actor_id`). Writes drop them from the
/// metadata they are given: a memory's scope never changes through its metadata.
pub const IDENTITY_KEYS: [&str; 7] = ["user_id", "agent_id", "run_id", "userId", "agentId", "runId", "actor_id"];

/// `id` trimmed; `None` when it is `""` (absent, as mem0 has it), else as `checked_id` says.
fn trimmed(name: &str, id: Option<String>) -> Result<Option<String>> {
    match id {
        Some(id) if !id.is_empty() => checked_id(name, &id).map(Some),
        _ => Ok(None),
    }
}

/// `id` trimmed, or mem0's error naming `name` for an id of only whitespace or with whitespace inside (a tab
/// included), and `INVALID_INPUT` for one with another control character or a line separator anywhere (even
/// at an end trimming would drop) or longer than `MAX_ID_CHARS`.
pub fn checked_id(name: &str, id: &str) -> Result<String> {
    let raw = id;
    let id = id.trim();
    let invalid = |why: String| Err(MemoryError::InvalidInput(format!("Invalid {name}: {why}")));
    if id.is_empty() {
        return invalid("cannot be empty or whitespace-only. Provide a valid identifier.".into());
    }
    if id.chars().any(char::is_whitespace) {
        return invalid("cannot contain whitespace. Provide a valid identifier without spaces.".into());
    }
    check_id_chars(&format!("Invalid {name}: it"), raw)?;
    if id.chars().count() > MAX_ID_CHARS {
        return invalid(format!("longer than {MAX_ID_CHARS} characters"));
    }
    Ok(id.to_owned())
}

/// The ids a memory is filed under. Empty strings count as absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scope {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
}

thread_local! {
    static MEM0_NAMES: Cell<bool> = const { Cell::new(false) };
}

/// Runs `serialize` with the scope of every memory and history record it writes also carrying mem0's
/// snake_case ids (`user_id`, …), as results given to JS do: mem0 code reads `item.user_id`. Stored
/// records keep one spelling, and so do scopes on their own (which callers pass back as options).
pub fn with_mem0_names<T>(serialize: impl FnOnce() -> T) -> T {
    let before = MEM0_NAMES.with(|flag| flag.replace(true));
    let result = serialize();
    MEM0_NAMES.with(|flag| flag.set(before));
    result
}

/// `serialize_with` of the scope flattened into a memory or a history record: camelCase ids, and inside
/// `with_mem0_names` mem0's snake_case ones too.
pub fn serialize_record_scope<S: Serializer>(scope: &Scope, serializer: S) -> std::result::Result<S::Ok, S::Error> {
    let mem0 = MEM0_NAMES.with(Cell::get);
    let ids = [
        ("userId", "user_id", &scope.user_id),
        ("agentId", "agent_id", &scope.agent_id),
        ("runId", "run_id", &scope.run_id),
    ];
    let mut map = serializer.serialize_map(None)?;
    for (name, mem0_name, id) in ids {
        if let Some(id) = id {
            map.serialize_entry(name, id)?;
            if mem0 {
                map.serialize_entry(mem0_name, id)?;
            }
        }
    }
    map.end()
}

impl Scope {
    /// Trims the ids, drops empty ones, and fails with `SCOPE_REQUIRED` when none is left (`INVALID_INPUT`
    /// for an id with whitespace inside, as mem0 refuses it).
    pub fn validated(self) -> Result<Self> {
        let scope = Self {
            user_id: trimmed("userId", self.user_id)?,
            agent_id: trimmed("agentId", self.agent_id)?,
            run_id: trimmed("runId", self.run_id)?,
        };
        if scope.user_id.is_none() && scope.agent_id.is_none() && scope.run_id.is_none() {
            return Err(MemoryError::ScopeRequired);
        }
        Ok(scope)
    }

    /// A stable text key for this scope (the ids joined by a unit separator), for records kept per scope.
    pub fn key(&self) -> String {
        let part = |id: &Option<String>| id.as_deref().unwrap_or("").to_owned();
        format!("{}\u{1f}{}\u{1f}{}", part(&self.user_id), part(&self.agent_id), part(&self.run_id))
    }

    /// True when `other` has every id this scope names (ids this scope leaves out may be anything).
    pub fn contains(&self, other: &Scope) -> bool {
        let fits = |want: &Option<String>, have: &Option<String>| want.is_none() || want == have;
        fits(&self.user_id, &other.user_id)
            && fits(&self.agent_id, &other.agent_id)
            && fits(&self.run_id, &other.run_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(user: Option<&str>, agent: Option<&str>, run: Option<&str>) -> Scope {
        Scope { user_id: user.map(Into::into), agent_id: agent.map(Into::into), run_id: run.map(Into::into) }
    }

    #[test]
    fn requires_at_least_one_non_empty_id() {
        assert_eq!(Scope::default().validated(), Err(MemoryError::ScopeRequired));
        assert_eq!(scope(Some(""), None, None).validated(), Err(MemoryError::ScopeRequired));
        assert!(scope(Some("u"), Some("  "), None).validated().unwrap_err().to_string().contains("whitespace-only"));
        assert_eq!(scope(Some(""), None, Some(" r ")).validated().unwrap(), scope(None, None, Some("r")));
        assert_eq!(scope(Some("a b"), None, None).validated().unwrap_err().code(), "INVALID_INPUT");
        let long = "a".repeat(MAX_ID_CHARS + 1);
        assert!(scope(None, Some(&long), None).validated().unwrap_err().to_string().contains("longer than 128"));
        assert!(scope(None, Some(&long[1..]), None).validated().is_ok());
        assert_eq!(
            MemoryError::ScopeRequired.to_string(),
            "At least one of userId, agentId, or runId must be provided"
        );
    }

    #[test]
    fn mem0_names_are_added_to_records_only_inside_with_mem0_names() {
        let alice = scope(Some("alice"), None, Some("r"));
        let record = |scope: &Scope| serialize_record_scope(scope, serde_json::value::Serializer).unwrap();
        assert_eq!(record(&alice), serde_json::json!({"userId": "alice", "runId": "r"}));
        let both = with_mem0_names(|| record(&alice));
        assert_eq!(both, serde_json::json!({"userId": "alice", "user_id": "alice", "runId": "r", "run_id": "r"}));
        let alone = with_mem0_names(|| serde_json::to_value(&alice).unwrap());
        assert_eq!(
            alone,
            serde_json::json!({"userId": "alice", "runId": "r"}),
            "a scope on its own keeps one spelling"
        );
        assert_eq!(record(&alice).as_object().unwrap().len(), 2, "the flag is reset");
    }

    #[test]
    fn contains_requires_every_named_id_to_match() {
        let alice_helper = scope(Some("alice"), Some("helper"), None);
        assert!(scope(Some("alice"), None, None).contains(&alice_helper));
        assert!(alice_helper.contains(&alice_helper));
        assert!(!alice_helper.contains(&scope(Some("alice"), None, None)));
        assert!(!scope(Some("bob"), None, None).contains(&alice_helper));
        assert!(!scope(None, None, Some("s1")).contains(&scope(None, None, Some("s2"))));
    }
}
