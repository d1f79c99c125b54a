//! Scoping (seed 000 §2.4): every memory belongs to a user, an agent, a run, or a combination.

use serde::{Deserialize, Serialize};

use super::error::{MemoryError, Result};

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

impl Scope {
    /// The scope an options object names with its `userId`, `agentId` and `runId` (not yet validated).
    pub fn of(user_id: &Option<String>, agent_id: &Option<String>, run_id: &Option<String>) -> Self {
        Self { user_id: user_id.clone(), agent_id: agent_id.clone(), run_id: run_id.clone() }
    }

    /// Drops empty ids and fails with `SCOPE_REQUIRED` when none is left.
    pub fn validated(self) -> Result<Self> {
        let keep = |id: Option<String>| id.filter(|id| !id.trim().is_empty());
        let scope = Self { user_id: keep(self.user_id), agent_id: keep(self.agent_id), run_id: keep(self.run_id) };
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
        assert_eq!(scope(Some(""), Some("  "), None).validated(), Err(MemoryError::ScopeRequired));
        assert_eq!(scope(Some(""), None, Some("r")).validated().unwrap(), scope(None, None, Some("r")));
        assert_eq!(
            MemoryError::ScopeRequired.to_string(),
            "At least one of userId, agentId, or runId must be provided"
        );
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
