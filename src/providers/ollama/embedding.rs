//! Ollama embeddings: `POST {baseUrl}/api/embed` with every text in one `input` array; the reply is
//! `{"embeddings": [[…], …]}` in input order.

use serde_json::{json, Value};

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::Embedder;
use crate::http::{send_with_retry, HttpClient, RetryPolicy};
use crate::providers::shared::embedding_reply::{checked_vectors, json_vectors};
use crate::providers::shared::request::{endpoint, json_headers, upstream, Target};

/// Resolved settings for an Ollama embedding model.
#[derive(Debug, Clone, PartialEq)]
pub struct OllamaEmbedderSettings {
    pub model: String,
    pub base_url: String,
    pub api_key: Option<String>,
    /// Sent as `dimensions` (models that support it truncate), and checked against every vector.
    pub dimensions: Option<usize>,
}

/// An Ollama embedding model reached through `C`.
pub struct OllamaEmbedder<C> {
    client: C,
    target: Target,
    model: String,
    dimensions: Option<usize>,
    retry: RetryPolicy,
}

impl<C: HttpClient> OllamaEmbedder<C> {
    pub fn new(client: C, settings: OllamaEmbedderSettings, retry: RetryPolicy) -> Self {
        let target = Target {
            url: endpoint(&settings.base_url, "api/embed"),
            headers: json_headers(settings.api_key.as_deref()),
        };
        Self { client, target, model: settings.model, dimensions: settings.dimensions, retry }
    }
}

impl<C: HttpClient> Embedder for OllamaEmbedder<C> {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut body = json!({"model": self.model, "input": texts});
        if let Some(dimensions) = self.dimensions {
            body["dimensions"] = json!(dimensions);
        }
        let response = send_with_retry(&self.client, &self.target.post(body), &self.retry)
            .await
            .map_err(|e| MemoryError::Embedding(upstream(e)))?;
        let value: Value = serde_json::from_str(&response.body)
            .map_err(|_| MemoryError::EmbeddingResponse("response is not JSON".into()))?;
        checked_vectors(json_vectors(value.get("embeddings"), "embeddings")?, texts.len(), self.dimensions)
    }

    fn dimensions(&self) -> Option<usize> {
        self.dimensions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::shared::testing::Recorder;

    fn embedder(recorder: Recorder, dimensions: Option<usize>) -> OllamaEmbedder<Recorder> {
        let settings = OllamaEmbedderSettings {
            model: "nomic-embed-text".into(),
            base_url: "http://127.0.0.1:11434/".into(),
            api_key: Some("proxy-key".into()),
            dimensions,
        };
        OllamaEmbedder::new(recorder, settings, RetryPolicy { max_retries: 0, ..RetryPolicy::default() })
    }

    #[test]
    fn one_request_with_an_input_array() {
        let reply = r#"{"model":"nomic-embed-text","embeddings":[[0.1,0.2],[0.3,0.4]],"total_duration":1}"#;
        let embedder = embedder(Recorder::replying(200, reply), None);
        let vectors = futures_executor::block_on(embedder.embed(&["a".into(), "b".into()])).unwrap();
        assert_eq!(vectors, vec![vec![0.1, 0.2], vec![0.3, 0.4]]);
        assert_eq!(embedder.client.requests.borrow()[0].url, "http://127.0.0.1:11434/api/embed");
        assert_eq!(embedder.client.header("authorization").as_deref(), Some("Bearer proxy-key"));
        assert_eq!(embedder.client.body(), json!({"model": "nomic-embed-text", "input": ["a", "b"]}));
    }

    #[test]
    fn malformed_and_mismatched_replies_carry_codes() {
        let cases = [
            ("nope", None, "EMBEDDING_RESPONSE"),
            (r#"{"embedding":[1,2]}"#, None, "EMBEDDING_RESPONSE"),
            (r#"{"embeddings":[[1],[2]]}"#, None, "EMBEDDING_RESPONSE"),
            (r#"{"embeddings":[[1,2,3]]}"#, Some(2), "DIMENSION_MISMATCH"),
        ];
        for (body, dimensions, code) in cases {
            let error =
                futures_executor::block_on(embedder(Recorder::replying(200, body), dimensions).embed(&["a".into()]))
                    .unwrap_err();
            assert_eq!(error.code(), code, "{body}");
        }
        let embedder = embedder(Recorder::replying(200, r#"{"embeddings":[[1,2]]}"#), Some(2));
        futures_executor::block_on(embedder.embed(&["a".into()])).unwrap();
        assert_eq!(embedder.client.body()["dimensions"], 2);
    }
}
