//! `ingest()`'s options as callers give them: the scope (`userId` / `agentId` / `runId`, snake_case
//! aliases too), the required `sessionId`, and an optional `memoryTypeHint`. Unknown keys are refused.

use serde::Deserialize;

use crate::core::error::Result;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::{ScopeFields, ScopeForm};
use crate::core::model::scope_fields_de::scoped_options;
use crate::core::model::MemoryType;
use crate::core::pipeline_options::required_text;

/// Options of `ingest(text, options)`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
pub struct IngestOptions {
    /// `userId`, `agentId`, `runId` (snake_case too).
    #[serde(skip)]
    pub scope: ScopeFields,
    /// The session the document belongs to, kept as `metadata.sessionId` of every stored chunk.
    #[serde(alias = "session_id")]
    pub session_id: Option<String>,
    /// The type of every chunk, instead of the routed one.
    #[serde(alias = "memory_type_hint")]
    pub memory_type_hint: Option<MemoryType>,
}
scoped_options!(IngestOptions, ScopeForm::Plain);

impl IngestOptions {
    /// The validated scope (`SCOPE_REQUIRED` without one) and session id (`INVALID_INPUT` when missing or blank).
    pub fn checked(&self) -> Result<(Scope, String)> {
        let scope = self.scope.checked()?;
        let session = required_text("sessionId", self.session_id.as_deref())?;
        Ok((scope, session.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strict_options_with_snake_case_aliases() {
        let options: IngestOptions =
            serde_json::from_value(json!({"user_id": "u", "session_id": "s1", "memoryTypeHint": "working"})).unwrap();
        let (scope, session) = options.checked().unwrap();
        assert_eq!((scope.user_id.as_deref(), session.as_str()), (Some("u"), "s1"));
        assert_eq!(options.memory_type_hint, Some(MemoryType::Working));
        for bad in
            [json!({"userId": "u", "sessionId": "s", "memoryTypeHint": "habit"}), json!({"userId": "u", "ttl": 5})]
        {
            assert!(serde_json::from_value::<IngestOptions>(bad.clone()).is_err(), "{bad}");
        }
        let no_scope: IngestOptions = serde_json::from_value(json!({"sessionId": "s"})).unwrap();
        assert_eq!(no_scope.checked().unwrap_err().code(), "SCOPE_REQUIRED");
        for session in [json!({"userId": "u"}), json!({"userId": "u", "sessionId": " "})] {
            let options: IngestOptions = serde_json::from_value(session).unwrap();
            assert_eq!(options.checked().unwrap_err().code(), "INVALID_INPUT");
        }
    }
}
