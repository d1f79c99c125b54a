//! The embedder: tokenizer + encoder + pooling.

use crate::error::{inference, EmbedderError, Result};
use crate::model::{minilm_config, Bert};
use crate::pool::mean_pool_normalize;
use crate::tokenize::{TextTokenizer, MAX_TOKENS};
use candle_transformers::models::bert::Config;

/// Texts per forward pass: a longer list runs as several passes, which bounds the attention's memory
/// (rows × 12 heads × 256² floats).
pub const MAX_BATCH: usize = 64;

/// A loaded sentence embedder.
pub struct Embedder {
    tokenizer: TextTokenizer,
    bert: Bert,
}

impl Embedder {
    /// all-MiniLM-L6-v2 from its `model.safetensors` and `tokenizer.json` bytes.
    pub fn new(weights: Vec<u8>, tokenizer_json: &[u8]) -> Result<Self> {
        Self::with_config(weights, tokenizer_json, minilm_config())
    }

    /// Another BERT-style model: `config_json` is its Hugging Face `config.json`.
    pub fn from_config_json(weights: Vec<u8>, tokenizer_json: &[u8], config_json: &str) -> Result<Self> {
        let config: Config =
            serde_json::from_str(config_json).map_err(|e| EmbedderError::Load(format!("config: {e}")))?;
        let heads = config.num_attention_heads;
        if heads == 0 || !config.hidden_size.is_multiple_of(heads) || config.max_position_embeddings < MAX_TOKENS {
            let why = "hidden_size must be a multiple of num_attention_heads (> 0), max_position_embeddings >= 256";
            return Err(EmbedderError::Load(format!("config: {why}")));
        }
        Self::with_config(weights, tokenizer_json, config)
    }

    fn with_config(weights: Vec<u8>, tokenizer_json: &[u8], config: Config) -> Result<Self> {
        let tokenizer = TextTokenizer::from_json(tokenizer_json)?;
        Ok(Self { tokenizer, bert: Bert::load(weights, &config)? })
    }

    /// The length of every vector (384 for all-MiniLM-L6-v2).
    pub fn dimensions(&self) -> usize {
        self.bert.hidden()
    }

    /// The tokenizer (for token ids).
    pub fn tokenizer(&self) -> &TextTokenizer {
        &self.tokenizer
    }

    /// One unit vector per text, in order; one forward pass per `MAX_BATCH` texts. The texts are grouped
    /// by token count (shortest first) before they are cut into passes: a pass pads every row to its
    /// longest, so a long text among short ones would make the whole pass as slow as that text (LOCOMO's
    /// dialogue turns embed about twice as fast so). A text's vector does not depend on its batch.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let rows = texts.iter().map(|text| self.tokenizer.ids(text)).collect::<Result<Vec<_>>>()?;
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&i| rows[i].len());
        let mut rows: Vec<Option<Vec<u32>>> = rows.into_iter().map(Some).collect();
        let mut out = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(MAX_BATCH) {
            let batch = self.tokenizer.padded(chunk.iter().filter_map(|&i| rows[i].take()).collect());
            let (hidden, mask) = self.bert.forward(&batch)?;
            let pooled = mean_pool_normalize(&hidden, &mask).map_err(inference)?;
            for (&i, vector) in chunk.iter().zip(pooled.to_vec2::<f32>().map_err(inference)?) {
                out[i] = vector;
            }
        }
        Ok(out)
    }
}
