//! Who a `/mcp` call acts for. A tenant-wide token reaches every user of its tenant, and its calls that name
//! no user_id, agent_id or run_id use its own user (`{"tenant", "user", "admin": true}`), else `MCP_USER_ID`.
//! A user's token (`{"tenant", "user"}`) acts as its user only: every call's scope carries that user (an
//! agent or run of it, never another user's), and a call that names another user, or a memory of another
//! user, is `FORBIDDEN`. A reader's token (no user, not admin) never gets here: the desk refuses it.

use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::MemoryItem;
use serde_json::{Map, Value};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::settings::text;
use crate::visit::Visit;

/// What a call may reach.
pub enum Access {
    /// The whole tenant; `default_user` is the user of calls that name no scope.
    Tenant { default_user: String },
    /// One user's memories and graph.
    User(String),
}

impl Access {
    /// The access of the visit's token.
    pub fn of(visit: &Visit<'_>) -> Self {
        match &visit.caller {
            Caller { user: Some(user), admin: false, .. } => Self::User(user.clone()),
            // A tenant-wide token that names a user acts for that user when a call names none.
            Caller { user: Some(user), admin: true, .. } => Self::Tenant { default_user: user.clone() },
            Caller { user: None, .. } => Self::Tenant { default_user: default_user(visit.env) },
        }
    }

    /// The user of calls that name no user_id, agent_id or run_id.
    pub fn default_user(&self) -> &str {
        match self {
            Self::Tenant { default_user } => default_user,
            Self::User(user) => user,
        }
    }

    /// `scope` (options `userId`, `agentId`, `runId`; empty when the call named none) as this access may
    /// use it: the default user when it is empty; for a user's token, always its user, and `FORBIDDEN` when
    /// it names another.
    pub fn confine(&self, scope: &mut Map<String, Value>) -> Result<(), ApiError> {
        let own = match self {
            Self::Tenant { default_user } if scope.is_empty() => default_user,
            Self::Tenant { .. } => return Ok(()),
            Self::User(user) => user,
        };
        if let Some(named) = scope.get("userId").and_then(Value::as_str).filter(|named| named.trim() != own.trim()) {
            return Err(self.forbidden(&format!("the call names the user {named:?}")));
        }
        scope.insert("userId".into(), Value::String(own.clone()));
        Ok(())
    }

    /// `FORBIDDEN` when `item` is not this user's (a tenant-wide token may touch any memory).
    pub fn may_touch(&self, item: &MemoryItem) -> Result<(), ApiError> {
        match self {
            Self::User(user) if item.scope.user_id.as_deref().map(str::trim) != Some(user.trim()) => {
                Err(self.forbidden(&format!("memory {} belongs to another user", item.id)))
            }
            _ => Ok(()),
        }
    }

    /// True for a user's token.
    pub fn is_user(&self) -> bool {
        matches!(self, Self::User(_))
    }

    /// The scopes an entity list covers: the whole tenant, or the user's.
    pub fn listed(&self) -> Scope {
        match self {
            Self::Tenant { .. } => Scope::default(),
            Self::User(user) => Scope { user_id: Some(user.clone()), ..Scope::default() },
        }
    }

    fn forbidden(&self, what: &str) -> ApiError {
        let user = self.default_user();
        ApiError::forbidden(format!(
            "{what}; this token acts as the user {user:?} only: name no user_id (or {user:?}), or use a \
             tenant-wide token"
        ))
    }
}

/// The user of a call that names no user_id, agent_id or run_id, with a tenant-wide token that names no
/// user: the var `MCP_USER_ID`, else `"default"`.
fn default_user(env: &worker::Env) -> String {
    text(env, "MCP_USER_ID").filter(|user| !user.trim().is_empty()).unwrap_or_else(|| "default".into())
}
