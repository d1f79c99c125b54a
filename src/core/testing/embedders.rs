//! Embedders with known vectors: letter frequencies, a fixed table, or none at all. Each counts the
//! requests it receives; clones share the count.

use std::cell::Cell;
use std::rc::Rc;

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::Embedder;

/// Counts requests; clones share the count.
#[derive(Debug, Clone, Default)]
struct Requests(Rc<Cell<usize>>);

impl Requests {
    fn count(&self) {
        self.0.set(self.0.get() + 1);
    }
}

/// Letter-frequency vectors: `0.01` everywhere, plus one per ASCII letter `a`–`z` of the text at index
/// `(letter - 'a') % dimensions`. Upper-case letters count only with [`Letters::folding_case`].
#[derive(Debug, Clone)]
pub struct Letters {
    dimensions: usize,
    fold_case: bool,
    fail_on: Option<&'static str>,
    requests: Requests,
}

impl Letters {
    /// Vectors of `dimensions` numbers (26: one per letter).
    pub fn new(dimensions: usize) -> Self {
        Self { dimensions, fold_case: false, fail_on: None, requests: Requests::default() }
    }

    /// Lower-cases texts first, so `T` counts as `t`.
    pub fn folding_case(self) -> Self {
        Self { fold_case: true, ..self }
    }

    /// Fails any request (the whole batch) with a text containing `word`, with `EMBEDDING_RESPONSE`.
    pub fn failing_on(self, word: &'static str) -> Self {
        Self { fail_on: Some(word), ..self }
    }

    /// Requests received so far.
    pub fn requests(&self) -> usize {
        self.requests.0.get()
    }

    fn vector(&self, text: &str) -> Vec<f32> {
        let text = if self.fold_case { text.to_lowercase() } else { text.to_owned() };
        let mut vector = vec![0.01f32; self.dimensions];
        text.bytes()
            .filter(u8::is_ascii_lowercase)
            .for_each(|b| vector[usize::from(b - b'a') % self.dimensions] += 1.0);
        vector
    }
}

impl Embedder for Letters {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.requests.count();
        if let Some(word) = self.fail_on.filter(|word| texts.iter().any(|text| text.contains(word))) {
            return Err(MemoryError::EmbeddingResponse(format!("scripted failure on \"{word}\"")));
        }
        Ok(texts.iter().map(|text| self.vector(text)).collect())
    }
}

/// Fixed vectors: a text gets the vector of the first row whose key it contains, else `otherwise`.
#[derive(Debug, Clone)]
pub struct TableEmbedder {
    rows: Rc<[(String, Vec<f32>)]>,
    otherwise: Vec<f32>,
    requests: Requests,
}

impl TableEmbedder {
    pub fn new(rows: &[(&str, &[f32])], otherwise: &[f32]) -> Self {
        let rows = rows.iter().map(|(key, vector)| ((*key).to_owned(), vector.to_vec())).collect();
        Self { rows, otherwise: otherwise.to_vec(), requests: Requests::default() }
    }

    /// Requests received so far.
    pub fn requests(&self) -> usize {
        self.requests.0.get()
    }
}

impl Embedder for TableEmbedder {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.requests.count();
        let vector = |text: &String| self.rows.iter().find(|(key, _)| text.contains(key.as_str())).map(|(_, v)| v);
        Ok(texts.iter().map(|text| vector(text).unwrap_or(&self.otherwise).clone()).collect())
    }
}

/// `embedder: {provider: "none"}`: not configured, so memories have no vectors and search uses keywords;
/// a call (which should never come) is counted and fails.
#[derive(Debug, Clone, Default)]
pub struct NoEmbedder {
    requests: Requests,
}

impl NoEmbedder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Requests received so far.
    pub fn requests(&self) -> usize {
        self.requests.0.get()
    }
}

impl Embedder for NoEmbedder {
    async fn embed(&self, _: &[String]) -> Result<Vec<Vec<f32>>> {
        self.requests.count();
        Err(MemoryError::InvalidInput("no embedder".into()))
    }

    fn is_configured(&self) -> bool {
        false
    }
}
