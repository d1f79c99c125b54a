//! mem0's names for the providers' options, read by every provider that has the setting, and `read`'s
//! `unknownKeys` and startup warnings.

use serde_json::{json, Value};

use super::*;
use crate::core::error::Result;
use crate::providers::rerank::RerankerChoice;

/// `config` read as the JS binding reads it, with no environment.
fn read(config: Value) -> Result<ResolvedConfig> {
    MemoryConfig::read(config, &|_| None)
}

/// `llm.config` of `provider`, pointed at a local server (no key needed).
fn llm(provider: &str, config: Value) -> LlmChoice {
    let mut config = config;
    config["baseUrl"] = json!("http://127.0.0.1:1/v1");
    read(json!({"llm": {"provider": provider, "config": config}, "embedder": {"provider": "none"}})).unwrap().llm
}

#[test]
fn sampling_keys_reach_every_provider_that_has_them_in_either_spelling() {
    let LlmChoice::OpenAi(openai) = llm("openai", json!({"top_p": 0.5, "max_tokens": 10})) else { panic!() };
    assert_eq!((openai.top_p, openai.max_tokens), (Some(0.5), 10));
    let LlmChoice::OpenAi(deepseek) = llm("deepseek", json!({"model": "m", "topP": 1.0})) else { panic!() };
    assert_eq!(deepseek.top_p, Some(1.0));
    let LlmChoice::Anthropic(claude) = llm("anthropic", json!({"topP": 0.7, "top_k": 5})) else { panic!() };
    assert_eq!((claude.top_p, claude.top_k), (Some(0.7), Some(5)));
    let both = llm("anthropic", json!({"topP": 0.7, "temperature": 0.2}));
    let LlmChoice::Anthropic(both) = both else { panic!() };
    assert_eq!((both.top_p, both.temperature), (None, 0.2), "Anthropic takes one: temperature wins, as in mem0");
    let LlmChoice::Gemini(gemini) = llm("google", json!({"topP": 0.9, "topK": 40})) else { panic!() };
    assert_eq!((gemini.top_p, gemini.top_k), (Some(0.9), Some(40)));
    let LlmChoice::Ollama(ollama) = llm("ollama", json!({"top_p": 0.9, "top_k": 40})) else { panic!() };
    assert_eq!((ollama.top_p, ollama.top_k), (Some(0.9), Some(40)));
    let config = json!({"llm": {"provider": "openai", "config": {"apiKey": "k", "topK": 4}}});
    let error = read(config).unwrap_err().to_string();
    assert!(error.contains("llm.config.topK: unknown field"), "OpenAI has no top_k: {error}");
    let error = read(json!({"llm": {"provider": "ollama", "config": {"topP": 1.5}}})).unwrap_err().to_string();
    assert!(error.contains("llm.config.topP: must be between 0 and 1"), "{error}");
}

#[test]
fn ollamas_url_and_every_embedders_embedding_dims() {
    let LlmChoice::Ollama(ollama) =
        read(json!({"llm": {"provider": "ollama", "config": {"url": "http://h:1"}}, "embedder": {"provider": "none"}}))
            .unwrap()
            .llm
    else {
        panic!()
    };
    assert_eq!(ollama.base_url, "http://h:1");
    let both = json!({"llm": {"provider": "ollama", "config": {"url": "http://a", "baseUrl": "http://b"}}});
    assert!(read(both).unwrap_err().to_string().contains("llm.config.url: give url"));
    let embedders = [
        ("openai", json!({"apiKey": "k"})),
        ("azure_openai", json!({"endpoint": "http://h", "deployment": "d"})),
        ("google", json!({"apiKey": "k"})),
        ("ollama", json!({"url": "http://h"})),
        ("together", json!({"apiKey": "k", "model": "m"})),
        ("lmstudio", json!({"model": "m"})),
        ("vllm", json!({"model": "m"})),
        ("workers-ai", json!({"model": "@cf/x/y"})),
    ];
    for (provider, mut config) in embedders {
        config["embeddingDims"] = json!(256);
        let read = read(json!({"llm": {"provider": "none"}, "embedder": {"provider": provider, "config": config}}));
        let dimensions = match read.unwrap_or_else(|e| panic!("{provider}: {e}")).embedder {
            EmbedderChoice::OpenAi(s) => s.dimensions,
            EmbedderChoice::AzureOpenAi(s) => s.dimensions,
            EmbedderChoice::Gemini(s) => s.dimensions,
            EmbedderChoice::Ollama(s) => s.dimensions,
            EmbedderChoice::WorkersAi(s) => s.dimensions,
            other => panic!("{provider}: {other:?}"),
        };
        assert_eq!(dimensions, Some(256), "{provider}");
    }
    let together = json!({"llm": {"provider": "none"},
        "embedder": {"provider": "together", "config": {"apiKey": "k", "model": "m", "embeddingDims": 8}}});
    let EmbedderChoice::OpenAi(together) = read(together).unwrap().embedder else { panic!() };
    assert!(!together.send_dimensions, "Together's API takes no dimensions");
}

