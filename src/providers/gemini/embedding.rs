//! Gemini embeddings: `POST {baseUrl}/models/{model}:batchEmbedContents`, one request per 100 texts (the
//! API's batch limit), key in `x-goog-api-key`.

use serde_json::{json, Value};

use super::chat::gemini_target;
use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::Embedder;
use crate::http::{send_with_retry, HttpClient, RetryPolicy};
use crate::providers::shared::embedding_reply::{checked_vectors, json_vector};
use crate::providers::shared::request::{upstream, Target};

/// The most texts one `batchEmbedContents` request may carry.
const BATCH_LIMIT: usize = 100;

/// Resolved settings for a Gemini embedding model.
#[derive(Debug, Clone, PartialEq)]
pub struct GeminiEmbedderSettings {
    pub model: String,
    pub api_key: Option<String>,
    pub base_url: String,
    /// Sent as `outputDimensionality`, and checked against every returned vector.
    pub dimensions: Option<usize>,
}

/// A Gemini embedding model reached through `C`.
pub struct GeminiEmbedder<C> {
    client: C,
    target: Target,
    /// `models/{model}`, as each request names it.
    model: String,
    dimensions: Option<usize>,
    retry: RetryPolicy,
}

impl<C: HttpClient> GeminiEmbedder<C> {
    pub fn new(client: C, settings: GeminiEmbedderSettings, retry: RetryPolicy) -> Self {
        let target =
            gemini_target(&settings.base_url, &settings.model, "batchEmbedContents", settings.api_key.as_deref());
        let model = format!("models/{}", settings.model.strip_prefix("models/").unwrap_or(&settings.model));
        Self { client, target, model, dimensions: settings.dimensions, retry }
    }

    async fn embed_batch(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        let requests: Vec<Value> = texts
            .iter()
            .map(|text| {
                let mut request = json!({"model": self.model, "content": {"parts": [{"text": text}]}});
                if let Some(dimensions) = self.dimensions {
                    request["outputDimensionality"] = json!(dimensions);
                }
                request
            })
            .collect();
        let request = self.target.post(json!({"requests": requests}));
        let response = send_with_retry(&self.client, &request, &self.retry)
            .await
            .map_err(|e| MemoryError::Embedding(upstream(e)))?;
        parse_vectors(&response.body)
    }
}

/// `embeddings[].values` of a batch response.
fn parse_vectors(body: &str) -> Result<Vec<Vec<f32>>> {
    let bad = |why: String| MemoryError::EmbeddingResponse(why);
    let value: Value = serde_json::from_str(body).map_err(|_| bad("response is not JSON".into()))?;
    let list = value.get("embeddings").and_then(Value::as_array).ok_or_else(|| bad("no embeddings array".into()))?;
    list.iter()
        .enumerate()
        .map(|(i, e)| {
            e.get("values").and_then(json_vector).ok_or_else(|| bad(format!("embeddings[{i}].values is not a vector")))
        })
        .collect()
}

impl<C: HttpClient> Embedder for GeminiEmbedder<C> {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        let mut vectors = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH_LIMIT) {
            vectors.extend(checked_vectors(self.embed_batch(batch).await?, batch.len(), self.dimensions)?);
        }
        Ok(vectors)
    }

    fn dimensions(&self) -> Option<usize> {
        self.dimensions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::shared::testing::Recorder;

    fn embedder(recorder: Recorder, dimensions: Option<usize>) -> GeminiEmbedder<Recorder> {
        let settings = GeminiEmbedderSettings {
            model: "gemini-embedding-001".into(),
            api_key: Some("gk".into()),
            base_url: "https://generativelanguage.googleapis.com/v1beta".into(),
            dimensions,
        };
        GeminiEmbedder::new(recorder, settings, RetryPolicy { max_retries: 0, ..RetryPolicy::default() })
    }

    #[test]
    fn one_batch_request_with_a_request_per_text() {
        let reply = r#"{"embeddings":[{"values":[1,0]},{"values":[0,1]}]}"#;
        let embedder = embedder(Recorder::replying(200, reply), Some(2));
        let vectors = futures_executor::block_on(embedder.embed(&["a".into(), "b".into()])).unwrap();
        assert_eq!(vectors, vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
        let url = embedder.client.requests.borrow()[0].url.clone();
        assert_eq!(
            url,
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:batchEmbedContents"
        );
        assert_eq!(embedder.client.header("x-goog-api-key").as_deref(), Some("gk"));
        let request = |text: &str| json!({"model": "models/gemini-embedding-001", "content": {"parts": [{"text": text}]}, "outputDimensionality": 2});
        assert_eq!(embedder.client.body(), json!({"requests": [request("a"), request("b")]}));
    }

    #[test]
    fn more_than_a_hundred_texts_take_several_requests() {
        let reply = |n: usize| format!("{{\"embeddings\":[{}]}}", vec!["{\"values\":[1]}"; n].join(","));
        let (first, second) = (reply(100), reply(5));
        let embedder = embedder(Recorder::with_replies(&[(200, &first), (200, &second)]), None);
        let texts: Vec<String> = (0..105).map(|i| i.to_string()).collect();
        assert_eq!(futures_executor::block_on(embedder.embed(&texts)).unwrap().len(), 105);
        assert_eq!(embedder.client.body_of(1)["requests"].as_array().unwrap().len(), 5);
    }

    #[test]
    fn malformed_and_mismatched_replies_carry_codes() {
        let cases = [
            ("nope", None, "EMBEDDING_RESPONSE"),
            (r#"{"embedding":{"values":[1]}}"#, None, "EMBEDDING_RESPONSE"),
            (r#"{"embeddings":[{"values":["1"]}]}"#, None, "EMBEDDING_RESPONSE"),
            (r#"{"embeddings":[]}"#, None, "EMBEDDING_RESPONSE"),
            (r#"{"embeddings":[{"values":[1,2,3]}]}"#, Some(2), "DIMENSION_MISMATCH"),
        ];
        for (body, dimensions, code) in cases {
            let embedder = embedder(Recorder::replying(200, body), dimensions);
            let error = futures_executor::block_on(embedder.embed(&["a".into()])).unwrap_err();
            assert_eq!(error.code(), code, "{body}");
        }
        let error = r#"{"error":{"code":400,"message":"API key not valid","status":"INVALID_ARGUMENT"}}"#;
        let embedder = embedder(Recorder::replying(400, error), None);
        let error = futures_executor::block_on(embedder.embed(&["a".into()])).unwrap_err();
        assert_eq!((error.code(), error.http_status()), ("EMBEDDING_HTTP", Some(400)));
        assert!(error.to_string().contains("API key not valid"));
    }
}
