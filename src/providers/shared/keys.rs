//! Hosted model services need an API key. One left out of the config (and of the provider's environment
//! variable) is `INVALID_CONFIG` when the memory is built, not a warning on the first `add()`. A `baseUrl`
//! of one's own (a local server, a proxy that adds the key) needs none.

use crate::core::config::invalid;
pub use crate::core::config::Env;
use crate::core::error::Result;

/// Who needs a key: the provider, the config section, and where else the key may come from.
pub(crate) struct KeyNeed<'a> {
    /// `llm` or `embedder`.
    pub section: &'a str,
    pub provider: &'a str,
    /// The environment variable read when the config has no key.
    pub env_var: Option<&'a str>,
    /// The config field that points elsewhere (`baseUrl`, `endpoint` for Azure).
    pub url_field: &'a str,
}

/// `key` (blank counts as absent), or `INVALID_CONFIG` when there is none and `hosted` (the URL is the
/// service's own) says one is needed.
pub(crate) fn api_key(need: KeyNeed, key: Option<String>, hosted: bool) -> Result<Option<String>> {
    let key = key.filter(|key| !key.trim().is_empty());
    if key.is_some() || !hosted {
        return Ok(key);
    }
    let KeyNeed { section, provider, env_var, url_field } = need;
    let from_env = env_var.map(|name| format!(" (or set {name} in Node)")).unwrap_or_default();
    let others = match section {
        "embedder" => "\"ollama\", \"local\" (on-device), \"custom\" (your own function) or \"none\"",
        _ => "\"ollama\", \"custom\" (your own function) or \"none\"",
    };
    Err(invalid(
        &format!("{section}.config.apiKey"),
        format!(
            "the \"{provider}\" provider needs an API key and none was given: pass {section}.config.apiKey{from_env}, \
             or {section}.config.{url_field} for a local or compatible server that needs none, or choose \
             another {section}.provider such as {others}"
        ),
    ))
}

/// Whether `url` is `default` (trailing slashes aside).
pub(crate) fn is_default(url: &str, default: &str) -> bool {
    url.trim_end_matches('/') == default.trim_end_matches('/')
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod tests;