#[test]
fn unknown_keys_warn_only_when_asked_and_not_strict() {
    let config = json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"}, "vector_store": {}});
    assert!(read(config.clone()).unwrap_err().to_string().contains("did you mean `vectorStore`"));
    let mut lenient = config.clone();
    lenient["unknownKeys"] = json!("warn");
    let warnings = read(lenient.clone()).unwrap().warnings;
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].starts_with("vector_store is ignored: unknown field `vector_store`"), "{warnings:?}");
    lenient["strict"] = json!(true);
    assert_eq!(read(lenient).unwrap_err().code(), "INVALID_CONFIG");
}

#[test]
fn a_mem0_reranker_is_read_with_its_defaults_and_strict_accepts_it() {
    let config = json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"},
        "reranker": {"provider": "cohere", "config": {"apiKey": "k", "topK": 5}}});
    let resolved = read(config.clone()).unwrap();
    assert!(resolved.warnings.is_empty(), "{:?}", resolved.warnings);
    let Some(RerankerChoice::Service(cohere)) = resolved.reranker else { panic!("{:?}", resolved.reranker) };
    assert_eq!(
        (cohere.url.as_str(), cohere.model.as_str(), cohere.top_k),
        ("https://api.cohere.com/v2/rerank", "rerank-english-v3.0", 5)
    );
    assert_eq!(cohere.timeout_ms, Some(30_000));
    let mut strict = config.clone();
    strict["strict"] = json!(true);
    assert!(read(strict).unwrap().warnings.is_empty());
    let voyage = json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"},
        "reranker": {"provider": "voyageai", "config": {"api_key": "k", "top_k": 7, "model": "rerank-2.5", "timeoutMs": 900}}});
    let Some(RerankerChoice::Service(voyage)) = read(voyage).unwrap().reranker else { panic!() };
    assert_eq!((voyage.model.as_str(), voyage.top_k, voyage.timeout_ms), ("rerank-2.5", 7, Some(900)));
    let llm = json!({"llm": {"provider": "openai", "config": {"apiKey": "k"}}, "embedder": {"provider": "none"},
        "reranker": {"provider": "llm"}});
    assert_eq!(read(llm).unwrap().reranker, Some(RerankerChoice::Llm { top_k: 20 }));
    let custom = |config| {
        json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"},
        "reranker": {"provider": "custom", "config": config}})
    };
    let resolved = read(custom(json!({"topK": 30, "timeoutMs": 5000}))).unwrap().reranker;
    assert_eq!(resolved, Some(RerankerChoice::Custom { top_k: 30, timeout_ms: Some(5000) }));
    let resolved = read(custom(json!({}))).unwrap().reranker;
    assert_eq!(resolved, Some(RerankerChoice::Custom { top_k: 20, timeout_ms: None }), "a function: no default limit");
}

