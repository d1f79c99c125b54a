use serde_json::{json, Value};

use super::*;
use crate::core::error::Result;
use crate::core::prompts::FACT_EXTRACTION_PROMPT;
use crate::http::RetryPolicy;
use crate::providers::openai::OpenAiChatSettings;

/// With `OPENAI_API_KEY` set: the default OpenAI models need a key.
fn resolve(config: Value) -> Result<ResolvedConfig> {
    let env = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-test".to_owned());
    serde_json::from_value::<MemoryConfig>(config).map_err(|e| invalid("config", e))?.resolve(&env)
}

fn openai_llm(config: &ResolvedConfig) -> &OpenAiChatSettings {
    match &config.llm {
        LlmChoice::OpenAi(settings) => settings,
        other => panic!("expected openai, got {other:?}"),
    }
}

#[test]
fn empty_config_means_openai_defaults_and_memory_storage() {
    let config = resolve(json!({})).unwrap();
    let llm = openai_llm(&config);
    assert_eq!(llm.model, "gpt-4o-mini");
    assert_eq!(llm.base_url, "https://api.openai.com/v1");
    assert_eq!((llm.temperature, llm.max_tokens, llm.json_mode), (0.0, 2000, true));
    let EmbedderChoice::OpenAi(embedder) = &config.embedder else { panic!("expected openai") };
    assert_eq!(embedder.model, "text-embedding-3-small");
    assert_eq!(config.engine.storage, StorageChoice { provider: "memory".into(), options: None });
    assert_eq!(config.retry, RetryPolicy::default());
    assert_eq!(config.engine.prompts.fact_extraction, FACT_EXTRACTION_PROMPT);
}

