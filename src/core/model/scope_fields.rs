//! The scope keys of an options object, read in one place: `userId`, `agentId`, `runId` (snake_case
//! `user_id`, … too), and in the conversation API's form also `groupId` (the run) with `"__all__"` as no id.
//! Every options type holds them as one `scope: ScopeFields` field; `scope_fields_de` reads them beside the
//! type's own keys.

use super::scope::Scope;
use crate::core::error::{MemoryError, Result};

/// The conversation API's "any id".
pub const ANY: &str = "__all__";

/// Which scope keys an options type takes, and so which rules make its scope.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ScopeForm {
    /// `userId`, `agentId`, `runId`, each taken as given.
    #[default]
    Plain,
    /// Those and `groupId` (the run's other name); `"__all__"` counts as not given.
    WithGroup,
}

impl ScopeForm {
    /// The keys, each camelCase then snake_case, in the order unknown-key errors list them.
    pub fn keys(self) -> &'static [&'static str] {
        const KEYS: [&str; 8] = ["userId", "user_id", "agentId", "agent_id", "runId", "run_id", "groupId", "group_id"];
        match self {
            Self::Plain => &KEYS[..6],
            Self::WithGroup => &KEYS,
        }
    }
}

/// The scope ids an options object gave, as given (not yet checked).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScopeFields {
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    /// Only in the `WithGroup` form.
    pub group_id: Option<String>,
    pub form: ScopeForm,
}

impl From<Scope> for ScopeFields {
    /// The plain-form fields naming `scope`.
    fn from(scope: Scope) -> Self {
        let Scope { user_id, agent_id, run_id } = scope;
        Self { user_id, agent_id, run_id, ..Self::default() }
    }
}

/// An id as given, `None` for the conversation API's `"__all__"`.
pub fn real_id(id: &Option<String>) -> Option<String> {
    id.clone().filter(|id| id.trim() != ANY)
}

impl ScopeFields {
    /// The plain-form fields naming user `id` alone.
    pub fn user(id: impl Into<String>) -> Self {
        Self { user_id: Some(id.into()), ..Self::default() }
    }

    /// The id slot of `key` (one of `form.keys()`).
    pub(crate) fn slot(&mut self, key: &str) -> Option<&mut Option<String>> {
        let index = self.form.keys().iter().position(|name| *name == key)?;
        Some(match index / 2 {
            0 => &mut self.user_id,
            1 => &mut self.agent_id,
            2 => &mut self.run_id,
            _ => &mut self.group_id,
        })
    }

    /// The scope named, not yet checked for emptiness (an empty one may mean everything). In the
    /// `WithGroup` form `groupId` is the run (both with different values is `INVALID_INPUT`) and `"__all__"`
    /// is no id.
    pub fn scope(&self) -> Result<Scope> {
        if self.form == ScopeForm::Plain {
            let (user_id, agent_id, run_id) = (self.user_id.clone(), self.agent_id.clone(), self.run_id.clone());
            return Ok(Scope { user_id, agent_id, run_id });
        }
        let (run, group) = (real_id(&self.run_id), real_id(&self.group_id));
        if let (Some(run), Some(group)) = (&run, &group) {
            if run.trim() != group.trim() {
                let why = format!("runId ({run}) and groupId ({group}) name the same scope; give one");
                return Err(MemoryError::InvalidInput(why));
            }
        }
        Ok(Scope { user_id: real_id(&self.user_id), agent_id: real_id(&self.agent_id), run_id: run.or(group) })
    }

    /// The scope named, validated (`SCOPE_REQUIRED` when no id is left).
    pub fn checked(&self) -> Result<Scope> {
        self.scope()?.validated()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(form: ScopeForm, user: &str, run: Option<&str>, group: Option<&str>) -> ScopeFields {
        let id = |id: Option<&str>| id.map(str::to_owned);
        ScopeFields { user_id: Some(user.into()), run_id: id(run), group_id: id(group), form, ..Default::default() }
    }

    #[test]
    fn the_group_form_reads_group_as_run_and_all_as_no_id() {
        let group = fields(ScopeForm::WithGroup, ANY, None, Some("g")).scope().unwrap();
        assert_eq!(group, Scope { run_id: Some("g".into()), ..Scope::default() });
        let same = fields(ScopeForm::WithGroup, "u", Some("g"), Some(" g ")).scope().unwrap();
        assert_eq!(same.run_id.as_deref(), Some("g"));
        let both = fields(ScopeForm::WithGroup, "u", Some("r"), Some("g")).scope().unwrap_err();
        assert_eq!(both.code(), "INVALID_INPUT");
        let plain = fields(ScopeForm::Plain, ANY, None, None).checked().unwrap();
        assert_eq!(plain.user_id.as_deref(), Some(ANY), "the plain form takes ids as given");
    }
}
