//! The BERT encoder ([`crate::bert`]) loaded from safetensors bytes. f16 or bf16 weights are widened to
//! f32 when loaded; the forward pass runs in f32 on the CPU (SIMD128 on wasm32), or with int8 linear layers
//! (quantised at load, or read from an int8 file: [`crate::int8_file`]).

use crate::bert::BertModel;
use crate::bert::{Config, HiddenAct};
use crate::error::{inference, EmbedderError, Result};
use crate::quant::Quantization;
use crate::tokenize::Batch;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;

/// all-MiniLM-L6-v2's `config.json`.
pub fn minilm_config() -> Config {
    Config {
        vocab_size: 30522,
        hidden_size: 384,
        num_hidden_layers: 6,
        num_attention_heads: 12,
        intermediate_size: 1536,
        hidden_act: HiddenAct::Gelu,
        max_position_embeddings: 512,
        type_vocab_size: 2,
        ..Config::default()
    }
}

/// A model's Hugging Face `config.json`, checked: `EMBEDDER_LOAD` unless `hidden_size` is a multiple of
/// `num_attention_heads` and the model has at least `positions` positions.
pub fn read_config(json: &str, positions: usize) -> Result<Config> {
    let config: Config = serde_json::from_str(json).map_err(|e| EmbedderError::Load(format!("config: {e}")))?;
    let heads = config.num_attention_heads;
    if heads == 0 || !config.hidden_size.is_multiple_of(heads) || config.max_position_embeddings < positions {
        let why = format!(
            "hidden_size must be a multiple of num_attention_heads (> 0), max_position_embeddings >= {positions}"
        );
        return Err(EmbedderError::Load(format!("config: {why}")));
    }
    Ok(config)
}

/// A loaded encoder.
pub struct Bert {
    model: BertModel,
    hidden: usize,
    quantization: Quantization,
}

impl Bert {
    /// Loads `weights` (a safetensors file) for `config`, quantised as asked (an int8 file runs int8
    /// anyway): `EMBEDDER_LOAD` when it is not safetensors or a tensor is missing, has the wrong shape or
    /// (int8) lacks a valid scale.
    pub fn load(weights: Vec<u8>, config: &Config, quantization: Quantization) -> Result<Self> {
        Ok(Self::load_with_head(weights, config, quantization, |_| Ok(()))?.0)
    }

    /// The same, and a head on top of the encoder read from the same weights by `head` (which gets their
    /// root, e.g. `bert.pooler.` and `classifier.` for a cross-encoder).
    pub fn load_with_head<H>(
        weights: Vec<u8>,
        config: &Config,
        quantization: Quantization,
        head: impl FnOnce(&VarBuilder) -> candle_core::Result<H>,
    ) -> Result<(Self, H)> {
        let load = |e: candle_core::Error| EmbedderError::Load(format!("weights: {e}"));
        let (tensors, int8) = crate::weights::read(&weights, quantization).map_err(load)?;
        drop(weights);
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &Device::Cpu);
        let head = head(&vb).map_err(load)?;
        let model = BertModel::load(vb, &int8, config).map_err(load)?;
        Ok((Self { model, hidden: config.hidden_size, quantization: int8.mode }, head))
    }

    /// How the linear layers run.
    pub fn quantization(&self) -> Quantization {
        self.quantization
    }

    /// The width of the hidden states (the embedding's dimensions).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// One forward pass: the last hidden states, `(rows, cols, hidden)`, and the mask as an f32 tensor
    /// `(rows, cols)`.
    pub fn forward(&self, batch: &Batch) -> Result<(Tensor, Tensor)> {
        let shape = (batch.rows, batch.cols);
        let ids = Tensor::from_slice(&batch.ids, shape, &Device::Cpu).map_err(inference)?;
        let mask = Tensor::from_slice(&batch.mask, shape, &Device::Cpu).map_err(inference)?;
        let types = Tensor::from_slice(&batch.types, shape, &Device::Cpu).map_err(inference)?;
        let hidden = self.model.forward(&ids, &types, &batch.mask)?;
        Ok((hidden, mask.to_dtype(DType::F32).map_err(inference)?))
    }
}
