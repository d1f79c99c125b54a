//! An agent's namespace as one caller sees it (user scoping of the agent key/value entries). An entry is a memory stored by
//! key with scope `{agentId: agent, userId: owner}`; a key names at most one entry per agent, whoever owns
//! it. Entries without an owner are system entries. Callers see their own entries and the system's;
//! admins see and change every entry of their tenant. Changing an entry takes its owner (or an admin); a
//! reader (a token with neither a user nor admin) owns nothing.

use memwasm::core::filter::{Filter, Operator};
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::MemoryItem;
use memwasm::core::read::Read;
use memwasm::platform::compose::Engine;
use memwasm::MemoryError;
use serde_json::Value;

use crate::auth::Caller;
use crate::error::ApiError;

/// Most entries a search or listing looks through.
pub const CANDIDATES: usize = 1 << 20;

/// One agent's entries, seen by one caller.
pub struct Namespace<'a> {
    pub agent: String,
    pub caller: &'a Caller,
}

fn equals(field: &str, value: Value) -> Filter {
    Filter::Condition { field: field.to_owned(), operator: Operator::Eq, value }
}

impl Namespace<'_> {
    /// Every memory of the agent, whoever owns it.
    pub fn agent_scope(&self) -> Scope {
        Scope { agent_id: Some(self.agent.clone()), ..Scope::default() }
    }

    /// Where the caller's new entries go (the system scope for a caller without a user).
    pub fn own_scope(&self) -> Scope {
        Scope { user_id: self.caller.user.clone(), ..self.agent_scope() }
    }

    /// The memories the caller may see: theirs and the system's (every owner for an admin), never a run's.
    fn visible(&self) -> Filter {
        let not_a_run = equals("run_id", Value::Null);
        if self.caller.admin {
            return not_a_run;
        }
        let owner = |user: &Option<String>| equals("user_id", user.clone().map_or(Value::Null, Value::String));
        Filter::And(vec![not_a_run, Filter::Or(vec![owner(&self.caller.user), owner(&None)])])
    }

    /// A read of what the caller may see, up to `limit` memories.
    pub fn read(&self, limit: usize) -> Read {
        Read { filter: Some(self.visible()), ..Read::of(self.agent_scope(), limit) }
    }

    /// True for an entry of this agent: stored by key, outside any run.
    pub fn is_entry(&self, item: &MemoryItem) -> bool {
        item.lifecycle.key.is_some()
            && item.scope.run_id.is_none()
            && item.scope.agent_id.as_deref() == Some(&self.agent)
    }

    /// True when the caller may change (delete, pin, overwrite, clear) `item`: its owner or an admin; a
    /// system entry only an admin (a caller without a user is not its owner).
    pub fn may_change(&self, item: &MemoryItem) -> bool {
        self.caller.may_change(item.scope.user_id.as_deref())
    }

    /// The caller's visible entries, oldest first.
    pub async fn entries(&self, engine: &Engine) -> Result<Vec<MemoryItem>, ApiError> {
        let page = engine.get_all(&self.read(CANDIDATES)).await?;
        Ok(page.results.into_iter().filter(|item| self.is_entry(item)).collect())
    }

    /// The live entry with `key`, whoever owns it.
    pub async fn owner_of(&self, engine: &Engine, key: &str) -> Result<Option<MemoryItem>, ApiError> {
        let page = engine.get_all(&Read::of(self.agent_scope(), CANDIDATES)).await?;
        Ok(page.results.into_iter().find(|item| self.is_entry(item) && item.lifecycle.key.as_deref() == Some(key)))
    }

    /// The entry with `key`, if the caller may see it: the caller's own first, then the system's, then
    /// (admins only) another user's. 404 when there is none, 410 when it just expired, 403 when it is
    /// another user's.
    pub async fn locate(&self, engine: &Engine, key: &str) -> Result<MemoryItem, ApiError> {
        let mut scopes = vec![self.own_scope()];
        if self.caller.user.is_some() {
            scopes.push(self.agent_scope());
        }
        for scope in &scopes {
            match engine.lifecycle().get_by_key(key, scope).await {
                Ok(item) => return Ok(item),
                Err(MemoryError::NotFound(_)) => {}
                Err(error) => return Err(error.into()),
            }
        }
        match self.owner_of(engine, key).await? {
            Some(item) if self.caller.admin => Ok(item),
            Some(_) => Err(ApiError::forbidden(format!("memory entry {key:?} belongs to another user"))),
            None => Err(ApiError::not_found(format!("memory entry {key:?} of agent {:?}", self.agent))),
        }
    }

    /// `locate`, for a change: 403 unless the caller owns the entry or is an admin.
    pub async fn locate_owned(&self, engine: &Engine, key: &str) -> Result<MemoryItem, ApiError> {
        let item = self.locate(engine, key).await?;
        if !self.may_change(&item) {
            return Err(ApiError::forbidden(format!(
                "memory entry {key:?} is a system entry; only an admin may change it"
            )));
        }
        Ok(item)
    }
}