#[test]
fn none_providers_and_storage_choice() {
    let config =
        resolve(json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"}, "storage": {"provider": "indexeddb", "config": {"dbName": "x"}}}))
            .unwrap();
    assert_eq!((config.llm, config.embedder), (LlmChoice::None, EmbedderChoice::None));
    assert_eq!(config.engine.storage.provider, "indexeddb");
    assert_eq!(config.engine.storage.options, Some(json!({"dbName": "x"})));
}

#[test]
fn env_fills_key_and_base_url_but_explicit_values_win() {
    let env = |name: &str| Some(format!("env-{name}")).filter(|_| name == "OPENAI_API_KEY");
    let config = MemoryConfig::default().resolve(&env).unwrap();
    assert_eq!(openai_llm(&config).api_key.as_deref(), Some("env-OPENAI_API_KEY"));
    let explicit: MemoryConfig = serde_json::from_value(
        json!({"llm": {"provider": "openai", "config": {"apiKey": "mine", "baseURL": "http://127.0.0.1:1/v1"}}}),
    )
    .unwrap();
    let config = explicit.resolve(&env).unwrap();
    assert_eq!(openai_llm(&config).api_key.as_deref(), Some("mine"));
    assert_eq!(openai_llm(&config).base_url, "http://127.0.0.1:1/v1");
}

#[test]
fn unknown_keys_are_rejected_but_mem0_extras_tolerated() {
    for config in
        [json!({"llmm": {}}), json!({"retry": {"retries": 1}}), json!({"llm": {"provider": "openai", "cfg": {}}})]
    {
        assert!(serde_json::from_value::<MemoryConfig>(config.clone()).is_err(), "{config}");
    }
    let error = resolve(json!({"llm": {"provider": "openai", "config": {"apikey": "x"}}})).unwrap_err();
    assert!(error.to_string().contains("llm.config.apikey"), "{error}");
    let tolerated = json!({"version": "v1.1", "historyDbPath": "memory.db"});
    assert!(resolve(tolerated).is_ok());
}

#[test]
fn bad_values_name_their_field() {
    let cases = [
        (json!({"llm": {"provider": "nope"}}), "llm.provider"),
        (json!({"embedder": {"provider": "x"}}), "embedder.provider"),
        (json!({"vectorStore": {"provider": "qdrant"}}), "vectorStore.provider"),
        (json!({"llm": {"provider": "openai", "config": {"temperature": 3}}}), "llm.config.temperature"),
        (json!({"llm": {"provider": "openai", "config": {"maxTokens": "lots"}}}), "llm.config.maxTokens"),
        (json!({"llm": {"provider": "openai", "config": {"model": " "}}}), "llm.config.model"),
        (json!({"llm": {"provider": "openai", "config": {"baseUrl": "ftp://x"}}}), "llm.config.baseUrl"),
        (json!({"embedder": {"provider": "openai", "config": {"dimensions": 0}}}), "embedder.config.dimensions"),
        (json!({"embedder": {"provider": "openai", "config": 5}}), "embedder.config"),
        (json!({"retry": {"maxRetries": 50}}), "retry.maxRetries"),
        (json!({"customPrompts": {"factExtraction": ""}}), "customPrompts.factExtraction"),
    ];
    for (config, field) in cases {
        let error = resolve(config.clone()).unwrap_err();
        assert_eq!(error.code(), "INVALID_CONFIG");
        assert!(error.to_string().contains(field), "{config}: {error}");
    }
}

#[test]
fn boundary_settings_are_read_and_checked() {
    use crate::core::config::BoundarySettings;
    assert_eq!(resolve(json!({})).unwrap().engine.boundary, BoundarySettings::default());
    let config =
        resolve(json!({"boundary": {"maxGapMinutes": 45, "maxMessages": 10, "maxTokens": 2000, "llm": false}}));
    let boundary = config.unwrap().engine.boundary;
    assert_eq!(
        (boundary.max_gap_ms, boundary.max_messages, boundary.max_tokens, boundary.llm),
        (2_700_000, 10, 2000, false)
    );
    for (bad, field) in [
        (json!({"boundary": {"maxGapMinutes": 0}}), "boundary.maxGapMinutes"),
        (json!({"boundary": {"maxMessages": 1.5}}), "boundary.maxMessages"),
        (json!({"boundary": {"gap": 5}}), "gap"),
    ] {
        let error = resolve(bad).unwrap_err();
        assert_eq!(error.code(), "INVALID_CONFIG");
        assert!(error.to_string().contains(field), "{error}");
    }
}

#[test]
fn every_model_provider_takes_a_timeout() {
    let config = resolve(json!({})).unwrap();
    assert_eq!((config.llm_timeout_ms, config.embedder_timeout_ms), (Some(60_000), Some(30_000)));
    for (llm, embedder) in [
        (
            json!({"provider": "anthropic", "config": {"apiKey": "k", "timeoutMs": 300}}),
            json!({"provider": "ollama", "config": {"timeoutMs": 400}}),
        ),
        (
            json!({"provider": "groq", "config": {"model": "m", "apiKey": "k", "timeoutMs": 300}}),
            json!({"provider": "gemini", "config": {"apiKey": "k", "timeoutMs": 400}}),
        ),
        (
            json!({"provider": "custom", "config": {"timeoutMs": 300}}),
            json!({"provider": "custom", "dimensions": 3, "config": {"timeoutMs": 400}}),
        ),
    ] {
        let config = resolve(json!({"llm": llm, "embedder": embedder})).unwrap();
        assert_eq!((config.llm_timeout_ms, config.embedder_timeout_ms), (Some(300), Some(400)));
    }
    let custom = resolve(json!({"llm": {"provider": "custom"}, "embedder": {"provider": "none"}})).unwrap();
    assert_eq!((custom.llm_timeout_ms, custom.embedder_timeout_ms), (None, None));
    let error = resolve(json!({"llm": {"provider": "custom", "config": {"timeoutMs": 5, "model": "x"}}})).unwrap_err();
    assert!(error.to_string().contains("llm.config"), "{error}");
}
