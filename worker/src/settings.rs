//! The service's configuration, from `wrangler.toml` vars and secrets: an OpenAI-compatible LLM and embedder
//! (`LLM_BASE_URL`, `LLM_MODEL`, `LLM_API_KEY`, `EMBEDDER_BASE_URL`, `EMBEDDER_MODEL`, `EMBEDDER_API_KEY`,
//! `EMBEDDER_DIMENSIONS`; `OPENAI_BASE_URL` / `OPENAI_API_KEY` serve both), `MAX_RETRIES`, `MAX_BODY_BYTES` and
//! `GRAPH_ENABLED` (`"true"` turns graph memory on, `"false"` or unset leaves it off).
//! They go through memwasm's own config reader, so they get its defaults and its checks.

use memwasm::core::config::{MemoryConfig, ResolvedConfig};
use serde_json::{json, Map, Value};
use worker::Env;

use crate::error::ApiError;

/// Largest request body when `MAX_BODY_BYTES` is not set: 1 MiB.
const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// A non-empty var or secret.
pub fn text(env: &Env, name: &str) -> Option<String> {
    env.var(name).ok().map(|value| value.to_string()).filter(|value| !value.trim().is_empty())
}

fn config_error(why: impl Into<String>) -> ApiError {
    ApiError::new(500, "INVALID_CONFIG", why)
}

/// A var holding a whole number, if set.
fn number(env: &Env, name: &str) -> Result<Option<u64>, ApiError> {
    match text(env, name) {
        None => Ok(None),
        Some(value) => value
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| config_error(format!("{name}: must be a whole number, got {value:?}"))),
    }
}

/// `{key: var}` for the vars that are set.
fn options(env: &Env, fields: &[(&str, &str)]) -> Value {
    let mut object = Map::new();
    for (key, var) in fields {
        if let Some(value) = text(env, var) {
            object.insert((*key).to_owned(), Value::String(value));
        }
    }
    Value::Object(object)
}

/// The largest request body accepted.
pub fn max_body_bytes(env: &Env) -> Result<usize, ApiError> {
    Ok(number(env, "MAX_BODY_BYTES")?.map_or(DEFAULT_MAX_BODY_BYTES, |n| n as usize))
}

/// The memwasm config the vars describe, checked.
pub fn resolved_config(env: &Env) -> Result<ResolvedConfig, ApiError> {
    let llm = options(env, &[("baseUrl", "LLM_BASE_URL"), ("model", "LLM_MODEL"), ("apiKey", "LLM_API_KEY")]);
    let mut embedder =
        options(env, &[("baseUrl", "EMBEDDER_BASE_URL"), ("model", "EMBEDDER_MODEL"), ("apiKey", "EMBEDDER_API_KEY")]);
    if let Some(dimensions) = number(env, "EMBEDDER_DIMENSIONS")? {
        embedder["dimensions"] = json!(dimensions);
    }
    let mut config = json!({
        "llm": {"provider": "openai", "config": llm},
        "embedder": {"provider": "openai", "config": embedder},
    });
    if let Some(retries) = number(env, "MAX_RETRIES")? {
        config["retry"] = json!({ "maxRetries": retries });
    }
    match text(env, "GRAPH_ENABLED").as_deref().map(str::trim) {
        None | Some("false") => {}
        Some("true") => config["graph"] = json!({ "enabled": true }),
        Some(other) => {
            return Err(config_error(format!("GRAPH_ENABLED: must be \"true\" or \"false\", got {other:?}")))
        }
    }
    let config: MemoryConfig = serde_json::from_value(config).map_err(|e| config_error(e.to_string()))?;
    Ok(config.resolve(&|name| text(env, name))?)
}
