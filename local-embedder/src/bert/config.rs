//! A BERT model's Hugging Face `config.json`: the fields the encoder reads, with BERT's defaults. Other
//! fields (dropout, initialiser range, …) are ignored. Only absolute position embeddings are supported.

use serde::Deserialize;

/// The activation of the feed-forward layers (`hidden_act`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HiddenAct {
    /// The exact GELU (through erf).
    Gelu,
    /// GELU's tanh approximation (`geluapproximate`).
    GeluApproximate,
    Relu,
}

/// Where token positions come from (`position_embedding_type`); this encoder has only the absolute table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PositionEmbeddingType {
    #[default]
    Absolute,
}

/// The shape of a BERT encoder.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct Config {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub hidden_act: HiddenAct,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub layer_norm_eps: f64,
    pub position_embedding_type: PositionEmbeddingType,
}

impl Default for Config {
    /// BERT-base's shape, as Hugging Face's `BertConfig` defaults it.
    fn default() -> Self {
        Self {
            vocab_size: 30522,
            hidden_size: 768,
            num_hidden_layers: 12,
            num_attention_heads: 12,
            intermediate_size: 3072,
            hidden_act: HiddenAct::Gelu,
            max_position_embeddings: 512,
            type_vocab_size: 2,
            layer_norm_eps: 1e-12,
            position_embedding_type: PositionEmbeddingType::Absolute,
        }
    }
}
