//! The service's configuration, from `wrangler.toml` vars and secrets. The memory's config (models, retries,
//! graph memory) is read by memwasm itself (`MemoryConfig::from_env_vars`, then `resolve`), so it gets the
//! library's one schema, defaults and checks, and every provider the library has; the service's own vars
//! (storage backend, body size, the memory API, decay, dreams) are read here with the same helpers:
//!
//! | var | means |
//! |---|---|
//! | `LLM_PROVIDER` | `openai` (default), `azure_openai`, `anthropic`, `gemini`, `ollama`, an OpenAI-compatible host (`groq`, `openai_compatible`, …), `workers-ai` (the `AI` binding) or `none` |
//! | `LLM_MODEL`, `LLM_BASE_URL`, `LLM_API_KEY` | the provider's `model`, `baseUrl`, `apiKey` |
//! | `LLM_CONFIG` | a JSON object of any other `llm.config` option (e.g. Azure's `{"deployment": …, "apiVersion": …}`) |
//! | `EMBEDDER_PROVIDER`, `EMBEDDER_MODEL`, `EMBEDDER_BASE_URL`, `EMBEDDER_API_KEY`, `EMBEDDER_DIMENSIONS`, `EMBEDDER_CONFIG` | the same for the embedder |
//! | `OPENAI_BASE_URL`, `OPENAI_API_KEY` (and each host's own key variable) | fallbacks, as in Node |
//! | `MAX_RETRIES`, `MAX_BODY_BYTES`, `GRAPH_ENABLED` (`"true"` / `"false"`) | retries, request size, graph memory |
//! | `MEMORY_API_ENABLED` (`"true"` default / `"false"`) | the `/api/v1/memory/` routes (503 when off) |
//! | `DECAY_HALF_LIFE_DAYS`, `DECAY_FORGET_BELOW` | defaults of importance decay (30 days, 0.2) |
//! | `DREAM_MAX_SCOPES` | scopes the Cron Trigger dreams over per tenant and run (default 50; `0`: none) |
//! | `STORAGE` | `do` (default: each tenant's Durable Object, see `durable`) or `kv` (Workers KV) |
//! | `DO_IDLE_SECONDS` | a tenant's object drops its warm index after this long without requests (default 120) |

use memwasm::core::config::{var_flag, var_number, var_text, var_whole_number, MemoryConfig, ProviderConfig};
use memwasm::core::lifecycle::decay::DecayOptions;
use memwasm::platform::compose::LiveValues;
use memwasm::providers::config::{EmbedderChoice, LlmChoice, ResolvedConfig};
use memwasm::MemoryError;
use serde_json::json;
use worker::Env;

use crate::error::ApiError;

/// Largest request body when `MAX_BODY_BYTES` is not set: 1 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;
/// Scopes dreamt over per tenant and cron run when `DREAM_MAX_SCOPES` is not set.
const DEFAULT_DREAM_MAX_SCOPES: usize = 50;
/// The most data of one sync log entry when `SYNC_MAX_ENTRY_BYTES` is not set: 256 KiB.
const DEFAULT_SYNC_MAX_ENTRY_BYTES: u64 = 256 << 10;
/// The most data of one user's sync log when `SYNC_MAX_LOG_BYTES` is not set: 256 MiB.
const DEFAULT_SYNC_MAX_LOG_BYTES: u64 = 256 << 20;
/// Seconds a sync device may go without pulling before compaction stops waiting for it: 30 days.
const DEFAULT_SYNC_DEVICE_TTL_SECONDS: u64 = 30 * 24 * 3600;
/// Entries every active device has applied past the floor before a device is asked to compact.
const DEFAULT_SYNC_COMPACT_AFTER: u64 = 1000;
/// The binding Workers AI models run through.
const AI_BINDING: &str = "AI";
/// The KV namespace binding holding memories and history.
pub const KV_BINDING: &str = "MEMORY_KV";
/// The Durable Object namespace binding of the tenants' objects.
pub const OBJECTS_BINDING: &str = "TENANTS";
/// Seconds without requests after which a tenant's object drops its warm index, when not set.
const DEFAULT_IDLE_SECONDS: u64 = 120;

