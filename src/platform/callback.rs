//! Models the app brings as JS functions, the offline path (WebLLM, transformers.js, a browser's
//! built-in model): `llm.generate({system, user, json})` resolving to the reply text, and
//! `embedder.embed(texts)` resolving to one vector (`number[]` or `Float32Array`) per text, and
//! `reranker.rerank(query, documents)` resolving to one relevance per document. What they throw becomes
//! `LLM_CALLBACK` / `EMBEDDING_CALLBACK` / `RERANKER_CALLBACK`, which `add()` and `search()` degrade like HTTP
//! failures; a call that has not settled within `config.timeoutMs` (when set) becomes `…_TIMEOUT`.

use futures_util::future::{select, Either};
use js_sys::{Array, Float32Array, Float64Array, Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::timer::{clear_timeout, set_timeout};
use crate::core::config::invalid;
use crate::core::error::{MemoryError, Result, UpstreamError};
use crate::core::model_traits::Reranker;
use crate::providers::{checked_vectors, Embedder, Llm, LlmRequest};

/// A readable message for whatever JS threw.
fn js_message(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value
        .as_string()
        .or_else(|| js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| format!("a thrown {}", value.js_typeof().as_string().unwrap_or_default()))
}

/// Why a call of a JS function gave no value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Failed {
    /// It threw or rejected with this message.
    Threw(String),
    /// It had not settled after this many ms.
    TimedOut(u32),
}

impl Failed {
    /// As an LLM error: `LLM_CALLBACK` (the message after `context`) or `LLM_TIMEOUT`.
    pub(crate) fn llm(self, context: &str) -> MemoryError {
        match self {
            Self::Threw(message) => MemoryError::LlmCallback(format!("{context}{message}")),
            Self::TimedOut(ms) => MemoryError::Llm(UpstreamError::timeout(ms)),
        }
    }

    /// As an embedding error: `EMBEDDING_CALLBACK` or `EMBEDDING_TIMEOUT`.
    pub(crate) fn embedding(self, context: &str) -> MemoryError {
        match self {
            Self::Threw(message) => MemoryError::EmbeddingCallback(format!("{context}{message}")),
            Self::TimedOut(ms) => MemoryError::Embedding(UpstreamError::timeout(ms)),
        }
    }

    /// As a reranker error: `RERANKER_CALLBACK` or `RERANKER_TIMEOUT`.
    pub(crate) fn reranker(self) -> MemoryError {
        match self {
            Self::Threw(message) => MemoryError::RerankerCallback(message),
            Self::TimedOut(ms) => MemoryError::Reranker(UpstreamError::timeout(ms)),
        }
    }
}

/// Calls `function` with `args` (and `this`), then awaits the result when it is a promise or thenable, for
/// at most `timeout_ms` when given (the call itself is not cancelled; its late result is ignored).
pub(crate) async fn call(
    function: &Function,
    this: &JsValue,
    args: &[JsValue],
    timeout_ms: Option<u32>,
) -> Result<JsValue, Failed> {
    let args: Array = args.iter().collect();
    let threw = |e: JsValue| Failed::Threw(js_message(&e));
    let returned = function.apply(this, &args).map_err(threw)?;
    let settled = JsFuture::from(Promise::resolve(&returned));
    let Some(ms) = timeout_ms else { return settled.await.map_err(threw) };
    let mut timer = JsValue::UNDEFINED;
    let expired = JsFuture::from(Promise::new(&mut |resolve, _| timer = set_timeout(&resolve, f64::from(ms))));
    let outcome = select(settled, expired).await;
    clear_timeout(&timer);
    match outcome {
        Either::Left((result, _)) => result.map_err(threw),
        Either::Right(_) => Err(Failed::TimedOut(ms)),
    }
}

/// `value` as a function, or `INVALID_CONFIG` naming `field`.
fn function(value: &JsValue, field: &str, shape: &str) -> Result<Function> {
    value.dyn_ref::<Function>().cloned().ok_or_else(|| invalid(field, format!("must be a function {shape}")))
}

/// `llm: {provider: "custom", generate}`.
pub struct CallbackLlm {
    generate: Function,
    timeout_ms: Option<u32>,
}

impl CallbackLlm {
    /// `generate` is the live value at `llm.generate`; a call not settled within `timeout_ms` fails.
    pub fn new(generate: &JsValue, timeout_ms: Option<u32>) -> Result<Self> {
        let generate = function(generate, "llm.generate", "({system, user, json}) => string | Promise<string>")?;
        Ok(Self { generate, timeout_ms })
    }
}

