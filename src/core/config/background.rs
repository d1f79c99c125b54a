//! The `background` config: how long the writer waits for more turns and how many scopes it writes at once.
//! Retries of a failed batch follow the config's `retry` policy.

use serde::Deserialize;

use crate::core::error::{MemoryError, Result};

/// `background` as given.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BackgroundOptions {
    /// Turns of one scope arriving within this many ms of each other go to one `add()` (default 2000).
    pub debounce_ms: Option<f64>,
    /// Scopes written at once (default 2).
    pub concurrency: Option<f64>,
}

/// `background` (and `retry`) settings, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackgroundSettings {
    pub debounce_ms: u32,
    pub concurrency: usize,
    /// Retries of a failed batch (`retry.maxRetries`).
    pub max_retries: u32,
    /// First retry delay; doubles each retry, up to `max_delay_ms` (`retry.baseDelayMs`, `retry.maxDelayMs`).
    pub base_delay_ms: u32,
    pub max_delay_ms: u32,
}

impl Default for BackgroundSettings {
    fn default() -> Self {
        Self { debounce_ms: 2000, concurrency: 2, max_retries: 3, base_delay_ms: 1000, max_delay_ms: 30_000 }
    }
}

impl BackgroundSettings {
    /// Checks `options` (a whole `debounceMs` in 0..=3 600 000, a whole `concurrency` in 1..=16) and takes
    /// the retry policy's numbers.
    pub fn resolve(options: Option<BackgroundOptions>, retry: (u32, u32, u32)) -> Result<Self> {
        let options = options.unwrap_or_default();
        let whole = |key: &str, value: Option<f64>, range: std::ops::RangeInclusive<f64>, default: f64| match value {
            None => Ok(default),
            Some(n) if n.fract() == 0.0 && range.contains(&n) => Ok(n),
            Some(n) => Err(MemoryError::InvalidConfig(format!(
                "background.{key}: must be a whole number from {} to {}, got {n}",
                range.start(),
                range.end()
            ))),
        };
        let defaults = Self::default();
        let (max_retries, base_delay_ms, max_delay_ms) = retry;
        Ok(Self {
            debounce_ms: whole("debounceMs", options.debounce_ms, 0.0..=3_600_000.0, defaults.debounce_ms.into())?
                as u32,
            concurrency: whole("concurrency", options.concurrency, 1.0..=16.0, defaults.concurrency as f64)? as usize,
            max_retries,
            base_delay_ms,
            max_delay_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(debounce: Option<f64>, concurrency: Option<f64>) -> Option<BackgroundOptions> {
        Some(BackgroundOptions { debounce_ms: debounce, concurrency })
    }

    #[test]
    fn defaults_and_bounds() {
        let settings = BackgroundSettings::resolve(None, (3, 1000, 30_000)).unwrap();
        assert_eq!(settings, BackgroundSettings::default());
        let set = BackgroundSettings::resolve(options(Some(0.0), Some(4.0)), (0, 5, 10)).unwrap();
        assert_eq!((set.debounce_ms, set.concurrency, set.max_retries, set.base_delay_ms), (0, 4, 0, 5));
        for bad in
            [options(Some(-1.0), None), options(Some(1.5), None), options(None, Some(0.0)), options(None, Some(17.0))]
        {
            assert_eq!(BackgroundSettings::resolve(bad, (3, 1, 1)).unwrap_err().code(), "INVALID_CONFIG");
        }
    }
}
