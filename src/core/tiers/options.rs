//! The options of the tier calls (`context`, `flush`, `journal`, `journals`, `dream`, `coreProfile`,
//! `dreamDiary`, `formatForInjection`): one strict type, a scope plus the keys each call uses. An unknown
//! key, or one the call does not use, is `INVALID_INPUT` naming it.

use serde::Deserialize;

use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::{ScopeFields, ScopeForm};
use crate::core::model::scope_fields_de::scoped_options;
use crate::core::read::positive_whole;
use crate::core::time::millis_from_iso;

/// The tier options as given (camelCase; snake_case names are aliases).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase", deny_unknown_fields)]
pub struct TierOptions {
    /// `userId`, `agentId`, `runId` (snake_case too).
    #[serde(skip)]
    pub scope: ScopeFields,
    /// `context`, `formatForInjection`: the token budget.
    #[serde(alias = "max_tokens")]
    pub max_tokens: Option<f64>,
    /// `context`: the turns always kept verbatim (default 6).
    #[serde(alias = "keep_last")]
    pub keep_last: Option<f64>,
    /// `journal`: the day, `YYYY-MM-DD` (default today, UTC).
    pub date: Option<String>,
    /// `journals`: the first day listed, `YYYY-MM-DD` (default: every day).
    pub since: Option<String>,
    /// `dream`: how many days before today's journals are read (default 1: yesterday and today).
    #[serde(alias = "lookback_days")]
    pub lookback_days: Option<f64>,
}
scoped_options!(TierOptions, ScopeForm::Plain);

/// Which call the options are for: each uses the scope and its own keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierCall {
    Context,
    Flush,
    Journal,
    Journals,
    Dream,
    CoreProfile,
    Inject,
}

/// Default `keepLast` of the context tier.
pub const DEFAULT_KEEP_LAST: usize = 6;
/// Default `lookbackDays` of `dream`.
pub const DEFAULT_LOOKBACK_DAYS: usize = 1;

impl TierCall {
    /// The non-scope keys this call takes.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Self::Context => &["maxTokens", "keepLast"],
            Self::Inject => &["maxTokens"],
            Self::Journal => &["date"],
            Self::Journals => &["since"],
            Self::Dream => &["lookbackDays"],
            Self::Flush | Self::CoreProfile => &[],
        }
    }
}

impl TierOptions {
    /// Refuses keys `call` does not use; returns the validated scope.
    pub fn scope_for(&self, call: TierCall) -> Result<Scope> {
        let given = [
            ("maxTokens", self.max_tokens.is_some()),
            ("keepLast", self.keep_last.is_some()),
            ("date", self.date.is_some()),
            ("since", self.since.is_some()),
            ("lookbackDays", self.lookback_days.is_some()),
        ];
        if let Some((key, _)) = given.iter().find(|(key, set)| *set && !call.keys().contains(key)) {
            return Err(MemoryError::InvalidInput(format!("{key}: not an option of this call")));
        }
        self.scope.checked()
    }

    /// `maxTokens`, required: a whole number ≥ 1.
    pub fn max_tokens(&self) -> Result<usize> {
        match self.max_tokens {
            Some(_) => positive_whole("maxTokens", self.max_tokens, 1),
            None => Err(MemoryError::InvalidInput("maxTokens is required (a whole number ≥ 1)".into())),
        }
    }

    /// `keepLast` (default 6): a whole number ≥ 1.
    pub fn keep_last(&self) -> Result<usize> {
        positive_whole("keepLast", self.keep_last, DEFAULT_KEEP_LAST)
    }

    /// `lookbackDays` (default 1): a whole number ≥ 0.
    pub fn lookback_days(&self) -> Result<usize> {
        match self.lookback_days {
            Some(days) if days >= 0.0 && days.fract() == 0.0 && days <= 3660.0 => Ok(days as usize),
            Some(days) => {
                Err(MemoryError::InvalidInput(format!("lookbackDays must be a whole number 0..3660, got {days}")))
            }
            None => Ok(DEFAULT_LOOKBACK_DAYS),
        }
    }

    /// `date`, checked, if given.
    pub fn date(&self) -> Result<Option<String>> {
        self.date.as_deref().map(|date| day("date", date)).transpose()
    }

    /// `since`, checked, if given.
    pub fn since(&self) -> Result<Option<String>> {
        self.since.as_deref().map(|date| day("since", date)).transpose()
    }
}

/// A `YYYY-MM-DD` calendar day, or `INVALID_INPUT` naming `key`.
pub fn day(key: &str, text: &str) -> Result<String> {
    let well_formed = text.len() == 10 && text.as_bytes()[4] == b'-' && text.as_bytes()[7] == b'-';
    match well_formed && millis_from_iso(&format!("{text}T00:00:00Z")).is_some() {
        true => Ok(text.to_owned()),
        false => Err(MemoryError::InvalidInput(format!("{key} must be a day as YYYY-MM-DD, got {text:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn options(value: serde_json::Value) -> TierOptions {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn each_call_takes_its_keys_and_a_scope() {
        let context = options(json!({"userId": "u", "maxTokens": 100, "keep_last": 2}));
        assert_eq!(context.scope_for(TierCall::Context).unwrap().user_id.as_deref(), Some("u"));
        assert_eq!((context.max_tokens().unwrap(), context.keep_last().unwrap()), (100, 2));
        let refused = context.scope_for(TierCall::Inject).unwrap_err();
        assert_eq!((refused.code(), refused.to_string().contains("keepLast")), ("INVALID_INPUT", true));
        assert_eq!(options(json!({})).scope_for(TierCall::Flush).unwrap_err().code(), "SCOPE_REQUIRED");
        assert_eq!(options(json!({"userId": "u"})).keep_last().unwrap(), DEFAULT_KEEP_LAST);
        assert_eq!(options(json!({"userId": "u"})).lookback_days().unwrap(), DEFAULT_LOOKBACK_DAYS);
        assert!(serde_json::from_value::<TierOptions>(json!({"userId": "u", "limit": 1})).is_err());
    }

    #[test]
    fn bad_values_are_invalid_input() {
        for bad in [json!({"maxTokens": 0}), json!({"maxTokens": 1.5}), json!({})] {
            assert_eq!(options(bad.clone()).max_tokens().unwrap_err().code(), "INVALID_INPUT", "{bad}");
        }
        assert_eq!(options(json!({"lookbackDays": -1})).lookback_days().unwrap_err().code(), "INVALID_INPUT");
        assert_eq!(options(json!({"date": "2026-02-30x"})).date().unwrap_err().code(), "INVALID_INPUT");
        assert_eq!(options(json!({"date": "yesterday"})).date().unwrap_err().code(), "INVALID_INPUT");
        assert_eq!(options(json!({"since": "2026-11-01"})).since().unwrap().as_deref(), Some("2026-11-01"));
    }
}
