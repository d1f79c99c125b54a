//! One encoder layer: self-attention over the unmasked tokens, then the feed-forward block, each with its
//! residual connection and layer norm (post-norm, as BERT). Runs on plain rows of floats: candle's tensor
//! ops cost more than their arithmetic at a sentence's few tokens.

use super::attention::{attend, Shape};
use super::config::{Config, HiddenAct};
use super::gelu::{gelu_in_place, gelu_tanh_in_place};
use super::linear::Linear;
use super::norm::Norm;
use crate::weights::Int8Weights;
use candle_nn::VarBuilder;

pub struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    intermediate: Linear,
    activation: HiddenAct,
    output: Linear,
    output_norm: Norm,
    heads: usize,
}

impl Layer {
    /// The weights of `encoder.layer.N` under `vb`.
    pub fn load(vb: VarBuilder, int8: &Int8Weights, config: &Config) -> candle_core::Result<Self> {
        let (hidden, inner) = (config.hidden_size, config.intermediate_size);
        let dense = |vb: &VarBuilder, inputs, outputs| Linear::load(vb, int8, inputs, outputs);
        let attention = vb.pp("attention");
        let norm = |vb: VarBuilder| Norm::load(vb.pp("LayerNorm"), hidden, config.layer_norm_eps);
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

    /// `hidden` `(rows · cols, width)` → the same shape; `mask` `(rows, cols)`, 1 on real tokens.
    pub fn forward(&self, hidden: &[f32], mask: &[u32], rows: usize, cols: usize) -> Vec<f32> {
        let shape = Shape { rows, cols, width: hidden.len() / (rows * cols).max(1), heads: self.heads };
        let (q, k, v) = (self.query.apply(hidden), self.key.apply(hidden), self.value.apply(hidden));
        let mut attended = self.attention_out.apply(&attend(&q, &k, &v, mask, shape));
        self.attention_norm.add_and_normalize(&mut attended, hidden);
        let mut inner = self.intermediate.apply(&attended);
        match self.activation {
            HiddenAct::Gelu => gelu_in_place(&mut inner),
            HiddenAct::GeluApproximate => gelu_tanh_in_place(&mut inner),
            HiddenAct::Relu => inner.iter_mut().for_each(|x| *x = x.max(0.0)),
        }
        let mut out = self.output.apply(&inner);
        self.output_norm.add_and_normalize(&mut out, &attended);
        out
    }
}
