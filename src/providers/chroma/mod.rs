//! Chroma's v2 REST API as a remote vector index (`vectorStore: {provider: "chroma"}`): one collection
//! (cosine space, created on first use, its tenant and database too), batched upserts and deletes, and
//! queries narrowed by a `where` built from the scope and the filters (see `where_clause`). Every request
//! is a POST through the shared `HttpClient`, with the config's retry policy and a per-request timeout;
//! what still fails is `VECTOR_STORE_UNAVAILABLE`.

mod config;
mod metadata;
mod where_clause;

/// What `vectorStore.config` may hold, for the TypeScript keys test.
#[cfg(test)]
pub(crate) use config::ChromaOptions;
pub use config::{chroma_settings, ChromaSettings};
pub use metadata::chroma_metadata;
pub use where_clause::where_clause;

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::core::engine::remote_index::{IdVectors, RemoteVectors, VectorPoint, VectorQuery};
use crate::core::error::{MemoryError, Result};
use crate::http::{send_with_retry, HttpClient, HttpError, HttpRequest, RetryPolicy};

/// Vectors per upsert request.
pub const UPSERT_BATCH: usize = 100;
/// Ids per delete request, and per page when clearing.
pub const DELETE_BATCH: usize = 500;

/// A Chroma collection reached through `C`.
pub struct ChromaVectors<C> {
    client: C,
    settings: ChromaSettings,
    retry: RetryPolicy,
    /// The collection's id, once created or found.
    collection: RefCell<Option<String>>,
}

fn unavailable(what: &str, why: impl std::fmt::Display) -> MemoryError {
    MemoryError::VectorStoreUnavailable(format!("Chroma {what}: {why}"))
}

impl<C: HttpClient> ChromaVectors<C> {
    pub fn new(client: C, settings: ChromaSettings, retry: RetryPolicy) -> Self {
        Self { client, settings, retry, collection: RefCell::new(None) }
    }

    fn request(&self, path: &str, body: String) -> HttpRequest {
        let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
        if let Some(key) = &self.settings.api_key {
            headers.push(("x-chroma-token".to_owned(), key.clone()));
        }
        let url = format!("{}/api/v2/{path}", self.settings.url);
        HttpRequest { url, headers, body, timeout_ms: Some(self.settings.timeout_ms) }
    }

    /// POSTs `body` to `path` (under `/api/v2/`), retried per the policy; the reply's body.
    async fn post_text(&self, path: &str, body: &impl Serialize) -> Result<String, HttpError> {
        let body = serde_json::to_string(body).unwrap_or_default(); // JSON values and plain structs only
        Ok(send_with_retry(&self.client, &self.request(path, body), &self.retry).await?.body)
    }

    /// Like `post_text`, the reply read as JSON.
    async fn post(&self, path: &str, body: &impl Serialize) -> Result<Value, HttpError> {
        Ok(serde_json::from_str(&self.post_text(path, body).await?).unwrap_or(Value::Null))
    }

    /// Like `post`, with failures as `VECTOR_STORE_UNAVAILABLE`.
    async fn call(&self, what: &str, path: &str, body: impl Serialize) -> Result<Value> {
        self.post(path, &body).await.map_err(|e| unavailable(what, e))
    }

    fn database_path(&self) -> String {
        format!("tenants/{}/databases/{}", self.settings.tenant, self.settings.database)
    }

    /// Creates the tenant and database unless they are Chroma's defaults (409: they exist already).
    async fn ensure_database(&self) -> Result<()> {
        let (tenant, database) = (&self.settings.tenant, &self.settings.database);
        if tenant == config::DEFAULT_TENANT && database == config::DEFAULT_DATABASE {
            return Ok(());
        }
        let steps =
            [("tenant", "tenants".to_owned(), tenant), ("database", format!("tenants/{tenant}/databases"), database)];
        for (what, path, name) in steps {
            match self.post(&path, &json!({"name": name})).await {
                Ok(_) | Err(HttpError::Status { status: 409, .. }) => {}
                Err(error) => return Err(unavailable(what, error)),
            }
        }
        Ok(())
    }

    /// The collection's path, creating it (cosine space) on first use.
    async fn collection(&self) -> Result<String> {
        if let Some(id) = self.collection.borrow().clone() {
            return Ok(format!("{}/collections/{id}", self.database_path()));
        }
        self.ensure_database().await?;
        let name = &self.settings.collection;
        let body = json!({"name": name, "get_or_create": true, "configuration": {"hnsw": {"space": "cosine"}}});
        let reply = self.call("collection", &format!("{}/collections", self.database_path()), body).await?;
        let id = reply.get("id").and_then(Value::as_str).ok_or_else(|| unavailable("collection", "no id in reply"))?;
        let space = reply.pointer("/configuration_json/hnsw/space").and_then(Value::as_str).unwrap_or("cosine");
        if space != "cosine" {
            let why = format!("Chroma collection \"{name}\" uses the {space} distance; memwasm needs cosine");
            return Err(MemoryError::InvalidConfig(format!("vectorStore.config.collectionName: {why}")));
        }
        *self.collection.borrow_mut() = Some(id.to_owned());
        Ok(format!("{}/collections/{id}", self.database_path()))
    }
}

