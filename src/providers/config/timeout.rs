//! `timeoutMs` in `llm.config` and `embedder.config`. Every model provider takes it, so it is read here and
//! taken out before the provider reads the rest of its options.

use serde_json::Value;

use crate::core::config::{invalid, ProviderConfig};
use crate::core::error::Result;

/// An LLM request without a response for this long is aborted. A long structured reply (2000 tokens from a
/// slow or busy host) takes well under it; a host that never answers holds a call for a minute per attempt.
pub const DEFAULT_LLM_TIMEOUT_MS: u32 = 60_000;
/// The same for an embedding request, which takes seconds even for a full batch on a busy host.
pub const DEFAULT_EMBEDDER_TIMEOUT_MS: u32 = 30_000;
/// The longest timeout accepted: one hour.
const MAX_TIMEOUT_MS: f64 = 3_600_000.0;

/// Providers the platform brings (a JS callback, the Workers AI binding): no default timeout, since a local
/// model may load its weights inside its first call.
const LIVE: &[&str] = &["custom", "workers-ai", "none"];

/// Takes `timeoutMs` out of `part.config` (a config left empty becomes none, so providers that take no
/// other options accept it) and returns it: the given one, else `default` for HTTP providers, else none.
pub fn take_timeout(part: &mut ProviderConfig, section: &str, default: u32) -> Result<Option<u32>> {
    let given = match part.config.as_mut() {
        Some(Value::Object(options)) => options.remove("timeoutMs"),
        _ => None,
    };
    let Some(given) = given else {
        return Ok((!LIVE.contains(&part.provider.as_str())).then_some(default));
    };
    if matches!(&part.config, Some(Value::Object(options)) if options.is_empty()) {
        part.config = None;
    }
    match given.as_f64() {
        Some(ms) if ms.fract() == 0.0 && (1.0..=MAX_TIMEOUT_MS).contains(&ms) => Ok(Some(ms as u32)),
        _ => Err(invalid(
            &format!("{section}.config.timeoutMs"),
            format!("must be a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS}, got {given}"),
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

    #[test]
    fn http_providers_default_and_live_ones_have_none_unless_set() {
        let mut openai = part("openai", Some(json!({"model": "m"})));
        assert_eq!(take_timeout(&mut openai, "llm", 60_000).unwrap(), Some(60_000));
        assert_eq!(openai.config, Some(json!({"model": "m"})));
        assert_eq!(take_timeout(&mut part("ollama", None), "embedder", 30_000).unwrap(), Some(30_000));
        assert_eq!(take_timeout(&mut part("custom", None), "llm", 60_000).unwrap(), None);
        let mut custom = part("custom", Some(json!({"timeoutMs": 5000})));
        assert_eq!(take_timeout(&mut custom, "llm", 60_000).unwrap(), Some(5000));
        assert_eq!(custom.config, None, "a config of only timeoutMs is no config");
        let mut groq = part("groq", Some(json!({"model": "m", "timeoutMs": 300.0})));
        assert_eq!(take_timeout(&mut groq, "llm", 60_000).unwrap(), Some(300));
        assert_eq!(groq.config, Some(json!({"model": "m"})));
    }

    #[test]
    fn a_bad_timeout_names_its_field() {
        for bad in [json!(0), json!(-5), json!(1.5), json!("300"), json!(3_600_001)] {
            let mut bad = part("openai", Some(json!({"timeoutMs": bad})));
            let error = take_timeout(&mut bad, "embedder", 30_000).unwrap_err();
            assert_eq!(error.code(), "INVALID_CONFIG");
            assert!(error.to_string().contains("embedder.config.timeoutMs"), "{error}");
        }
    }
}
