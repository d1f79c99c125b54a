//! Keys at construction: the check itself, and the configs it refuses and lets through.

use serde_json::{json, Value};

use super::*;
use crate::providers::config::{Env, MemoryConfig, ResolvedConfig};

fn resolve_with(config: Value, env: Env) -> Result<ResolvedConfig> {
    serde_json::from_value::<MemoryConfig>(config).map_err(|e| invalid("config", e))?.resolve(env)
}

/// With `OPENAI_API_KEY` only.
fn resolve(config: Value) -> Result<ResolvedConfig> {
    resolve_with(config, &|name| (name == "OPENAI_API_KEY").then(|| "sk-test".to_owned()))
}

/// With no environment at all.
fn resolve_bare(config: Value) -> Result<ResolvedConfig> {
    resolve_with(config, &|_| None)
}

fn field_of(error: crate::core::error::MemoryError) -> String {
    assert_eq!(error.code(), "INVALID_CONFIG");
    error.to_string()
}

fn need(section: &str) -> KeyNeed<'_> {
    KeyNeed { section, provider: "openai", env_var: Some("OPENAI_API_KEY"), url_field: "baseUrl" }
}

#[test]
fn a_hosted_service_without_a_key_says_what_to_do() {
    let error = api_key(need("embedder"), None, true).unwrap_err();
    assert_eq!(error.code(), "INVALID_CONFIG");
    let text = error.to_string();
    for part in ["embedder.config.apiKey", "\"openai\"", "OPENAI_API_KEY", "embedder.config.baseUrl", "\"local\""] {
        assert!(text.contains(part), "{part} in {text}");
    }
    assert!(!api_key(need("llm"), None, true).unwrap_err().to_string().contains("\"local\""));
    assert!(api_key(need("llm"), Some(" ".into()), true).is_err());
}

#[test]
fn a_key_or_a_url_of_ones_own_is_enough() {
    assert_eq!(api_key(need("llm"), Some("k".into()), true).unwrap().as_deref(), Some("k"));
    assert_eq!(api_key(need("llm"), None, false).unwrap(), None);
    assert!(is_default("https://api.openai.com/v1/", "https://api.openai.com/v1"));
}

#[test]
fn hosted_providers_without_a_key_are_refused_at_construction() {
    let cases = [
        (json!({}), "llm.config.apiKey: the \"openai\" provider needs an API key"),
        (json!({"llm": {"provider": "none"}}), "embedder.config.apiKey: the \"openai\" provider"),
        (json!({"llm": {"provider": "anthropic"}, "embedder": {"provider": "none"}}), "ANTHROPIC_API_KEY"),
        (json!({"llm": {"provider": "none"}, "embedder": {"provider": "gemini"}}), "GEMINI_API_KEY"),
        (json!({"llm": {"provider": "groq", "config": {"model": "m"}}}), "llm.config.apiKey: the \"groq\""),
        (
            json!({"llm": {"provider": "azure_openai", "config": {"endpoint": "https://r.openai.azure.com", "deployment": "d"}}}),
            "llm.config.endpoint for a local or compatible server",
        ),
        (json!({"llm": {"provider": "openai", "config": {"apiKey": " "}}}), "llm.config.apiKey"),
    ];
    for (config, expected) in cases {
        let message = field_of(resolve_bare(config.clone()).unwrap_err());
        assert!(message.contains(expected), "{config}: {message}");
        assert!(
            message.contains("\"none\"") && message.contains("baseUrl") | message.contains("endpoint"),
            "{message}"
        );
    }
    let message = field_of(resolve_bare(json!({"llm": {"provider": "none"}})).unwrap_err());
    assert!(message.contains("\"local\" (on-device)"), "the embedder's options name the on-device one: {message}");
}

#[test]
fn a_url_of_ones_own_a_local_server_or_the_environment_needs_no_key_in_the_config() {
    let none = json!({"provider": "none"});
    let fine = [
        json!({"llm": {"provider": "openai", "config": {"baseUrl": "http://127.0.0.1:9/v1"}}, "embedder": none}),
        json!({"llm": none, "embedder": {"provider": "openai", "config": {"baseURL": "https://proxy.example/v1"}}}),
        json!({"llm": {"provider": "anthropic", "config": {"baseUrl": "http://127.0.0.1:9"}}, "embedder": none}),
        json!({"llm": {"provider": "ollama"}, "embedder": {"provider": "ollama"}}),
        json!({"llm": {"provider": "vllm", "config": {"model": "m"}}, "embedder": {"provider": "lmstudio", "config": {"model": "e"}}}),
        json!({"llm": {"provider": "openai_compatible", "config": {"model": "m", "baseUrl": "https://h/v1"}}, "embedder": none}),
        json!({"llm": {"provider": "azure_openai", "config": {"endpoint": "https://gateway.example", "deployment": "d"}}, "embedder": none}),
        json!({"llm": {"provider": "custom"}, "embedder": {"provider": "custom", "dimensions": 3}}),
    ];
    for config in fine {
        assert!(resolve_bare(config.clone()).is_ok(), "{config}: {:?}", resolve_bare(config.clone()).err());
    }
    let env = |name: &str| (name == "OPENAI_BASE_URL").then(|| "http://127.0.0.1:9/v1".to_owned());
    assert!(resolve_with(json!({}), &env).is_ok(), "OPENAI_BASE_URL points elsewhere");
    assert!(resolve(json!({})).is_ok(), "OPENAI_API_KEY");
}