/// One upsert request's body, serialised straight from the vectors (no JSON tree of floats).
#[derive(Serialize)]
pub struct UpsertBody<'a> {
    ids: Vec<&'a str>,
    embeddings: Vec<&'a [f32]>,
    metadatas: Vec<Map<String, Value>>,
}

impl<'a> UpsertBody<'a> {
    /// The body upserting `batch` (at most [`UPSERT_BATCH`] points).
    pub fn of(batch: &'a [VectorPoint]) -> Self {
        Self {
            ids: batch.iter().map(|p| p.id.as_str()).collect(),
            embeddings: batch.iter().map(|p| p.vector.as_slice()).collect(),
            metadatas: batch.iter().map(|p| chroma_metadata(&p.scope, &p.metadata)).collect(),
        }
    }
}

/// A `get` reply that included embeddings.
#[derive(Deserialize)]
struct VectorsReply {
    ids: Vec<String>,
    embeddings: Vec<Vec<f32>>,
}

/// The (id, cosine similarity) pairs of a query reply (cosine distance is 1 − similarity).
pub fn parse_hits(reply: &Value) -> Result<Vec<(String, f32)>> {
    let bad = || unavailable("query", "reply without ids and distances");
    let ids = reply.pointer("/ids/0").and_then(Value::as_array).ok_or_else(bad)?;
    let distances = reply.pointer("/distances/0").and_then(Value::as_array).ok_or_else(bad)?;
    if ids.len() != distances.len() {
        return Err(bad());
    }
    ids.iter()
        .zip(distances)
        .map(|(id, distance)| match (id.as_str(), distance.as_f64()) {
            (Some(id), Some(distance)) => Ok((id.to_owned(), (1.0 - distance) as f32)),
            _ => Err(bad()),
        })
        .collect()
}

/// The (id, vector) pairs of a `get` reply's body that included embeddings.
pub fn parse_vectors(body: &str) -> Result<IdVectors> {
    let bad = || unavailable("get", "reply without ids and embeddings");
    let reply: VectorsReply = serde_json::from_str(body).map_err(|_| bad())?;
    if reply.ids.len() != reply.embeddings.len() {
        return Err(bad());
    }
    Ok(reply.ids.into_iter().zip(reply.embeddings).collect())
}

impl<C: HttpClient> RemoteVectors for ChromaVectors<C> {
    async fn upsert(&self, points: &[VectorPoint]) -> Result<()> {
        let path = format!("{}/upsert", self.collection().await?);
        for batch in points.chunks(UPSERT_BATCH) {
            self.call("upsert", &path, UpsertBody::of(batch)).await?;
        }
        Ok(())
    }

    async fn delete(&self, ids: &[String]) -> Result<()> {
        let path = format!("{}/delete", self.collection().await?);
        for batch in ids.chunks(DELETE_BATCH) {
            self.call("delete", &path, json!({"ids": batch})).await?;
        }
        Ok(())
    }

    async fn query(&self, query: VectorQuery<'_>) -> Result<Vec<(String, f32)>> {
        let path = format!("{}/query", self.collection().await?);
        let mut body = json!({"query_embeddings": [query.vector], "n_results": query.limit, "include": ["distances"]});
        if let Some(clause) = where_clause(query.scope, query.filter) {
            body["where"] = clause;
        }
        parse_hits(&self.call("query", &path, body).await?)
    }

    async fn missing(&self, ids: &[String]) -> Result<Vec<String>> {
        let path = format!("{}/get", self.collection().await?);
        let mut missing = Vec::new();
        for batch in ids.chunks(DELETE_BATCH) {
            let reply = self.call("get", &path, json!({"ids": batch, "include": []})).await?;
            let held =
                reply.get("ids").and_then(Value::as_array).ok_or_else(|| unavailable("get", "reply without ids"))?;
            missing
                .extend(batch.iter().filter(|id| !held.iter().any(|held| held.as_str() == Some(id.as_str()))).cloned());
        }
        Ok(missing)
    }

    async fn vectors(&self, ids: &[String]) -> Result<IdVectors> {
        let path = format!("{}/get", self.collection().await?);
        let mut found = Vec::with_capacity(ids.len());
        for batch in ids.chunks(DELETE_BATCH) {
            let body = json!({"ids": batch, "include": ["embeddings"]});
            let reply = self.post_text(&path, &body).await.map_err(|e| unavailable("get", e))?;
            found.extend(parse_vectors(&reply)?);
        }
        Ok(found)
    }

    async fn clear(&self) -> Result<()> {
        let collection = self.collection().await?;
        loop {
            let page = json!({"include": [], "limit": DELETE_BATCH});
            let reply = self.call("clear", &format!("{collection}/get"), page).await?;
            let ids: Vec<String> = reply
                .get("ids")
                .and_then(Value::as_array)
                .ok_or_else(|| unavailable("clear", "reply without ids"))?
                .iter()
                .filter_map(|id| id.as_str().map(str::to_owned))
                .collect();
            if ids.is_empty() {
                return Ok(());
            }
            self.call("clear", &format!("{collection}/delete"), json!({"ids": ids})).await?;
        }
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