/// Where memories live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Workers KV: the engine is rebuilt on every request.
    Kv,
    /// One Durable Object per tenant, holding a warm engine over its SQLite-backed storage.
    Objects,
}

/// The var `STORAGE`: `"do"` (default) or `"kv"`.
pub fn backend(env: &Env) -> Result<Backend, ApiError> {
    choice(env, "STORAGE", &[("do", Backend::Objects), ("kv", Backend::Kv)])
}

/// How a tenant's memories spread over Durable Objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shards {
    /// One object holds the whole tenant (default).
    Tenant,
    /// One object per `user_id`, and the tenant's object keeps the directory of ids and users.
    Scope,
}

/// The var `DO_SHARDS`: `"tenant"` (default) or `"scope"`.
pub fn shards(env: &Env) -> Result<Shards, ApiError> {
    choice(env, "DO_SHARDS", &[("tenant", Shards::Tenant), ("scope", Shards::Scope)])
}

/// The var `name`, one of the two `options` by its text (the first when unset); `INVALID_CONFIG` naming both.
fn choice<T: Copy>(env: &Env, name: &str, options: &[(&str, T); 2]) -> Result<T, ApiError> {
    let Some(value) = text(env, name) else { return Ok(options[0].1) };
    let value = value.trim();
    let found = options.iter().find(|(known, _)| *known == value).map(|(_, option)| *option);
    found.ok_or_else(|| {
        let [(a, _), (b, _)] = options;
        config_error(format!("{name}: must be \"{a}\" or \"{b}\", got {value:?}"))
    })
}

/// Milliseconds without requests after which a tenant's object drops its warm index.
pub fn idle_ms(env: &Env) -> Result<u64, ApiError> {
    Ok(number(env, "DO_IDLE_SECONDS")?.unwrap_or(DEFAULT_IDLE_SECONDS).saturating_mul(1000))
}

/// A binding of `env` by name, as a JS value; `INVALID_CONFIG` when missing.
pub fn binding(env: &Env, name: &str) -> Result<wasm_bindgen::JsValue, ApiError> {
    let value = js_sys::Reflect::get(env, &name.into()).ok().filter(|value| !value.is_undefined());
    value.ok_or_else(|| config_error(format!("the binding {name} is missing (see wrangler.toml)")))
}

/// A non-empty var or secret.
pub fn text(env: &Env, name: &str) -> Option<String> {
    var_text(&|name| env.var(name).ok().map(|value| value.to_string()), name)
}

fn config_error(why: impl Into<String>) -> ApiError {
    ApiError::new(500, "INVALID_CONFIG", why)
}

/// A var problem as `500 INVALID_CONFIG` whose message is the library's, naming the var.
fn var_error(error: MemoryError) -> ApiError {
    match error {
        MemoryError::InvalidConfig(why) => config_error(why),
        other => other.into(),
    }
}

/// A var holding a whole number, if set.
fn number(env: &Env, name: &str) -> Result<Option<u64>, ApiError> {
    var_whole_number(&|name| text(env, name), name).map_err(var_error)
}

/// A `"true"` / `"false"` var, `default` when unset.
pub fn flag(env: &Env, name: &str, default: bool) -> Result<bool, ApiError> {
    var_flag(&|name| text(env, name), name, default).map_err(var_error)
}

/// A var holding a number, if set.
fn decimal(env: &Env, name: &str) -> Result<Option<f64>, ApiError> {
    var_number(&|name| text(env, name), name).map_err(var_error)
}

