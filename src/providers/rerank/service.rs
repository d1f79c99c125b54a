//! A rerank service: `POST {baseUrl}/{path}` with `{model, query, documents, top_n | top_k}` (the count is
//! every document), answered by `{results | data: [{index, relevance_score}]}` (Cohere v2, Jina, Voyage).
//! Its failures are `RERANKER_*`, after the providers' retries.

use serde_json::{json, Value};

use super::settings::ServiceSettings;
use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::Reranker;
use crate::http::{send_with_retry, HttpClient, RetryPolicy};
use crate::providers::shared::request::{json_headers, upstream, Target};

/// A rerank service reached through `C`.
pub struct ServiceReranker<C> {
    client: C,
    target: Target,
    settings: ServiceSettings,
    retry: RetryPolicy,
}

impl<C: HttpClient> ServiceReranker<C> {
    pub fn new(client: C, settings: ServiceSettings, retry: RetryPolicy) -> Self {
        let target = Target { url: settings.url.clone(), headers: json_headers(settings.api_key.as_deref()) };
        Self { client, target, settings, retry }
    }
}

/// `(index, relevance_score)` of each entry of the reply's list.
fn scores(body: &str, list_field: &str) -> Result<Vec<(usize, f64)>> {
    let unusable = |why: String| MemoryError::RerankerResponse(why);
    let value: Value = serde_json::from_str(body).map_err(|_| unusable("response is not JSON".into()))?;
    let list = value.get(list_field).and_then(Value::as_array);
    let list = list.ok_or_else(|| unusable(format!("response has no \"{list_field}\" array")))?;
    list.iter()
        .map(|entry| {
            let index = entry.get("index").and_then(Value::as_u64).and_then(|i| usize::try_from(i).ok());
            match (index, entry.get("relevance_score").and_then(Value::as_f64)) {
                (Some(index), Some(score)) => Ok((index, score)),
                _ => Err(unusable(format!("an entry of \"{list_field}\" lacks index or relevance_score"))),
            }
        })
        .collect()
}

impl<C: HttpClient> Reranker for ServiceReranker<C> {
    async fn rerank(&self, query: &str, documents: &[&str]) -> Result<Vec<(usize, f64)>> {
        if documents.is_empty() {
            return Ok(Vec::new());
        }
        let dialect = self.settings.dialect;
        let mut body = json!({"model": self.settings.model, "query": query, "documents": documents});
        body[dialect.count_field] = json!(documents.len());
        let response = send_with_retry(&self.client, &self.target.post(body), &self.retry)
            .await
            .map_err(|e| MemoryError::Reranker(upstream(e)))?;
        scores(&response.body, dialect.list_field)
    }
}

#[cfg(test)]
#[path = "service_tests.rs"]
mod tests;