impl Llm for CallbackLlm {
    /// Calls `generate({system, user, json, schema?})`; `schema` is `{name, description, schema}` (a JSON
    /// Schema) when the reply must be JSON of that shape.
    async fn generate(&self, wanted: &LlmRequest<'_>) -> Result<String> {
        let request = Object::new();
        let (system, user, json) = (wanted.system, wanted.user, wanted.wants_json());
        for (key, value) in [("system", JsValue::from_str(system)), ("user", user.into()), ("json", json.into())] {
            let _ = Reflect::set(&request, &key.into(), &value);
        }
        if let Some(shape) = wanted.reply {
            let shape =
                serde_json::json!({"name": shape.name, "description": shape.description, "schema": shape.schema});
            let serializer = serde_wasm_bindgen::Serializer::json_compatible();
            if let Ok(shape) = serde::Serialize::serialize(&shape, &serializer) {
                let _ = Reflect::set(&request, &"schema".into(), &shape);
            }
        }
        let reply = call(&self.generate, &JsValue::NULL, &[request.into()], self.timeout_ms).await;
        let reply = reply.map_err(|failed| failed.llm(""))?;
        reply.as_string().ok_or_else(|| {
            let kind = reply.js_typeof().as_string().unwrap_or_default();
            MemoryError::LlmResponse(format!("generate must resolve to a string, got {kind}"))
        })
    }
}

/// `embedder: {provider: "custom", embed, dimensions}`.
pub struct CallbackEmbedder {
    embed: Function,
    dimensions: usize,
    timeout_ms: Option<u32>,
}

impl CallbackEmbedder {
    /// `embed` is the live value at `embedder.embed`; every vector must have `dimensions` entries; a call not
    /// settled within `timeout_ms` fails.
    pub fn new(embed: &JsValue, dimensions: usize, timeout_ms: Option<u32>) -> Result<Self> {
        let shape = "(texts: string[]) => number[][] | Float32Array[] (or a Promise of it)";
        Ok(Self { embed: function(embed, "embedder.embed", shape)?, dimensions, timeout_ms })
    }
}

/// A `number[]`, `Float32Array` or `Float64Array` as a vector.
pub(crate) fn js_vector(value: &JsValue) -> Option<Vec<f32>> {
    if let Some(array) = value.dyn_ref::<Float32Array>() {
        return Some(array.to_vec());
    }
    if let Some(array) = value.dyn_ref::<Float64Array>() {
        return Some(array.to_vec().into_iter().map(|x| x as f32).collect());
    }
    let array = value.dyn_ref::<Array>()?;
    array.iter().map(|x| x.as_f64().map(|x| x as f32)).collect()
}

impl Embedder for CallbackEmbedder {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let input: Array = texts.iter().map(|text| JsValue::from_str(text)).collect();
        let reply = call(&self.embed, &JsValue::NULL, &[input.into()], self.timeout_ms).await;
        let reply = reply.map_err(|failed| failed.embedding(""))?;
        let bad = |why: String| MemoryError::EmbeddingResponse(why);
        let list = reply.dyn_ref::<Array>().ok_or_else(|| bad("embed must resolve to an array of vectors".into()))?;
        let vectors = list
            .iter()
            .enumerate()
            .map(|(i, v)| js_vector(&v).ok_or_else(|| bad(format!("vector {i} is not a number[] or Float32Array"))))
            .collect::<Result<Vec<_>>>()?;
        checked_vectors(vectors, texts.len(), Some(self.dimensions))
    }

    fn dimensions(&self) -> Option<usize> {
        Some(self.dimensions)
    }
}

/// `reranker: {provider: "custom", rerank}`.
pub struct CallbackReranker {
    rerank: Function,
    timeout_ms: Option<u32>,
}

impl CallbackReranker {
    /// `rerank` is the live value at `reranker.rerank`; a call not settled within `timeout_ms` fails.
    pub fn new(rerank: &JsValue, timeout_ms: Option<u32>) -> Result<Self> {
        let shape = "(query: string, documents: string[]) => number[] (or a Promise of it)";
        Ok(Self { rerank: function(rerank, "reranker.rerank", shape)?, timeout_ms })
    }
}

impl Reranker for CallbackReranker {
    /// Calls `rerank(query, documents)`: one finite relevance per document, in the documents' order
    /// (`RERANKER_RESPONSE` otherwise).
    async fn rerank(&self, query: &str, documents: &[&str]) -> Result<Vec<(usize, f64)>> {
        if documents.is_empty() {
            return Ok(Vec::new());
        }
        let input: Array = documents.iter().map(|text| JsValue::from_str(text)).collect();
        let args = [JsValue::from_str(query), input.into()];
        let reply = call(&self.rerank, &JsValue::NULL, &args, self.timeout_ms).await.map_err(Failed::reranker)?;
        let bad = |why: String| MemoryError::RerankerResponse(why);
        let scores = js_vector(&reply).ok_or_else(|| bad("rerank must resolve to an array of numbers".into()))?;
        if scores.len() != documents.len() {
            return Err(bad(format!("rerank gave {} scores for {} documents", scores.len(), documents.len())));
        }
        Ok(scores.into_iter().map(f64::from).enumerate().collect())
    }
}
