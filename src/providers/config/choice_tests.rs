use serde_json::{json, Value};

use super::super::{MemoryConfig, ResolvedConfig};
use super::*;
use crate::core::error::MemoryError;

fn resolve_with(config: Value, env: Env) -> Result<ResolvedConfig> {
    serde_json::from_value::<MemoryConfig>(config).map_err(|e| invalid("config", e))?.resolve(env)
}

/// With `OPENAI_API_KEY` only: the default OpenAI models need a key; other providers' keys are absent.
fn resolve(config: Value) -> Result<ResolvedConfig> {
    resolve_with(config, &|name| (name == "OPENAI_API_KEY").then(|| "sk-test".to_owned()))
}

fn llm(provider: &str, config: Value) -> Result<LlmChoice> {
    resolve(json!({"llm": {"provider": provider, "config": config}})).map(|c| c.llm)
}

fn embedder(provider: &str, config: Value) -> Result<EmbedderChoice> {
    resolve(json!({"embedder": {"provider": provider, "config": config}})).map(|c| c.embedder)
}

fn field_of(error: MemoryError) -> String {
    assert_eq!(error.code(), "INVALID_CONFIG");
    error.to_string()
}

#[test]
fn each_provider_has_working_defaults() {
    let LlmChoice::Anthropic(anthropic) = llm("anthropic", json!({"apiKey": "k"})).unwrap() else { panic!() };
    assert_eq!(
        (anthropic.base_url.as_str(), anthropic.version.as_str()),
        ("https://api.anthropic.com/v1", "2023-06-01")
    );
    assert!(anthropic.tool_output && !anthropic.browser_access);
    let LlmChoice::Gemini(gemini) = llm("gemini", json!({"apiKey": "k"})).unwrap() else { panic!() };
    assert_eq!(gemini.base_url, "https://generativelanguage.googleapis.com/v1beta");
    let LlmChoice::Ollama(ollama) = llm("ollama", json!({})).unwrap() else { panic!() };
    assert_eq!((ollama.base_url.as_str(), ollama.json_mode), ("http://localhost:11434", true));
    let LlmChoice::WorkersAi(workers) = llm("workers-ai", json!({})).unwrap() else { panic!() };
    assert_eq!(workers.model, "@cf/meta/llama-3.1-8b-instruct");
    let EmbedderChoice::WorkersAi(workers) = embedder("workers-ai", json!({})).unwrap() else { panic!() };
    assert_eq!((workers.model.as_str(), workers.dimensions), ("@cf/baai/bge-base-en-v1.5", Some(768)));
    let EmbedderChoice::Gemini(gemini) = embedder("gemini", json!({"dimensions": 768, "apiKey": "k"})).unwrap() else {
        panic!()
    };
    assert_eq!((gemini.model.as_str(), gemini.dimensions), ("gemini-embedding-001", Some(768)));
    let EmbedderChoice::Ollama(ollama) = embedder("ollama", json!(null)).unwrap() else { panic!() };
    assert_eq!(ollama.model, "nomic-embed-text");
}

#[test]
fn keys_come_from_each_providers_own_environment_variable() {
    let env = |name: &str| Some(format!("env-{name}")).filter(|_| name.ends_with("_API_KEY"));
    let config = json!({"llm": {"provider": "anthropic"}, "embedder": {"provider": "gemini"}});
    let config = resolve_with(config, &env).unwrap();
    let (LlmChoice::Anthropic(llm), EmbedderChoice::Gemini(embedder)) = (config.llm, config.embedder) else { panic!() };
    assert_eq!(llm.api_key.as_deref(), Some("env-ANTHROPIC_API_KEY"));
    assert_eq!(embedder.api_key.as_deref(), Some("env-GEMINI_API_KEY"));
    let config = json!({"llm": {"provider": "groq", "config": {"model": "llama-3.3-70b-versatile"}}});
    let LlmChoice::OpenAi(groq) = resolve_with(config, &env).unwrap().llm else { panic!() };
    assert_eq!(groq.api_key.as_deref(), Some("env-GROQ_API_KEY"), "never OPENAI_API_KEY for another host");
    assert_eq!(groq.base_url, "https://api.groq.com/openai/v1");
    let config = json!({"llm": {"provider": "vllm", "config": {"model": "m"}}});
    let LlmChoice::OpenAi(vllm) = resolve_with(config, &env).unwrap().llm else { panic!() };
    assert_eq!(vllm.api_key, None);
}