/// The decay parameters the vars set (unset ones take the library's defaults when planned).
pub fn decay_defaults(env: &Env) -> Result<DecayOptions, ApiError> {
    Ok(DecayOptions {
        half_life_days: decimal(env, "DECAY_HALF_LIFE_DAYS")?,
        forget_below: decimal(env, "DECAY_FORGET_BELOW")?,
        memory_types: None,
    })
}

/// Scopes the Cron Trigger dreams over per tenant and run.
pub fn dream_max_scopes(env: &Env) -> Result<usize, ApiError> {
    Ok(number(env, "DREAM_MAX_SCOPES")?.map_or(DEFAULT_DREAM_MAX_SCOPES, |n| n as usize))
}

/// The largest request body accepted.
pub fn max_body_bytes(env: &Env) -> Result<usize, ApiError> {
    Ok(number(env, "MAX_BODY_BYTES")?.map_or(DEFAULT_MAX_BODY_BYTES, |n| n as usize))
}

/// The most data one sync log entry holds, in bytes (`SYNC_MAX_ENTRY_BYTES`): at most 1 MiB, since an
/// object stores at most 2 MB in one key and value.
pub fn sync_max_entry_bytes(env: &Env) -> Result<u64, ApiError> {
    let bytes = number(env, "SYNC_MAX_ENTRY_BYTES")?.unwrap_or(DEFAULT_SYNC_MAX_ENTRY_BYTES);
    if bytes > 1 << 20 {
        return Err(config_error(format!("SYNC_MAX_ENTRY_BYTES: at most 1048576 (1 MiB), got {bytes}")));
    }
    Ok(bytes)
}

/// The most data one user's sync log holds, in bytes (`SYNC_MAX_LOG_BYTES`).
pub fn sync_max_log_bytes(env: &Env) -> Result<u64, ApiError> {
    Ok(number(env, "SYNC_MAX_LOG_BYTES")?.unwrap_or(DEFAULT_SYNC_MAX_LOG_BYTES))
}

/// Seconds a sync device may go without pulling before compaction stops waiting for it
/// (`SYNC_DEVICE_TTL_SECONDS`).
pub fn sync_device_ttl_seconds(env: &Env) -> Result<u64, ApiError> {
    Ok(number(env, "SYNC_DEVICE_TTL_SECONDS")?.unwrap_or(DEFAULT_SYNC_DEVICE_TTL_SECONDS))
}

/// How many entries past the floor every active device must have applied before a device is asked to
/// compact the log (`SYNC_COMPACT_AFTER`).
pub fn sync_compact_after(env: &Env) -> Result<u64, ApiError> {
    Ok(number(env, "SYNC_COMPACT_AFTER")?.unwrap_or(DEFAULT_SYNC_COMPACT_AFTER))
}

/// The memwasm config the vars describe for `tenant`'s slice of KV, checked.
pub fn resolved_config(env: &Env, kv_prefix: &str) -> Result<ResolvedConfig, ApiError> {
    let vars = |name: &str| text(env, name);
    let mut config = MemoryConfig::from_env_vars(&vars).map_err(var_error)?;
    let kv = json!({ "prefix": kv_prefix });
    config.storage = Some(ProviderConfig { provider: "cloudflare-kv".into(), config: Some(kv), dimensions: None });
    Ok(config.resolve(&vars)?)
}

/// The bindings `config` needs: `storage` (the KV namespace, or a Durable Object's storage dressed as
/// one), and the AI binding for Workers AI models.
pub fn live_values(env: &Env, config: &ResolvedConfig, storage: wasm_bindgen::JsValue) -> Result<LiveValues, ApiError> {
    let binding = |name: &str| binding(env, name);
    let mut live = LiveValues::default();
    live.insert("storage.binding", storage);
    if matches!(config.llm, LlmChoice::WorkersAi(_)) {
        live.insert("llm.binding", binding(AI_BINDING)?);
    }
    if matches!(config.embedder, EmbedderChoice::WorkersAi(_)) {
        live.insert("embedder.binding", binding(AI_BINDING)?);
    }
    Ok(live)
}
