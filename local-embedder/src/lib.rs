//! On-device sentence embedder for memwasm: all-MiniLM-L6-v2 (a 6-layer BERT) as sentence-transformers
//! runs it. Text is tokenized and cut to 256 tokens, a batch goes through one BERT forward pass with an
//! attention mask over its padding, and each row is mean-pooled over its real tokens, then L2-normalised.
//!
//! The same encoder, with BERT's pooler and a one-output classifier, is a cross-encoder reranker
//! ([`CrossEncoder`]: the ms-marco MiniLM models).
//!
//! The core is target-agnostic; `wasm` (wasm32 only) is the thin wasm-bindgen binding that
//! `pkg/local-embedder/` wraps.

mod bert;
mod cross_encoder;
mod embedder;
mod error;
mod int8_file;
mod model;
mod pool;
mod quant;
mod tokenize;
#[cfg(target_arch = "wasm32")]
mod wasm;
mod weights;

pub use cross_encoder::{CrossEncoder, PAIR_TOKENS};
pub use embedder::{Embedder, MAX_BATCH};
pub use error::{EmbedderError, Result};
pub use int8_file::quantize_weights;
pub use quant::Quantization;
pub use tokenize::{Batch, TextTokenizer, MAX_TOKENS};
