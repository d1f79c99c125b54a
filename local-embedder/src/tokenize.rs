//! The tokenizer (a Hugging Face `tokenizer.json`), set up as sentence-transformers uses it for
//! all-MiniLM-L6-v2: at most 256 tokens per text (longer texts are truncated, never rejected), no padding
//! inside the tokenizer; `batch` pads to the longest row and returns the attention mask. A cross-encoder
//! reads a (query, document) pair as one row, its window the model's (512 tokens).

use crate::error::{EmbedderError, Result};
use tokenizers::{Tokenizer, TruncationParams};

/// The model's window: tokens per text, `[CLS]` and `[SEP]` included.
pub const MAX_TOKENS: usize = 256;

/// A padded batch, row-major: `ids`, `types` and `mask` each hold `rows * cols` entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub ids: Vec<u32>,
    /// The token type (segment): 0, or 1 on a pair's second text.
    pub types: Vec<u32>,
    /// 1 for a real token, 0 for padding.
    pub mask: Vec<u32>,
    pub rows: usize,
    pub cols: usize,
}

/// A loaded tokenizer.
pub struct TextTokenizer {
    inner: Tokenizer,
    pad_id: u32,
}

impl TextTokenizer {
    /// Parses `tokenizer.json`; `EMBEDDER_LOAD` when it is not a valid tokenizer.
    pub fn from_json(json: &[u8]) -> Result<Self> {
        Self::with_window(json, MAX_TOKENS)
    }

    /// The same, cutting each row (a text, or a pair as the file's truncation strategy says) to `window`.
    pub fn with_window(json: &[u8], window: usize) -> Result<Self> {
        let load = |why: String| EmbedderError::Load(format!("tokenizer: {why}"));
        let mut inner = Tokenizer::from_bytes(json).map_err(|e| load(e.to_string()))?;
        let pad_id = inner.get_padding().map_or(0, |p| p.pad_id);
        let truncation = TruncationParams { max_length: window, ..inner.get_truncation().cloned().unwrap_or_default() };
        inner.with_truncation(Some(truncation)).map_err(|e| load(e.to_string()))?;
        inner.with_padding(None);
        Ok(Self { inner, pad_id })
    }

    /// The token ids of one text, with `[CLS]`/`[SEP]`, truncated to `MAX_TOKENS`.
    pub fn ids(&self, text: &str) -> Result<Vec<u32>> {
        let encoding = self.inner.encode(text, true).map_err(|e| EmbedderError::Input(e.to_string()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The token ids and types of a pair read as one row (`[CLS] first [SEP] second [SEP]`, the second's
    /// tokens of type 1), truncated to the window.
    pub fn pair_ids(&self, first: &str, second: &str) -> Result<(Vec<u32>, Vec<u32>)> {
        let encoding = self.inner.encode((first, second), true).map_err(|e| EmbedderError::Input(e.to_string()))?;
        Ok((encoding.get_ids().to_vec(), encoding.get_type_ids().to_vec()))
    }

    /// Tokenizes every text and pads the rows to the longest one.
    pub fn batch(&self, texts: &[&str]) -> Result<Batch> {
        let rows = texts.iter().map(|text| self.ids(text)).collect::<Result<Vec<_>>>()?;
        Ok(self.padded(rows))
    }

    /// Token rows (from `ids`) padded to the longest one, every token of type 0.
    pub fn padded(&self, rows: Vec<Vec<u32>>) -> Batch {
        self.padded_pairs(
            rows.into_iter()
                .map(|ids| {
                    let types = vec![0; ids.len()];
                    (ids, types)
                })
                .collect(),
        )
    }

    /// Rows of (ids, types) (from `pair_ids`) padded to the longest one.
    pub fn padded_pairs(&self, rows: Vec<(Vec<u32>, Vec<u32>)>) -> Batch {
        let cols = rows.iter().map(|(ids, _)| ids.len()).max().unwrap_or(0);
        let mut batch = Batch { ids: Vec::new(), types: Vec::new(), mask: Vec::new(), rows: rows.len(), cols };
        for (ids, types) in rows {
            let pad = cols - ids.len();
            batch.mask.extend(std::iter::repeat_n(1, ids.len()).chain(std::iter::repeat_n(0, pad)));
            batch.types.extend(types.into_iter().chain(std::iter::repeat_n(0, pad)));
            batch.ids.extend(ids.into_iter().chain(std::iter::repeat_n(self.pad_id, pad)));
        }
        batch
    }
}
