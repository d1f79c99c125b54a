//! The BERT encoder, written for this embedder after candle-transformers' `BertModel` (the same weights,
//! names and arithmetic): its dense layers keep their weights packed ([`dense`]), and BERT's GELU uses a
//! vectorised erf ([`gelu`]). Attention's two small matmuls and the layer norms stay candle's.

mod dense;
mod gelu;
mod kernel;
mod layer;

use crate::error::{inference, Result};
use candle_core::{DType, Tensor};
use candle_nn::{embedding, layer_norm, Embedding, LayerNorm, Module, VarBuilder};
use candle_transformers::models::bert::Config;
use layer::Layer;

/// The embeddings (word, position, token type, then a layer norm) and the encoder's layers.
pub struct BertModel {
    words: Embedding,
    positions: Embedding,
    token_types: Embedding,
    norm: LayerNorm,
    layers: Vec<Layer>,
}

impl BertModel {
    /// The weights under `embeddings.` and `encoder.layer.N.` (or the same under `bert.`).
    pub fn load(vb: VarBuilder, config: &Config) -> candle_core::Result<Self> {
        let root = if vb.contains_tensor("embeddings.word_embeddings.weight") { vb } else { vb.pp("bert") };
        let e = root.pp("embeddings");
        let hidden = config.hidden_size;
        let table = |rows, name| embedding(rows, hidden, e.pp(name));
        let layers = (0..config.num_hidden_layers)
            .map(|i| Layer::load(root.pp(format!("encoder.layer.{i}")), config))
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Self {
            words: table(config.vocab_size, "word_embeddings")?,
            positions: table(config.max_position_embeddings, "position_embeddings")?,
            token_types: table(config.type_vocab_size, "token_type_embeddings")?,
            norm: layer_norm(hidden, config.layer_norm_eps, e.pp("LayerNorm"))?,
            layers,
        })
    }

    /// The last hidden states `(rows, cols, hidden)` for token `ids`, `types` and `mask` (1 on real tokens),
    /// each `(rows, cols)`.
    pub fn forward(&self, ids: &Tensor, types: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let cols = ids.dim(1).map_err(inference)?;
        let positions = Tensor::arange(0u32, cols as u32, ids.device()).map_err(inference)?;
        let summed = (self.words.forward(ids).map_err(inference)?
            + self.token_types.forward(types).map_err(inference)?)
        .and_then(|s| s.broadcast_add(&self.positions.forward(&positions)?))
        .map_err(inference)?;
        let mut hidden = self.norm.forward(&summed).map_err(inference)?;
        // 0 where attended, f32::MIN on padding, shaped to add to every head's scores.
        let mask = mask.to_dtype(DType::F32).and_then(|m| m.unsqueeze(1)?.unsqueeze(1)).map_err(inference)?;
        let mask = ((mask.ones_like().map_err(inference)? - &mask).map_err(inference)? * f64::from(f32::MIN))
            .map_err(inference)?;
        for layer in &self.layers {
            hidden = layer.forward(&hidden, &mask)?;
        }
        Ok(hidden)
    }
}