#[test]
fn azure_builds_the_deployment_target() {
    let config = json!({"endpoint": "https://res.openai.azure.com", "deployment": "chat-1", "apiKey": "k"});
    let LlmChoice::AzureOpenAi(azure) = llm("azure_openai", config).unwrap() else { panic!() };
    assert_eq!(azure.target.api_version, "2024-10-21");
    assert_eq!(azure.target.deployment, "chat-1");
    let env = |name: &str| match name {
        "AZURE_OPENAI_ENDPOINT" => Some("https://env.openai.azure.com".to_owned()),
        "AZURE_OPENAI_API_KEY" => Some("env-key".to_owned()),
        "OPENAI_API_KEY" => Some("sk-test".to_owned()),
        _ => None,
    };
    let config = json!({"embedder": {"provider": "azure_openai", "config": {"deployment": "emb"}}});
    let EmbedderChoice::AzureOpenAi(azure) = resolve_with(config, &env).unwrap().embedder else { panic!() };
    assert_eq!(
        (azure.target.endpoint.as_str(), azure.target.api_key.as_deref()),
        ("https://env.openai.azure.com", Some("env-key"))
    );
}

#[test]
fn hosts_have_their_json_mode_defaults_and_embedding_support() {
    let LlmChoice::OpenAi(lmstudio) = llm("lmstudio", json!({"model": "qwen"})).unwrap() else { panic!() };
    assert_eq!((lmstudio.base_url.as_str(), lmstudio.json_mode), ("http://localhost:1234/v1", false));
    let LlmChoice::OpenAi(together) = llm("together", json!({"model": "m", "jsonMode": false, "apiKey": "k"})).unwrap()
    else {
        panic!()
    };
    assert!(!together.json_mode);
    let generic = json!({"model": "m", "baseUrl": "http://127.0.0.1:9/v1"});
    let LlmChoice::OpenAi(generic) = llm("openai_compatible", generic).unwrap() else { panic!() };
    assert_eq!(generic.base_url, "http://127.0.0.1:9/v1");
    assert!(matches!(embedder("vllm", json!({"model": "e5"})), Ok(EmbedderChoice::OpenAi(_))));
    assert!(field_of(embedder("groq", json!({"model": "x"})).unwrap_err()).contains("groq has no embeddings API"));
}

#[test]
fn custom_and_workers_ai_take_live_values_not_config() {
    assert_eq!(resolve(json!({"llm": {"provider": "custom"}})).unwrap().llm, LlmChoice::Custom);
    let config = resolve(json!({"embedder": {"provider": "custom", "dimensions": 384}})).unwrap();
    assert_eq!(config.embedder, EmbedderChoice::Custom { dimensions: 384 });
}

