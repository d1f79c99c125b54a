//! The config as environment variables give it (the REST service's `wrangler.toml` vars and secrets),
//! mapped onto the same config object that `new Memory(config)` takes, so one reader checks both:
//!
//! | var | config |
//! |---|---|
//! | `LLM_PROVIDER` | `llm.provider` (default `openai`; `custom` needs a JS callback, so it is refused) |
//! | `LLM_MODEL`, `LLM_BASE_URL`, `LLM_API_KEY` | `llm.config.model`, `.baseUrl`, `.apiKey` |
//! | `LLM_CONFIG` | a JSON object of any other `llm.config` option |
//! | `EMBEDDER_PROVIDER`, `EMBEDDER_MODEL`, `EMBEDDER_BASE_URL`, `EMBEDDER_API_KEY`, `EMBEDDER_CONFIG` | the same for `embedder` |
//! | `EMBEDDER_DIMENSIONS` | `embedder.config.dimensions` |
//! | `MAX_RETRIES` | `retry.maxRetries` |
//! | `GRAPH_ENABLED` (`"true"` / `"false"`) | `graph.enabled` |
//!
//! `OPENAI_API_KEY`, `OPENAI_BASE_URL` and each host's key variable stay fallbacks, read when the config is
//! resolved. Errors name the variable.

use serde_json::{json, Map, Value};

use super::MemoryConfig;
use crate::core::error::{MemoryError, Result};

/// Environment lookup (`OPENAI_API_KEY`, `LLM_PROVIDER`, …) where the platform has one.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// `INVALID_CONFIG` naming the variable `name`.
fn invalid_var(name: &str, why: String) -> MemoryError {
    MemoryError::InvalidConfig(format!("{name}: {why}"))
}

/// A variable that is set and not blank.
pub fn var_text(env: Env, name: &str) -> Option<String> {
    env(name).filter(|value| !value.trim().is_empty())
}

/// A variable holding a whole number, if set.
pub fn var_whole_number(env: Env, name: &str) -> Result<Option<u64>> {
    match var_text(env, name) {
        None => Ok(None),
        Some(value) => value
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| invalid_var(name, format!("must be a whole number, got {value:?}"))),
    }
}

/// A variable holding a (finite) number, if set.
pub fn var_number(env: Env, name: &str) -> Result<Option<f64>> {
    match var_text(env, name) {
        None => Ok(None),
        Some(value) => match value.trim().parse::<f64>() {
            Ok(number) if number.is_finite() => Ok(Some(number)),
            _ => Err(invalid_var(name, format!("must be a number, got {value:?}"))),
        },
    }
}

/// A `"true"` / `"false"` variable, `default` when unset.
pub fn var_flag(env: Env, name: &str, default: bool) -> Result<bool> {
    match var_text(env, name).as_deref().map(str::trim) {
        None => Ok(default),
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(invalid_var(name, format!("must be \"true\" or \"false\", got {other:?}"))),
    }
}

/// `{provider, config}` of the LLM or the embedder from the variables starting with `prefix` (`LLM` / `EMBEDDER`).
fn model_part(env: Env, prefix: &str) -> Result<Value> {
    let mut config = match var_text(env, &format!("{prefix}_CONFIG")) {
        None => Map::new(),
        Some(raw) => match serde_json::from_str(&raw) {
            Ok(Value::Object(object)) => object,
            _ => return Err(invalid_var(&format!("{prefix}_CONFIG"), format!("must be a JSON object, got {raw:?}"))),
        },
    };
    for (key, suffix) in [("model", "MODEL"), ("baseUrl", "BASE_URL"), ("apiKey", "API_KEY")] {
        if let Some(value) = var_text(env, &format!("{prefix}_{suffix}")) {
            config.insert(key.to_owned(), Value::String(value));
        }
    }
    let provider = var_text(env, &format!("{prefix}_PROVIDER")).unwrap_or_else(|| "openai".to_owned());
    if provider == "custom" {
        let why = "\"custom\" needs a JS callback; the service has none".to_owned();
        return Err(invalid_var(&format!("{prefix}_PROVIDER"), why));
    }
    let takes_config = !config.is_empty() && provider != "none";
    Ok(if takes_config { json!({"provider": provider, "config": config}) } else { json!({ "provider": provider }) })
}

impl MemoryConfig {
    /// The config the variables of `env` describe (see the table above); unresolved, like a parsed
    /// `new Memory(config)` object, so `resolve` fills its defaults and checks it.
    pub fn from_env_vars(env: Env) -> Result<MemoryConfig> {
        let mut embedder = model_part(env, "EMBEDDER")?;
        if let Some(dimensions) = var_whole_number(env, "EMBEDDER_DIMENSIONS")? {
            embedder["config"]["dimensions"] = json!(dimensions);
        }
        let mut config = json!({ "llm": model_part(env, "LLM")?, "embedder": embedder });
        if let Some(retries) = var_whole_number(env, "MAX_RETRIES")? {
            config["retry"] = json!({ "maxRetries": retries });
        }
        if var_flag(env, "GRAPH_ENABLED", false)? {
            config["graph"] = json!({ "enabled": true });
        }
        serde_json::from_value(config).map_err(|error| MemoryError::InvalidConfig(error.to_string()))
    }
}

#[cfg(test)]
#[path = "env_vars_tests.rs"]
mod tests;
