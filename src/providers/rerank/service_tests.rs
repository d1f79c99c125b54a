//! The rerank services' wire format against a recording client: each dialect's URL, body and reply list.

use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::config::ProviderConfig;
use crate::providers::rerank::{reranker_choice, RerankerChoice};
use crate::providers::shared::testing::Recorder;

fn settings(provider: &str) -> ServiceSettings {
    let part =
        ProviderConfig { provider: provider.into(), config: Some(json!({"apiKey": "k", "topK": 3})), dimensions: None };
    match reranker_choice(part, &|_: &str| None, true, None).unwrap() {
        Some(RerankerChoice::Service(settings)) => settings,
        other => panic!("{other:?}"),
    }
}

fn reranker(provider: &str, recorder: Recorder) -> ServiceReranker<Recorder> {
    ServiceReranker::new(recorder, settings(provider), RetryPolicy { max_retries: 0, ..RetryPolicy::default() })
}

#[test]
fn each_service_gets_its_request_and_its_reply_is_read() {
    for (provider, url, model, count, list) in [
        ("cohere", "https://api.cohere.com/v2/rerank", "rerank-english-v3.0", "top_n", "results"),
        ("jina", "https://api.jina.ai/v1/rerank", "jina-reranker-v2-base-multilingual", "top_n", "results"),
        ("voyage", "https://api.voyageai.com/v1/rerank", "rerank-2", "top_k", "data"),
    ] {
        let reply = json!({list: [{"index": 1, "relevance_score": 0.9}, {"index": 0, "relevance_score": 0.1}]});
        let service = reranker(provider, Recorder::replying(200, &reply.to_string()));
        let scores = block_on(service.rerank("tea?", &["a", "b"])).unwrap();
        assert_eq!(scores, [(1, 0.9), (0, 0.1)], "{provider}");
        let request = service.client.requests.borrow()[0].clone();
        assert_eq!(request.url, url);
        assert_eq!(service.client.header("authorization").as_deref(), Some("Bearer k"));
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body, json!({"model": model, "query": "tea?", "documents": ["a", "b"], count: 2}), "{provider}");
    }
}

#[test]
fn failures_and_bad_replies_have_reranker_codes() {
    let failed = block_on(reranker("cohere", Recorder::replying(401, "{}")).rerank("q", &["a"])).unwrap_err();
    assert_eq!((failed.code(), failed.http_status()), ("RERANKER_HTTP", Some(401)));
    for body in ["nope", r#"{"data": []}"#, r#"{"results": [{"index": "0", "relevance_score": 1}]}"#] {
        let error = block_on(reranker("cohere", Recorder::replying(200, body)).rerank("q", &["a"])).unwrap_err();
        assert_eq!(error.code(), "RERANKER_RESPONSE", "{body}");
    }
}
