//! OpenAI-compatible embeddings (`POST {baseUrl}/embeddings`, array input, one request per batch).

use serde_json::{json, Value};

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::Embedder;
use crate::http::{send_with_retry, HttpClient, RetryPolicy};
use crate::providers::shared::request::{endpoint, json_headers, upstream, Target};

/// Resolved settings for an OpenAI-compatible embedding model.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiEmbedderSettings {
    pub model: String,
    pub api_key: Option<String>,
    pub base_url: String,
    /// Checked against every returned vector, and sent as `dimensions` with `send_dimensions`.
    pub dimensions: Option<usize>,
    /// False for a host whose API takes no `dimensions` (Together).
    pub send_dimensions: bool,
}

/// An OpenAI-compatible embedding model reached through `C`.
pub struct OpenAiEmbedder<C> {
    pub(in crate::providers) client: C,
    pub(in crate::providers) target: Target,
    /// Sent as `model`; `None` for Azure, where the deployment picks the model.
    pub(in crate::providers) model: Option<String>,
    pub(in crate::providers) dimensions: Option<usize>,
    pub(in crate::providers) send_dimensions: bool,
    pub(in crate::providers) retry: RetryPolicy,
}

impl<C: HttpClient> OpenAiEmbedder<C> {
    pub fn new(client: C, settings: OpenAiEmbedderSettings, retry: RetryPolicy) -> Self {
        Self {
            client,
            target: Target {
                url: endpoint(&settings.base_url, "embeddings"),
                headers: json_headers(settings.api_key.as_deref()),
            },
            model: Some(settings.model),
            dimensions: settings.dimensions,
            send_dimensions: settings.send_dimensions,
            retry,
        }
    }
}

/// The vectors of an embeddings response, ordered by `index`.
fn parse_vectors(body: &str, expected: usize, dimensions: Option<usize>) -> Result<Vec<Vec<f32>>> {
    let bad = |why: &str| MemoryError::EmbeddingResponse(why.to_owned());
    let value: Value = serde_json::from_str(body).map_err(|_| bad("response is not JSON"))?;
    let data = value.get("data").and_then(Value::as_array).ok_or_else(|| bad("no data array in response"))?;
    if data.len() != expected {
        return Err(bad(&format!("{} vectors for {expected} inputs", data.len())));
    }
    let mut vectors: Vec<Option<Vec<f32>>> = vec![None; expected];
    for (position, entry) in data.iter().enumerate() {
        let index = entry.get("index").and_then(Value::as_u64).map_or(position, |i| i as usize);
        let numbers = entry.get("embedding").and_then(Value::as_array).ok_or_else(|| bad("entry without embedding"))?;
        let vector = numbers
            .iter()
            .map(|n| n.as_f64().map(|x| x as f32))
            .collect::<Option<Vec<f32>>>()
            .filter(|v| !v.is_empty())
            .ok_or_else(|| bad("embedding is not a non-empty array of numbers"))?;
        if let Some(expected_len) = dimensions.filter(|d| *d != vector.len()) {
            return Err(MemoryError::DimensionMismatch { expected: expected_len, actual: vector.len() });
        }
        let slot = vectors.get_mut(index).ok_or_else(|| bad("embedding index out of range"))?;
        *slot = Some(vector);
    }
    vectors.into_iter().collect::<Option<Vec<_>>>().ok_or_else(|| bad("duplicate embedding index"))
}

impl<C: HttpClient> Embedder for OpenAiEmbedder<C> {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut body = json!({"input": texts});
        if let Some(model) = &self.model {
            body["model"] = json!(model);
        }
        if let Some(dimensions) = self.dimensions.filter(|_| self.send_dimensions) {
            body["dimensions"] = json!(dimensions);
        }
        let request = self.target.post(body);
        let response = send_with_retry(&self.client, &request, &self.retry)
            .await
            .map_err(|e| MemoryError::Embedding(upstream(e)))?;
        parse_vectors(&response.body, texts.len(), self.dimensions)
    }

    fn dimensions(&self) -> Option<usize> {
        self.dimensions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::shared::testing::Recorder;

    #[test]
    fn batches_all_texts_in_one_request_and_orders_by_index() {
        let reply = r#"{"data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}]}"#;
        let settings = OpenAiEmbedderSettings {
            model: "e".into(),
            api_key: None,
            base_url: "http://h/v1".into(),
            dimensions: Some(2),
            send_dimensions: true,
        };
        let embedder = OpenAiEmbedder::new(Recorder::replying(200, reply), settings.clone(), RetryPolicy::default());
        let vectors = futures_executor::block_on(embedder.embed(&["a".into(), "b".into()])).unwrap();
        assert_eq!(vectors, vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
        let requests = embedder.client.requests.borrow();
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0].url, "http://h/v1/embeddings");
        assert!(!requests[0].headers.iter().any(|(name, _)| name == "authorization"));
        assert_eq!(embedder.client.body(), json!({"model": "e", "input": ["a", "b"], "dimensions": 2}));
        let unsent = OpenAiEmbedderSettings { send_dimensions: false, ..settings };
        let embedder = OpenAiEmbedder::new(Recorder::replying(200, reply), unsent, RetryPolicy::default());
        futures_executor::block_on(embedder.embed(&["a".into(), "b".into()])).unwrap();
        assert_eq!(embedder.client.body(), json!({"model": "e", "input": ["a", "b"]}), "checked, not sent");
    }

    #[test]
    fn rejects_malformed_and_mismatched_responses() {
        let cases = [
            ("nope", 1, None, "EMBEDDING_RESPONSE"),
            (r#"{"data":[]}"#, 1, None, "EMBEDDING_RESPONSE"),
            (r#"{"data":[{"embedding":["x"]}]}"#, 1, None, "EMBEDDING_RESPONSE"),
            (r#"{"data":[{"embedding":[]}]}"#, 1, None, "EMBEDDING_RESPONSE"),
            (r#"{"data":[{"index":5,"embedding":[1]}]}"#, 1, None, "EMBEDDING_RESPONSE"),
            (r#"{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}"#, 2, None, "EMBEDDING_RESPONSE"),
            (r#"{"data":[{"embedding":[1,2,3]}]}"#, 1, Some(2), "DIMENSION_MISMATCH"),
        ];
        for (body, expected, dimensions, code) in cases {
            assert_eq!(parse_vectors(body, expected, dimensions).unwrap_err().code(), code, "{body}");
        }
    }
}
