//! The BERT encoder, written for this embedder after candle-transformers' `BertModel` (the same weights,
//! names and arithmetic; its shape is read by [`Config`]): its dense layers keep their weights packed, f32
//! ([`dense`]) or int8 ([`dense_i8`]), the word table may be int8 ([`words`]), and BERT's GELU uses a
//! vectorised erf ([`gelu`]). The layers run on plain rows of floats ([`attention`], [`norm`]); the
//! embeddings are candle's.

mod attention;
mod config;
mod dense;
mod dense_i8;
mod gelu;
mod kernel;
mod kernel_i8;
mod layer;
mod linear;
mod norm;
mod words;

use crate::error::{inference, Result};
use crate::weights::Int8Weights;
use candle_core::Tensor;
use candle_nn::{embedding, layer_norm, Embedding, LayerNorm, Module, VarBuilder};
pub use config::{Config, HiddenAct};
use layer::Layer;
use words::Words;

/// The embeddings (word, position, token type, then a layer norm) and the encoder's layers.
pub struct BertModel {
    words: Words,
    positions: Embedding,
    token_types: Embedding,
    norm: LayerNorm,
    layers: Vec<Layer>,
}

impl BertModel {
    /// The weights under `embeddings.` and `encoder.layer.N.` (or the same under `bert.`); the linear layers
    /// and the word table as `int8` says.
    pub fn load(vb: VarBuilder, int8: &Int8Weights, config: &Config) -> candle_core::Result<Self> {
        let words = "embeddings.word_embeddings.weight";
        let flat = vb.contains_tensor(words) || int8.get(words).is_some();
        let root = if flat { vb } else { vb.pp("bert") };
        let e = root.pp("embeddings");
        let hidden = config.hidden_size;
        let table = |rows, name| embedding(rows, hidden, e.pp(name));
        let layers = (0..config.num_hidden_layers)
            .map(|i| Layer::load(root.pp(format!("encoder.layer.{i}")), int8, config))
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Self {
            words: Words::load(e.pp("word_embeddings"), int8, config.vocab_size, hidden)?,
            positions: table(config.max_position_embeddings, "position_embeddings")?,
            token_types: table(config.type_vocab_size, "token_type_embeddings")?,
            norm: layer_norm(hidden, config.layer_norm_eps, e.pp("LayerNorm"))?,
            layers,
        })
    }

    /// The last hidden states `(rows, cols, hidden)` for token `ids`, `types` and `mask` (1 on real tokens),
    /// each `(rows, cols)` (the mask row-major).
    pub fn forward(&self, ids: &Tensor, types: &Tensor, mask: &[u32]) -> Result<Tensor> {
        let cols = ids.dim(1).map_err(inference)?;
        let positions = Tensor::arange(0u32, cols as u32, ids.device()).map_err(inference)?;
        let summed = (self.words.forward(ids).map_err(inference)?
            + self.token_types.forward(types).map_err(inference)?)
        .and_then(|s| s.broadcast_add(&self.positions.forward(&positions)?))
        .map_err(inference)?;
        let hidden = self.norm.forward(&summed).map_err(inference)?;
        let shape = hidden.dims().to_vec();
        let mut hidden = hidden.flatten_all().and_then(|h| h.to_vec1::<f32>()).map_err(inference)?;
        let rows = ids.dim(0).map_err(inference)?;
        for layer in &self.layers {
            hidden = layer.forward(&hidden, mask, rows, cols);
        }
        Tensor::from_vec(hidden, shape, ids.device()).map_err(inference)
    }
}
