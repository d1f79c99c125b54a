//! Hidden exports for the benchmark in `bench/`, not part of the API (no TypeScript types): the search
//! index on its own, so the scan is timed without an embedding round trip, and a bulk insert that fills
//! a `Memory` with given vectors so the public `search()` can be timed over them.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::error::to_js_error;
use super::{promise, Memory};
use crate::core::error::MemoryError;
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::storage::Changeset;
use crate::core::vector_store::{InMemoryVectorStore, Quantization, VectorStore};
use crate::core::{identity::content_hash, time::now_iso};

/// Bench row `row` of user `user`: id `b{row}`.
fn bench_memory(row: usize, user: String, vector: &[f32], now: &str) -> StoredMemory {
    let text = format!("bench memory {row}");
    let item = MemoryItem {
        id: format!("b{row}"),
        hash: content_hash(&text),
        memory: text,
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at: now.to_owned(),
        updated_at: now.to_owned(),
        scope: Scope { user_id: Some(user), ..Scope::default() },
        lifecycle: Default::default(),
    };
    StoredMemory { item, embedding: Some(vector.to_vec()) }
}

fn rows(vectors: &[f32], dimension: usize) -> Result<std::slice::ChunksExact<'_, f32>, JsValue> {
    if dimension == 0 || vectors.len() % dimension != 0 {
        return Err(to_js_error(MemoryError::InvalidInput("vectors.length must be a multiple of dimension".into())));
    }
    Ok(vectors.chunks_exact(dimension))
}

/// The search index alone.
#[wasm_bindgen(js_name = "__BenchIndex", skip_typescript)]
pub struct BenchIndex {
    store: InMemoryVectorStore,
}

#[wasm_bindgen(js_class = "__BenchIndex")]
impl BenchIndex {
    /// An empty index; `quantization` is `"auto"` (the default index), `"none"` or `"int8"`.
    #[wasm_bindgen(constructor)]
    pub fn new(quantization: &str) -> Result<BenchIndex, JsValue> {
        let quantization = match quantization {
            "auto" => Quantization::Auto,
            "none" => Quantization::None,
            "int8" => Quantization::Int8,
            other => return Err(to_js_error(MemoryError::InvalidInput(format!("quantization {other}")))),
        };
        Ok(BenchIndex { store: InMemoryVectorStore::new(quantization) })
    }

    /// Inserts row `i` of `vectors` (row-major) as memory `b{i}` of user `u{users[i]}`.
    pub fn load(&mut self, vectors: &[f32], dimension: usize, users: &[u32]) -> Result<(), JsValue> {
        let now = now_iso();
        self.store.reserve(users.len());
        for (row, (vector, user)) in rows(vectors, dimension)?.zip(users).enumerate() {
            self.store.upsert(bench_memory(row, format!("u{user}"), vector, &now)).map_err(to_js_error)?;
        }
        Ok(())
    }

    /// The rows of the `limit` memories of user `u{user}` most similar to the unit vector `query`.
    pub fn search(&self, query: &[f32], limit: usize, user: u32) -> Result<Vec<u32>, JsValue> {
        let scope = Scope { user_id: Some(format!("u{user}")), ..Scope::default() };
        let hits = self.store.search_in_scope(query, limit, &scope, (&|_| true, None)).map_err(to_js_error)?;
        Ok(hits.iter().filter_map(|(_, memory)| memory.item.id[1..].parse().ok()).collect())
    }

    /// Bytes the index allocated for vectors.
    #[wasm_bindgen(js_name = vectorBytes)]
    pub fn vector_bytes(&self) -> usize {
        self.store.vector_bytes()
    }
}

#[wasm_bindgen]
impl Memory {
    /// Stores row `i` of `vectors` as memory `b{i}` ("bench memory i") of user `u{users[i]}`, through the
    /// normal commit (storage, then index), with no history records and no embedding calls.
    #[wasm_bindgen(js_name = "__benchInsert", skip_typescript)]
    pub fn bench_insert(&self, vectors: &[f32], dimension: usize, users: &[u32]) -> Promise {
        let now = now_iso();
        let upserts = rows(vectors, dimension).map(|rows| {
            let rows = rows.zip(users).enumerate();
            rows.map(|(row, (vector, user))| bench_memory(row, format!("u{user}"), vector, &now)).collect()
        });
        let engine = self.engine.clone();
        promise(async move {
            let upserts = upserts.map_err(|_| MemoryError::InvalidInput("bad vectors".into()))?;
            engine.commit(Changeset { upserts, deletes: Vec::new(), history: Vec::new(), ..Changeset::default() }).await
        })
    }
}
