use std::collections::HashMap;

use serde_json::json;

use super::*;

/// The config `vars` describe, as JSON (the provider parts) and the rest.
fn config(vars: &[(&str, &str)]) -> Result<MemoryConfig> {
    let vars: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    MemoryConfig::from_env_vars(&|name| vars.get(name).cloned())
}

fn error(vars: &[(&str, &str)]) -> String {
    config(vars).unwrap_err().to_string()
}

#[test]
fn no_vars_are_the_default_openai_models() {
    let config = config(&[]).unwrap();
    let (llm, embedder) = (config.llm.unwrap(), config.embedder.unwrap());
    assert_eq!((llm.provider.as_str(), llm.config), ("openai", None));
    assert_eq!((embedder.provider.as_str(), embedder.config), ("openai", None));
    assert!(config.retry.is_none() && config.graph.is_none());
}

#[test]
fn model_vars_fill_the_provider_config() {
    let config = config(&[
        ("LLM_PROVIDER", "azure_openai"),
        ("LLM_MODEL", "gpt"),
        ("LLM_CONFIG", r#"{"deployment": "d", "model": "overridden"}"#),
        ("EMBEDDER_PROVIDER", "ollama"),
        ("EMBEDDER_BASE_URL", "http://localhost:11434"),
        ("EMBEDDER_DIMENSIONS", " 64 "),
        ("MAX_RETRIES", "0"),
        ("GRAPH_ENABLED", "true"),
    ])
    .unwrap();
    assert_eq!(config.llm.unwrap().config, Some(json!({"deployment": "d", "model": "gpt"})));
    let embedder = config.embedder.unwrap();
    assert_eq!(embedder.provider, "ollama");
    assert_eq!(embedder.config, Some(json!({"baseUrl": "http://localhost:11434", "dimensions": 64})));
    assert_eq!(config.retry.unwrap().max_retries, Some(0));
    assert!(config.graph.unwrap().enabled);
}

#[test]
fn provider_none_takes_no_config_and_blank_vars_are_unset() {
    let config = config(&[("LLM_PROVIDER", "none"), ("LLM_MODEL", "m"), ("EMBEDDER_MODEL", "  ")]).unwrap();
    assert_eq!(config.llm.unwrap().config, None);
    assert_eq!(config.embedder.unwrap().config, None);
}

#[test]
fn errors_name_the_variable() {
    assert!(error(&[("LLM_PROVIDER", "custom")]).contains("LLM_PROVIDER: \"custom\" needs a JS callback"));
    assert!(error(&[("LLM_CONFIG", "[1]")]).contains("LLM_CONFIG: must be a JSON object"));
    assert!(error(&[("EMBEDDER_DIMENSIONS", "many")]).contains("EMBEDDER_DIMENSIONS: must be a whole number"));
    assert!(error(&[("MAX_RETRIES", "-1")]).contains("MAX_RETRIES"));
    assert!(error(&[("GRAPH_ENABLED", "yes")]).contains("GRAPH_ENABLED: must be \"true\" or \"false\""));
    assert_eq!(config(&[("GRAPH_ENABLED", "yes")]).unwrap_err().code(), "INVALID_CONFIG");
}

#[test]
fn numbers_and_flags() {
    let vars: HashMap<&str, &str> = [("N", "2.5"), ("W", "7"), ("F", "false"), ("BAD", "inf")].into_iter().collect();
    let env = |name: &str| vars.get(name).map(|v| v.to_string());
    assert_eq!(var_number(&env, "N").unwrap(), Some(2.5));
    assert!(var_number(&env, "BAD").is_err());
    assert_eq!(var_whole_number(&env, "W").unwrap(), Some(7));
    assert!(var_whole_number(&env, "N").is_err());
    assert_eq!(var_whole_number(&env, "UNSET").unwrap(), None);
    assert!(!var_flag(&env, "F", true).unwrap());
    assert!(var_flag(&env, "UNSET", true).unwrap());
}
