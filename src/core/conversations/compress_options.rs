//! `compress()`'s options and result: a scope (`groupId` is the run, as in the reads), the
//! `threshold` of uncompressed sessions above which it compresses, and how many of the oldest sessions it
//! then summarises (`sessionsToCompress`, default half the threshold, at least 1).

use serde::{Deserialize, Serialize};

use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::{ScopeFields, ScopeForm};
use crate::core::model::scope_fields_de::scoped_options;
use crate::core::model::types::AddWarning;
use crate::core::read::positive_whole;

/// The options as given (strict: an unknown key is `INVALID_INPUT`; snake_case names are aliases).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
pub struct CompressOptions {
    /// `userId`, `agentId`, `runId`, `groupId` (snake_case too).
    #[serde(skip)]
    pub scope: ScopeFields,
    /// Required: compress when the scope has more uncompressed episodic sessions than this.
    pub threshold: Option<f64>,
    #[serde(alias = "sessions_to_compress")]
    pub sessions_to_compress: Option<f64>,
}
scoped_options!(CompressOptions, ScopeForm::WithGroup);

/// The options, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressPlan {
    pub scope: Scope,
    pub threshold: usize,
    /// How many of the oldest sessions to summarise.
    pub take: usize,
}

impl CompressOptions {
    /// A scope, a whole `threshold` ≥ 0, a positive whole `sessionsToCompress`.
    pub fn check(&self) -> Result<CompressPlan> {
        let scope = self.scope.checked()?;
        let threshold = match self.threshold {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n.is_finite() => n.min(u32::MAX as f64) as usize,
            Some(n) => return Err(MemoryError::InvalidInput(format!("threshold must be a whole number ≥ 0, got {n}"))),
            None => return Err(MemoryError::InvalidInput("compress needs a threshold (a whole number ≥ 0)".into())),
        };
        let take = positive_whole("sessionsToCompress", self.sessions_to_compress, (threshold / 2).max(1))?;
        Ok(CompressPlan { scope, threshold, take })
    }
}

/// One session `compress()` summarised.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompressedSession {
    pub session_id: String,
    /// The new `semantic` memory.
    pub summary_id: String,
    pub summary: String,
    /// The episodic memories it replaces (now `metadata.compressed: true`).
    pub memory_ids: Vec<String>,
    pub start_time: String,
    pub end_time: String,
}

/// What `compress()` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompressOutcome {
    /// Uncompressed episodic sessions the scope held before the call.
    pub sessions: usize,
    /// The sessions summarised, oldest first (empty when `sessions` was not above the threshold).
    pub compressed: Vec<CompressedSession>,
    /// `COMPRESSION_FAILED` for each session whose summary failed (it stays uncompressed), `NOT_EMBEDDED`,
    /// `LOW_IMPORTANCE`.
    pub warnings: Vec<AddWarning>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(value: serde_json::Value) -> Result<CompressPlan> {
        serde_json::from_value::<CompressOptions>(value).map_err(|e| MemoryError::InvalidInput(e.to_string()))?.check()
    }

    #[test]
    fn options_are_checked() {
        let plan = check(json!({"groupId": "g", "threshold": 6})).unwrap();
        assert_eq!(
            plan,
            CompressPlan { scope: Scope { run_id: Some("g".into()), ..Scope::default() }, threshold: 6, take: 3 }
        );
        assert_eq!(check(json!({"user_id": "u", "threshold": 1})).unwrap().take, 1);
        assert_eq!(check(json!({"userId": "u", "threshold": 0, "sessions_to_compress": 4})).unwrap().take, 4);
        assert_eq!(check(json!({"threshold": 2})).unwrap_err().code(), "SCOPE_REQUIRED");
        assert_eq!(
            check(json!({"userId": "__all__", "groupId": "__all__", "threshold": 2})).unwrap_err().code(),
            "SCOPE_REQUIRED"
        );
        for bad in [
            json!({"userId": "u"}),
            json!({"userId": "u", "threshold": -1}),
            json!({"userId": "u", "threshold": 2.5}),
            json!({"userId": "u", "threshold": 2, "sessionsToCompress": 0}),
            json!({"userId": "u", "threshold": 2, "limit": 3}),
        ] {
            assert_eq!(check(bad.clone()).unwrap_err().code(), "INVALID_INPUT", "{bad}");
        }
    }
}
