//! A cross-encoder reranker (BERT for sequence classification with one label, as sentence-transformers'
//! `CrossEncoder` runs the ms-marco MiniLM models): a (query, document) pair is read as one row, `[CLS]
//! query [SEP] document [SEP]` with the document's tokens of type 1, cut to the model's 512 tokens; the
//! `[CLS]` state goes through BERT's pooler (dense, tanh) and the classifier, whose one output is the
//! pair's relevance logit.

use crate::bert::Config;
use crate::embedder::passes;
use crate::error::{inference, Result};
use crate::model::{minilm_config, read_config, Bert};
use crate::quant::Quantization;
use crate::tokenize::TextTokenizer;
use candle_core::{IndexOp, Module};
use candle_nn::{linear, Linear, VarBuilder};
use safetensors::SafeTensors;

/// Tokens per (query, document) pair at most: the ms-marco models' window.
pub const PAIR_TOKENS: usize = 512;

/// The pooler and the classifier on top of the encoder.
struct Head {
    pooler: Linear,
    classifier: Linear,
}

impl Head {
    /// `bert.pooler.dense` (or `pooler.dense`) and `classifier`, with one output.
    fn load(vb: &VarBuilder, hidden: usize) -> candle_core::Result<Self> {
        let nested = vb.contains_tensor("bert.pooler.dense.weight");
        let pooler = if nested { vb.pp("bert.pooler.dense") } else { vb.pp("pooler.dense") };
        Ok(Self { pooler: linear(hidden, hidden, pooler)?, classifier: linear(hidden, 1, vb.pp("classifier"))? })
    }
}

/// A loaded cross-encoder.
pub struct CrossEncoder {
    tokenizer: TextTokenizer,
    bert: Bert,
    head: Head,
}

impl CrossEncoder {
    /// A cross-encoder from its `model.safetensors` and `tokenizer.json` bytes. `config_json` is its
    /// `config.json`; without it, cross-encoder/ms-marco-MiniLM's (384 wide, 12 heads) with as many
    /// layers as the weights hold (L-6 or L-12). `EMBEDDER_LOAD` when they do not fit.
    pub fn load(
        weights: Vec<u8>,
        tokenizer_json: &[u8],
        config_json: Option<&str>,
        quantization: Quantization,
    ) -> Result<Self> {
        let config = match config_json {
            Some(json) => read_config(json, 1)?,
            None => Config { num_hidden_layers: layer_count(&weights).unwrap_or(12), ..minilm_config() },
        };
        let window = PAIR_TOKENS.min(config.max_position_embeddings);
        let tokenizer = TextTokenizer::with_window(tokenizer_json, window)?;
        let hidden = config.hidden_size;
        let (bert, head) = Bert::load_with_head(weights, &config, quantization, |vb| Head::load(vb, hidden))?;
        Ok(Self { tokenizer, bert, head })
    }

    /// How the encoder's linear layers run.
    pub fn quantization(&self) -> Quantization {
        self.bert.quantization()
    }

    /// The relevance logit of each document to `query`, in the documents' order (higher is more relevant;
    /// sentence-transformers' sigmoid of it is the 0–1 score). Pairs run in passes of like lengths, so a
    /// pair scores the same alone or among others.
    pub fn score(&self, query: &str, documents: &[&str]) -> Result<Vec<f32>> {
        let rows = documents.iter().map(|doc| self.tokenizer.pair_ids(query, doc)).collect::<Result<Vec<_>>>()?;
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&i| rows[i].0.len());
        let lengths: Vec<usize> = order.iter().map(|&i| rows[i].0.len()).collect();
        let mut rows: Vec<Option<(Vec<u32>, Vec<u32>)>> = rows.into_iter().map(Some).collect();
        let mut out = vec![0.0; documents.len()];
        let mut start = 0;
        for size in passes(&lengths) {
            let chunk = &order[start..start + size];
            start += size;
            let batch = self.tokenizer.padded_pairs(chunk.iter().filter_map(|&i| rows[i].take()).collect());
            let (hidden, _) = self.bert.forward(&batch)?;
            let first = hidden.i((.., 0)).map_err(inference)?;
            let pooled = self.head.pooler.forward(&first).and_then(|p| p.tanh()).map_err(inference)?;
            let logits = self.head.classifier.forward(&pooled).and_then(|l| l.flatten_all()?.to_vec1::<f32>());
            for (&i, logit) in chunk.iter().zip(logits.map_err(inference)?) {
                out[i] = logit;
            }
        }
        Ok(out)
    }
}

/// The number of `encoder.layer.N` blocks in a safetensors file; `None` when it has none or cannot be read
/// (loading then reports what is wrong).
fn layer_count(weights: &[u8]) -> Option<usize> {
    let (_, metadata) = SafeTensors::read_metadata(weights).ok()?;
    let index = |name: &str| name.split("encoder.layer.").nth(1)?.split('.').next()?.parse::<usize>().ok();
    metadata.tensors().keys().filter_map(|name| index(name)).max().map(|last| last + 1)
}