#[test]
fn missing_and_bad_fields_are_named() {
    let cases = [
        (
            json!({"llm": {"provider": "azure_openai", "config": {"deployment": "d"}}}),
            "llm.config.endpoint: is required",
        ),
        (
            json!({"llm": {"provider": "azure_openai", "config": {"endpoint": "https://x"}}}),
            "llm.config.deployment: is required",
        ),
        (
            json!({"llm": {"provider": "azure_openai", "config": {"endpoint": "https://x", "deployment": "a/b"}}}),
            "llm.config.deployment",
        ),
        (
            json!({"embedder": {"provider": "azure_openai", "config": {"endpoint": "ftp://x", "deployment": "d"}}}),
            "embedder.config.endpoint",
        ),
        (json!({"llm": {"provider": "groq"}}), "llm.config.model: is required"),
        (
            json!({"llm": {"provider": "openai_compatible", "config": {"model": "m"}}}),
            "llm.config.baseUrl: is required",
        ),
        (json!({"llm": {"provider": "anthropic", "config": {"temperature": 1.5}}}), "llm.config.temperature"),
        (json!({"llm": {"provider": "anthropic", "config": {"api_key": "x"}}}), "llm.config.api_key"),
        (json!({"llm": {"provider": "gemini", "config": {"maxTokens": 0}}}), "llm.config.maxTokens"),
        (json!({"llm": {"provider": "ollama", "config": {"baseUrl": "localhost:11434"}}}), "llm.config.baseUrl"),
        (json!({"llm": {"provider": "workers-ai", "config": {"binding": {}}}}), "llm.config.binding"),
        (json!({"llm": {"provider": "custom", "config": {}}}), "llm.config: the custom provider takes no config"),
        (json!({"llm": {"provider": "openai", "dimensions": 3}}), "llm.dimensions"),
        (json!({"llm": {"provider": "claude"}}), "llm.provider: unknown provider \"claude\""),
        (json!({"embedder": {"provider": "anthropic"}}), "embedder.provider: unknown provider \"anthropic\""),
        (json!({"embedder": {"provider": "custom"}}), "embedder.dimensions: is required"),
        (json!({"embedder": {"provider": "custom", "dimensions": 0}}), "embedder.dimensions: must be between"),
        (json!({"embedder": {"provider": "openai", "dimensions": 8}}), "embedder.dimensions: only the custom provider"),
        (json!({"embedder": {"provider": "gemini", "config": {"dimensions": 0}}}), "embedder.config.dimensions"),
        (json!({"embedder": {"provider": "ollama", "config": {"dims": 3}}}), "embedder.config.dims"),
        (json!({"storage": {"provider": "memory", "dimensions": 3}}), "storage.dimensions"),
    ];
    for (config, expected) in cases {
        let message = field_of(resolve(config.clone()).unwrap_err());
        assert!(message.contains(expected), "{config}: {message}");
    }
    let message = field_of(resolve(json!({"llm": {"provider": "claude"}})).unwrap_err());
    for name in ["anthropic", "gemini", "ollama", "azure_openai", "groq", "workers-ai", "custom"] {
        assert!(message.contains(name), "supported list lacks {name}: {message}");
    }
}

#[test]
fn unknown_provider_errors_list_exactly_the_providers_of_that_part() {
    let message = field_of(resolve(json!({"embedder": {"provider": "nope"}})).unwrap_err());
    let listed = message.split("supported: ").nth(1).unwrap().trim_end_matches(')').split(", ").collect::<Vec<_>>();
    assert_eq!(listed, embedder_providers());
    assert!(listed.contains(&"local") && listed.contains(&"together"), "{message}");
    for absent in ["anthropic", "groq", "openrouter", "deepseek"] {
        assert!(!listed.contains(&absent), "{absent} has no embedder: {message}");
    }
    for name in embedder_providers() {
        let error = resolve(json!({"embedder": {"provider": name}})).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(!error.contains("unknown provider"), "{name} is listed but unknown: {error}");
    }
    let message = field_of(resolve(json!({"llm": {"provider": "nope"}})).unwrap_err());
    assert!(message.ends_with(&format!("(supported: {})", llm_providers().join(", "))), "{message}");
    assert!(!llm_providers().contains(&"local"));
    for name in llm_providers() {
        let error = resolve(json!({"llm": {"provider": name}})).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(!error.contains("unknown provider"), "{name} is listed but unknown: {error}");
    }
}

#[test]
fn the_on_device_embedder_reaching_the_core_says_where_it_runs() {
    let config = json!({"embedder": {"provider": "local", "config": {"weights": "w", "tokenizer": "t"}}});
    let message = field_of(resolve(config).unwrap_err());
    for part in ["embedder.provider", "not available", "Cloudflare Workers", "\"workers-ai\"", "Node and browsers"] {
        assert!(message.contains(part), "{part} in {message}");
    }
}

#[test]
fn the_provider_lists_keep_their_order() {
    let own = ["openai", "azure_openai", "anthropic", "gemini", "ollama", "workers-ai", "custom", "none"];
    let hosts = ["openai_compatible", "groq", "together", "openrouter", "deepseek", "lmstudio", "vllm"];
    assert_eq!(llm_providers(), [&own[..], &hosts[..]].concat());
    let embedding_hosts = ["openai_compatible", "together", "lmstudio", "vllm"];
    let embedders = [&own[..2], &own[3..], &["local"], &embedding_hosts[..]].concat();
    assert_eq!(embedder_providers(), embedders);
}
