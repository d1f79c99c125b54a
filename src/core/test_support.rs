//! Test doubles for the core's unit tests: no LLM, and a deterministic letter-frequency embedder.

use super::config::Prompts;
use super::error::{MemoryError, Result};
use super::memory::MemoryEngine;
use super::storage::Storage;
use crate::providers::{Embedder, Llm};

/// No LLM: `add()` stores messages as they are.
pub struct NoLlm;

impl Llm for NoLlm {
    async fn generate(&self, _: &str, _: &str, _: bool) -> Result<String> {
        Err(MemoryError::InvalidInput("no LLM".into()))
    }
    fn is_configured(&self) -> bool {
        false
    }
}

/// Letter-frequency vectors of `.0` dimensions.
pub struct Letters(pub usize);

impl Embedder for Letters {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        Ok(texts
            .iter()
            .map(|text| {
                let mut v = vec![0.01f32; self.0];
                text.bytes().filter(u8::is_ascii_lowercase).for_each(|b| v[usize::from(b - b'a') % self.0] += 1.0);
                v
            })
            .collect())
    }
}

/// An engine over `storage` with no LLM and 26-letter vectors.
pub fn letter_engine<S: Storage>(storage: S) -> MemoryEngine<NoLlm, Letters, S> {
    MemoryEngine::new(NoLlm, Letters(26), storage, Prompts { fact_extraction: "".into(), update_decision: "".into() })
}
