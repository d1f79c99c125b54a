//! `timeoutMs`, `connectTimeoutMs` and `coolDownMs` in `llm.config` and `embedder.config`: every model
//! provider takes the first, the HTTP ones all three, so they are read here and taken out before the
//! provider reads the rest of its options.

use serde_json::{Map, Value};

use crate::core::config::{invalid, ProviderConfig};
use crate::core::error::Result;
use crate::http::HostWatch;

/// An LLM request without a response for this long is aborted. A long structured reply (2000 tokens from a
/// slow or busy host) takes well under it; a dead host is found sooner (`connectTimeoutMs`).
pub const DEFAULT_LLM_TIMEOUT_MS: u32 = 60_000;
/// The same for an embedding request, which takes seconds even for a full batch on a busy host.
pub const DEFAULT_EMBEDDER_TIMEOUT_MS: u32 = 30_000;
/// The longest time accepted: one hour.
const MAX_MS: f64 = 3_600_000.0;

/// Providers the platform brings (a JS callback, the Workers AI binding): no default timeout, since a local
/// model may load its weights inside its first call, and no host to watch.
const LIVE: &[&str] = &["custom", "workers-ai", "none"];

/// How a model's calls are bounded: `timeoutMs` (none: no limit) and how its host is watched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub timeout_ms: Option<u32>,
    pub watch: HostWatch,
}

/// Takes the three options out of `part.config` (a config left empty becomes none, so providers that take
/// no other options accept it) and returns them: the given ones, else the defaults (`default` is the HTTP
/// providers' timeout; live ones have none, and refuse the two options of a host).
pub fn take_bounds(part: &mut ProviderConfig, section: &str, default: u32) -> Result<Bounds> {
    let live = LIVE.contains(&part.provider.as_str());
    let mut bounds = Bounds { timeout_ms: (!live).then_some(default), watch: HostWatch::default() };
    let Some(Value::Object(options)) = part.config.as_mut() else { return Ok(bounds) };
    let given = options.len();
    let path = |key: &str| format!("{section}.config.{key}");
    if let Some(ms) = take_ms(options, "timeoutMs", 1, &path)? {
        bounds.timeout_ms = Some(ms);
    }
    for key in ["connectTimeoutMs", "coolDownMs"] {
        let Some(ms) = take_ms(options, key, 0, &path)? else { continue };
        if live {
            let why = format!("only the HTTP providers take it (\"{}\" has no host to watch)", part.provider);
            return Err(invalid(&path(key), why));
        }
        match key {
            "connectTimeoutMs" => bounds.watch.connect_timeout_ms = ms,
            _ => bounds.watch.cool_down_ms = ms,
        }
    }
    if options.is_empty() && given > 0 {
        part.config = None;
    }
    Ok(bounds)
}

/// Takes `key` out of `options`: a whole number of milliseconds from `min` to one hour.
fn take_ms(
    options: &mut Map<String, Value>,
    key: &str,
    min: u32,
    path: &dyn Fn(&str) -> String,
) -> Result<Option<u32>> {
    let Some(given) = options.remove(key) else { return Ok(None) };
    match given.as_f64() {
        Some(ms) if ms.fract() == 0.0 && (f64::from(min)..=MAX_MS).contains(&ms) => Ok(Some(ms as u32)),
        _ => Err(invalid(
            &path(key),
            format!("must be a whole number of milliseconds from {min} to {MAX_MS}, got {given}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn part(provider: &str, config: Option<Value>) -> ProviderConfig {
        ProviderConfig { provider: provider.into(), config, dimensions: None }
    }

    fn timeout(part: &mut ProviderConfig, section: &str, default: u32) -> Option<u32> {
        take_bounds(part, section, default).unwrap().timeout_ms
    }

    #[test]
    fn http_providers_default_and_live_ones_have_none_unless_set() {
        let mut openai = part("openai", Some(json!({"model": "m"})));
        assert_eq!(timeout(&mut openai, "llm", 60_000), Some(60_000));
        assert_eq!(openai.config, Some(json!({"model": "m"})));
        assert_eq!(timeout(&mut part("ollama", None), "embedder", 30_000), Some(30_000));
        assert_eq!(timeout(&mut part("custom", None), "llm", 60_000), None);
        let mut custom = part("custom", Some(json!({"timeoutMs": 5000})));
        assert_eq!(timeout(&mut custom, "llm", 60_000), Some(5000));
        assert_eq!(custom.config, None, "a config of only timeoutMs is no config");
        let mut groq = part("groq", Some(json!({"model": "m", "timeoutMs": 300.0})));
        assert_eq!(timeout(&mut groq, "llm", 60_000), Some(300));
        assert_eq!(groq.config, Some(json!({"model": "m"})));
    }

    #[test]
    fn a_bad_timeout_names_its_field() {
        for bad in [json!(0), json!(-5), json!(1.5), json!("300"), json!(3_600_001)] {
            let mut bad = part("openai", Some(json!({"timeoutMs": bad})));
            let error = take_bounds(&mut bad, "embedder", 30_000).unwrap_err();
            assert_eq!(error.code(), "INVALID_CONFIG");
            assert!(error.to_string().contains("embedder.config.timeoutMs"), "{error}");
        }
    }

    #[test]
    fn http_providers_watch_their_host_by_default_and_take_their_own_bounds() {
        let defaults = take_bounds(&mut part("openai", None), "llm", 60_000).unwrap();
        assert_eq!(defaults.watch, HostWatch { connect_timeout_ms: 5_000, cool_down_ms: 30_000 });
        let mut given = part("ollama", Some(json!({"connectTimeoutMs": 2000, "coolDownMs": 0, "timeoutMs": 9000})));
        let bounds = take_bounds(&mut given, "embedder", 30_000).unwrap();
        let watch = HostWatch { connect_timeout_ms: 2_000, cool_down_ms: 0 };
        assert_eq!(bounds, Bounds { timeout_ms: Some(9_000), watch });
        assert_eq!(given.config, None, "taken out");
    }

    #[test]
    fn bad_host_bounds_name_their_field_and_live_providers_refuse_them() {
        for (key, bad) in [("connectTimeoutMs", json!(-1)), ("coolDownMs", json!(2.5)), ("coolDownMs", json!("30"))] {
            let mut given = part("openai", Some(json!({ key: bad })));
            let error = take_bounds(&mut given, "llm", 60_000).unwrap_err();
            assert_eq!(error.code(), "INVALID_CONFIG");
            assert!(error.to_string().contains(&format!("llm.config.{key}")), "{error}");
        }
        for provider in ["custom", "workers-ai"] {
            let mut given = part(provider, Some(json!({"coolDownMs": 1000})));
            let error = take_bounds(&mut given, "embedder", 30_000).unwrap_err().to_string();
            assert!(error.contains("embedder.config.coolDownMs: only the HTTP providers"), "{error}");
        }
    }
}