#[test]
fn a_reranker_this_library_cannot_run_is_invalid_config_naming_the_ones_it_can() {
    let with = |reranker: serde_json::Value| {
        read(json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"}, "reranker": reranker})).unwrap_err()
    };
    let local = with(json!({"provider": "sentence_transformer"}));
    assert_eq!(local.code(), "INVALID_CONFIG");
    assert!(
        local.to_string().contains(
            "runs a model locally, which this library cannot; use one of cohere, jina, voyage, llm_reranker, custom"
        ),
        "{local}"
    );
    assert!(with(json!({"provider": "x"}))
        .to_string()
        .contains("reranker.provider: unknown provider \"x\" (supported: cohere, jina, voyage, llm_reranker, custom)"));
    let local = with(json!({"provider": "local", "config": {"weights": "w"}})).to_string();
    assert!(local.contains("\"local\" (the on-device cross-encoder) is not available here"), "{local}");
    for (config, field) in [(json!({"apiKey": "k"}), "apiKey"), (json!({"baseUrl": "http://127.0.0.1:9"}), "baseUrl")] {
        let error = with(json!({"provider": "custom", "config": config})).to_string();
        assert!(error.contains(&format!("reranker.config.{field}: the custom reranker is the app's")), "{error}");
    }
    assert!(with(json!({"provider": "jina"}))
        .to_string()
        .contains("reranker.config.apiKey: the \"jina\" reranker needs an API key"));
    assert!(with(json!({"provider": "llm_reranker"})).to_string().contains("llm.provider is \"none\""));
    assert!(with(json!({"provider": "cohere", "config": {"apiKey": "k", "topK": 0}}))
        .to_string()
        .contains("reranker.config.topK"));
    assert!(with(json!({"provider": "cohere", "config": {"apiKey": "k", "top_n": 3}})).to_string().contains("top_n"));
    let proxied = json!({"llm": {"provider": "none"}, "embedder": {"provider": "none"},
        "reranker": {"provider": "jina", "config": {"baseUrl": "http://127.0.0.1:9/"}}});
    let Some(RerankerChoice::Service(jina)) = read(proxied).unwrap().reranker else { panic!() };
    assert_eq!((jina.url.as_str(), jina.api_key), ("http://127.0.0.1:9/v1/rerank", None));
}

#[test]
fn under_unknown_keys_warn_a_reranker_this_library_cannot_run_is_a_startup_warning_and_no_reranker() {
    let lenient = |reranker: Value, strict: bool| {
        read(json!({"llm": {"provider": "openai", "config": {"apiKey": "k"}}, "embedder": {"provider": "none"},
            "unknownKeys": "warn", "strict": strict, "reranker": reranker}))
    };
    let local = json!({"provider": "huggingface", "config": {"device": "cpu", "topK": 5}});
    let resolved = lenient(local.clone(), false).unwrap();
    assert_eq!(resolved.reranker, None);
    assert_eq!(resolved.warnings.len(), 1, "{:?}", resolved.warnings);
    let warning = &resolved.warnings[0];
    assert!(warning.starts_with("reranker is ignored: \"huggingface\" runs a model locally"), "{warning}");
    assert!(warning.contains("searches are not reranked (no reranker configured)"), "{warning}");
    let strict = lenient(local.clone(), true).unwrap_err().to_string();
    assert!(strict.contains("reranker") && strict.contains("huggingface"), "{strict}");
    let plain =
        read(json!({"embedder": {"provider": "none"}, "llm": {"provider": "openai", "config": {"apiKey": "k"}},
        "reranker": local}));
    assert!(plain.unwrap_err().to_string().contains("\"huggingface\" runs a model locally"));
    let nested = json!({"provider": "llm_reranker", "config": {"llm": {"provider": "anthropic"}, "apiKey": "a"}});
    let resolved = lenient(nested.clone(), false).unwrap();
    assert_eq!(resolved.reranker, Some(RerankerChoice::Llm { top_k: 20 }));
    assert_eq!(resolved.warnings.len(), 2, "{:?}", resolved.warnings);
    for key in ["reranker.config.llm", "reranker.config.apiKey"] {
        let named = resolved.warnings.iter().find(|w| w.starts_with(&format!("{key} is ignored")));
        assert!(named.is_some_and(|w| w.contains("the memory's own llm")), "{key}: {:?}", resolved.warnings);
    }
    assert!(lenient(nested, true).unwrap_err().to_string().contains("reranker.config."));
}
