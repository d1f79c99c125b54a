//! The embedder: tokenizer + encoder + pooling.

use crate::bert::Config;
use crate::error::{inference, Result};
use crate::model::{minilm_config, read_config, Bert};
use crate::pool::mean_pool_normalize;
use crate::quant::Quantization;
use crate::tokenize::{TextTokenizer, MAX_TOKENS};

/// Texts per forward pass at most: a longer list runs as several passes, which bounds the attention's memory
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
        Self::load(weights, tokenizer_json, None, Quantization::None)
    }

    /// Another BERT-style model: `config_json` is its Hugging Face `config.json`.
    pub fn from_config_json(weights: Vec<u8>, tokenizer_json: &[u8], config_json: &str) -> Result<Self> {
        Self::load(weights, tokenizer_json, Some(config_json), Quantization::None)
    }

    /// The general form: `config_json` for a model other than all-MiniLM-L6-v2, and `quantization`
    /// ([`Quantization::Int8`] quantises f32/f16 weights at load; an int8 weights file runs int8 anyway).
    pub fn load(
        weights: Vec<u8>,
        tokenizer_json: &[u8],
        config_json: Option<&str>,
        quantization: Quantization,
    ) -> Result<Self> {
        let config = match config_json {
            Some(json) => read_config(json, MAX_TOKENS)?,
            None => minilm_config(),
        };
        Self::with_config(weights, tokenizer_json, config, quantization)
    }

    fn with_config(
        weights: Vec<u8>,
        tokenizer_json: &[u8],
        config: Config,
        quantization: Quantization,
    ) -> Result<Self> {
        let tokenizer = TextTokenizer::from_json(tokenizer_json)?;
        Ok(Self { tokenizer, bert: Bert::load(weights, &config, quantization)? })
    }

    /// How the linear layers run: [`Quantization::Int8`] when asked for or loaded from an int8 file.
    pub fn quantization(&self) -> Quantization {
        self.bert.quantization()
    }

    /// The length of every vector (384 for all-MiniLM-L6-v2).
    pub fn dimensions(&self) -> usize {
        self.bert.hidden()
    }

    /// The tokenizer (for token ids).
    pub fn tokenizer(&self) -> &TextTokenizer {
        &self.tokenizer
    }

    /// One unit vector per text, in order. The texts are sorted by token count and cut into forward passes
    /// of like lengths (see [`passes`]): a pass pads every row to its longest, so a long text among short
    /// ones would make the whole pass as slow as that text. A text's vector does not depend on its pass.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let rows = texts.iter().map(|text| self.tokenizer.ids(text)).collect::<Result<Vec<_>>>()?;
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&i| rows[i].len());
        let lengths: Vec<usize> = order.iter().map(|&i| rows[i].len()).collect();
        let mut rows: Vec<Option<Vec<u32>>> = rows.into_iter().map(Some).collect();
        let mut out = vec![Vec::new(); texts.len()];
        let mut start = 0;
        for size in passes(&lengths) {
            let chunk = &order[start..start + size];
            start += size;
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

/// Attention scores per head a pass may hold (rows × tokens²): [`MAX_BATCH`] rows of the embedder's 256 tokens,
/// or 16 rows of a cross-encoder's 512.
const ATTENTION_CELLS: usize = MAX_BATCH * MAX_TOKENS * MAX_TOKENS;
/// Below this many rows a pass may pad more ([`SMALL_PASS_PADDING_PERCENT`]): a pass of one or two rows uses
/// the CPU worst (a batch of 1 embeds about 40 % fewer texts per second than a batch of 4 of one length).
const MIN_PASS: usize = 4;
/// Padding a pass may add beyond its real tokens, in percent, before a longer row starts a new pass.
const MAX_PADDING_PERCENT: usize = 15;
/// The same, while the pass has fewer than [`MIN_PASS`] rows.
const SMALL_PASS_PADDING_PERCENT: usize = 50;

/// The sizes of the forward passes for rows of these token counts, sorted ascending: each pass takes the
/// next row while padding all its rows to that one (the longest) adds at most [`MAX_PADDING_PERCENT`] to
/// their real tokens ([`SMALL_PASS_PADDING_PERCENT`] below [`MIN_PASS`] rows); never more than [`MAX_BATCH`]
/// rows, nor more attention scores than [`ATTENTION_CELLS`].
pub fn passes(sorted_lengths: &[usize]) -> Vec<usize> {
    let mut sizes = Vec::new();
    let (mut rows, mut tokens) = (0, 0);
    for &length in sorted_lengths {
        let padded = (rows + 1) * length;
        let allowed = if rows < MIN_PASS { SMALL_PASS_PADDING_PERCENT } else { MAX_PADDING_PERCENT };
        let fits = padded * 100 <= (tokens + length) * (100 + allowed);
        let attention_fits = (rows + 1) * length * length <= ATTENTION_CELLS;
        if rows > 0 && (rows == MAX_BATCH || !fits || !attention_fits) {
            sizes.push(rows);
            (rows, tokens) = (0, 0);
        }
        rows += 1;
        tokens += length;
    }
    if rows > 0 {
        sizes.push(rows);
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_group_like_lengths_and_cover_every_row() {
        assert_eq!(passes(&[]), Vec::<usize>::new());
        assert_eq!(passes(&[5; 130]), vec![64, 64, 2], "equal rows fill passes of MAX_BATCH");
        assert_eq!(passes(&[3, 4, 5, 6, 7, 50, 51, 52]), vec![4, 1, 3], "a jump in length starts a new pass");
        let lengths: Vec<usize> = (10..110).collect();
        let sizes = passes(&lengths);
        assert_eq!(sizes.iter().sum::<usize>(), lengths.len());
        assert!(sizes.iter().all(|&size| (1..=MAX_BATCH).contains(&size)), "{sizes:?}");
        assert_eq!(passes(&[512; 40]), vec![16, 16, 8], "rows of 512 tokens: 16 per pass (their attention)");
    }
}
