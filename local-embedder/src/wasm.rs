//! The wasm-bindgen binding: `new LocalEmbedder(weights, tokenizerJson, config?, quantization?)`,
//! `embed(texts)` (one flat `Float32Array`, `dimensions` floats per text) and `tokenIds(text)`;
//! `new LocalCrossEncoder(weights, tokenizerJson, config?, quantization?)` and `score(query, documents)` (one
//! logit per document). Errors are `Error`s with a `code`. `quantizeWeights(bytes)` writes the int8 weights file.

use crate::{CrossEncoder, Embedder, EmbedderError, Quantization};
use js_sys::{Error, Reflect};
use wasm_bindgen::prelude::*;

/// all-MiniLM-L6-v2 in this module's memory.
#[wasm_bindgen]
pub struct LocalEmbedder {
    inner: Embedder,
}

#[wasm_bindgen]
impl LocalEmbedder {
    /// Loads `weights` (safetensors bytes) and `tokenizer` (tokenizer.json text); `config` optionally
    /// replaces the built-in all-MiniLM-L6-v2 `config.json`; `quantization` is `"none"` (default) or
    /// `"int8"`. Throws `EMBEDDER_LOAD`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        weights: Vec<u8>,
        tokenizer: &str,
        config: Option<String>,
        quantization: Option<String>,
    ) -> Result<LocalEmbedder, JsValue> {
        let quantization = quantization_named(quantization.as_deref())?;
        let inner = Embedder::load(weights, tokenizer.as_bytes(), config.as_deref(), quantization);
        Ok(Self { inner: inner.map_err(to_js)? })
    }

    /// `"int8"` when the linear layers run in int8 (asked for, or an int8 weights file), else `"none"`.
    #[wasm_bindgen(getter)]
    pub fn quantization(&self) -> String {
        self.inner.quantization().name().to_owned()
    }

    /// The length of each vector.
    #[wasm_bindgen(getter)]
    pub fn dimensions(&self) -> usize {
        self.inner.dimensions()
    }

    /// Embeds `texts` (sorted by length into forward passes of at most 64) into one flat array, row after row.
    pub fn embed(&self, texts: Vec<String>) -> Result<Vec<f32>, JsValue> {
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        Ok(self.inner.embed(&texts).map_err(to_js)?.concat())
    }

    /// The token ids of `text` (with `[CLS]`/`[SEP]`, at most 256).
    #[wasm_bindgen(js_name = tokenIds)]
    pub fn token_ids(&self, text: &str) -> Result<Vec<u32>, JsValue> {
        self.inner.tokenizer().ids(text).map_err(to_js)
    }
}

/// A cross-encoder reranker (ms-marco MiniLM) in this module's memory.
#[wasm_bindgen]
pub struct LocalCrossEncoder {
    inner: CrossEncoder,
}

#[wasm_bindgen]
impl LocalCrossEncoder {
    /// Loads `weights` (safetensors bytes) and `tokenizer` (tokenizer.json text); `config` is the model's
    /// `config.json` (default ms-marco-MiniLM's, layers as the weights hold); `quantization` `"none"` or
    /// `"int8"`. Throws `EMBEDDER_LOAD`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        weights: Vec<u8>,
        tokenizer: &str,
        config: Option<String>,
        quantization: Option<String>,
    ) -> Result<LocalCrossEncoder, JsValue> {
        let quantization = quantization_named(quantization.as_deref())?;
        let inner = CrossEncoder::load(weights, tokenizer.as_bytes(), config.as_deref(), quantization);
        Ok(Self { inner: inner.map_err(to_js)? })
    }

    /// `"int8"` when the encoder's linear layers run in int8, else `"none"`.
    #[wasm_bindgen(getter)]
    pub fn quantization(&self) -> String {
        self.inner.quantization().name().to_owned()
    }

    /// The relevance logit of each document to `query`, in the documents' order.
    pub fn score(&self, query: &str, documents: Vec<String>) -> Result<Vec<f32>, JsValue> {
        let documents: Vec<&str> = documents.iter().map(String::as_str).collect();
        self.inner.score(query, &documents).map_err(to_js)
    }
}

/// `"none"` (also when absent) or `"int8"`; anything else is `EMBEDDER_LOAD`.
fn quantization_named(name: Option<&str>) -> Result<Quantization, JsValue> {
    let name = name.unwrap_or("none");
    Quantization::from_name(name)
        .ok_or_else(|| to_js(EmbedderError::Load(format!("quantization: {name:?} is not one of \"none\", \"int8\""))))
}

/// The int8 weights file (bytes) for an f32, f16 or bf16 `model.safetensors`; throws `EMBEDDER_LOAD`.
#[wasm_bindgen(js_name = quantizeWeights)]
pub fn quantize_weights(weights: Vec<u8>) -> Result<Vec<u8>, JsValue> {
    crate::quantize_weights(&weights).map_err(to_js)
}

/// An `Error` carrying the stable `code`.
fn to_js(err: EmbedderError) -> JsValue {
    let error = Error::new(&format!("{}: {err}", err.code()));
    error.set_name("LocalEmbedderError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(&error, &"code".into(), &err.code().into());
    error.into()
}
