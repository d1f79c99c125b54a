//! One encoder layer: self-attention over the unmasked tokens, then the feed-forward block, each with its
//! residual connection and layer norm (post-norm, as BERT).

use super::gelu::gelu_in_place;
use super::linear::Linear;
use crate::error::{inference, Result};
use crate::weights::Int8Weights;
use candle_core::{Tensor, D};
use candle_nn::{layer_norm, LayerNorm, Module, VarBuilder};
use candle_transformers::models::bert::{Config, HiddenAct};

pub struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    activation: HiddenAct,
    output: Linear,
    output_norm: LayerNorm,
    heads: usize,
}

impl Layer {
    /// The weights of `encoder.layer.N` under `vb`.
    pub fn load(vb: VarBuilder, int8: &Int8Weights, config: &Config) -> candle_core::Result<Self> {
        let (hidden, inner) = (config.hidden_size, config.intermediate_size);
        let dense = |vb: &VarBuilder, inputs, outputs| Linear::load(vb, int8, inputs, outputs);
        let attention = vb.pp("attention");
        let norm = |vb: VarBuilder| layer_norm(hidden, config.layer_norm_eps, vb.pp("LayerNorm"));
        Ok(Self {
            query: dense(&attention.pp("self").pp("query"), hidden, hidden)?,
            key: dense(&attention.pp("self").pp("key"), hidden, hidden)?,
            value: dense(&attention.pp("self").pp("value"), hidden, hidden)?,
            attention_out: dense(&attention.pp("output").pp("dense"), hidden, hidden)?,
            attention_norm: norm(attention.pp("output"))?,
            intermediate: dense(&vb.pp("intermediate").pp("dense"), hidden, inner)?,
            activation: config.hidden_act,
            output: dense(&vb.pp("output").pp("dense"), inner, hidden)?,
            output_norm: norm(vb.pp("output"))?,
            heads: config.num_attention_heads,
        })
    }

    /// `hidden` `(rows, cols, hidden)`; `mask` the additive attention mask `(rows, 1, 1, cols)`.
    pub fn forward(&self, hidden: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let attended = self.attention(hidden, mask)?;
        let attended = self.attention_out.forward(&attended)?;
        let attended = self.attention_norm.forward(&(attended + hidden).map_err(inference)?).map_err(inference)?;
        let inner = match self.activation {
            HiddenAct::Gelu => self.intermediate.forward_with(&attended, gelu_in_place)?,
            HiddenAct::GeluApproximate => self.intermediate.forward(&attended)?.gelu().map_err(inference)?,
            HiddenAct::Relu => self.intermediate.forward(&attended)?.relu().map_err(inference)?,
        };
        let out = self.output.forward(&inner)?;
        self.output_norm.forward(&(out + attended).map_err(inference)?).map_err(inference)
    }

    /// Scaled dot-product attention per head; the heads' outputs side by side, `(rows, cols, hidden)`.
    fn attention(&self, hidden: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (rows, cols, width) = hidden.dims3().map_err(inference)?;
        let size = width / self.heads;
        let split = |t: Tensor| {
            t.reshape((rows, cols, self.heads, size)).and_then(|t| t.transpose(1, 2)).and_then(|t| t.contiguous())
        };
        let q = split(self.query.forward(hidden)?).map_err(inference)?;
        let k = split(self.key.forward(hidden)?).map_err(inference)?;
        let v = split(self.value.forward(hidden)?).map_err(inference)?;
        let scores =
            (q.matmul(&k.t().map_err(inference)?).map_err(inference)? / (size as f64).sqrt()).map_err(inference)?;
        let probs =
            candle_nn::ops::softmax_last_dim(&scores.broadcast_add(mask).map_err(inference)?).map_err(inference)?;
        let context =
            probs.matmul(&v).and_then(|c| c.transpose(1, 2)).and_then(|c| c.contiguous()).map_err(inference)?;
        context.flatten_from(D::Minus2).map_err(inference)
    }
}
