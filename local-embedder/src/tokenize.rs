//! The tokenizer (a Hugging Face `tokenizer.json`), set up as sentence-transformers uses it for
//! all-MiniLM-L6-v2: at most 256 tokens per text (longer texts are truncated, never rejected), no padding
//! inside the tokenizer; `batch` pads to the longest row and returns the attention mask.

use crate::error::{EmbedderError, Result};
use tokenizers::{Tokenizer, TruncationParams};

/// The model's window: tokens per text, `[CLS]` and `[SEP]` included.
pub const MAX_TOKENS: usize = 256;

/// A padded batch, row-major: `ids` and `mask` both hold `rows * cols` entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub ids: Vec<u32>,
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
        let load = |why: String| EmbedderError::Load(format!("tokenizer: {why}"));
        let mut inner = Tokenizer::from_bytes(json).map_err(|e| load(e.to_string()))?;
        let pad_id = inner.get_padding().map_or(0, |p| p.pad_id);
        let truncation =
            TruncationParams { max_length: MAX_TOKENS, ..inner.get_truncation().cloned().unwrap_or_default() };
        inner.with_truncation(Some(truncation)).map_err(|e| load(e.to_string()))?;
        inner.with_padding(None);
        Ok(Self { inner, pad_id })
    }

    /// The token ids of one text, with `[CLS]`/`[SEP]`, truncated to `MAX_TOKENS`.
    pub fn ids(&self, text: &str) -> Result<Vec<u32>> {
        let encoding = self.inner.encode(text, true).map_err(|e| EmbedderError::Input(e.to_string()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// Tokenizes every text and pads the rows to the longest one.
    pub fn batch(&self, texts: &[&str]) -> Result<Batch> {
        let rows = texts.iter().map(|text| self.ids(text)).collect::<Result<Vec<_>>>()?;
        Ok(self.padded(rows))
    }

    /// Token rows (from `ids`) padded to the longest one.
    pub fn padded(&self, rows: Vec<Vec<u32>>) -> Batch {
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut batch = Batch { ids: Vec::new(), mask: Vec::new(), rows: rows.len(), cols };
        for row in rows {
            let pad = cols - row.len();
            batch.mask.extend(std::iter::repeat_n(1, row.len()).chain(std::iter::repeat_n(0, pad)));
            batch.ids.extend(row.into_iter().chain(std::iter::repeat_n(self.pad_id, pad)));
        }
        batch
    }
}
