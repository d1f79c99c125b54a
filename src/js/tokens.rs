//! `countTokens(text)`: the library's token estimate, the one every budget uses unless the config's
//! `countTokens` callback supplies an exact tokenizer (see docs/token-counting.md).

use wasm_bindgen::prelude::*;

use crate::core::tokens::estimate_tokens;

/// Estimated tokens of `text` for OpenAI-family models (cl100k / o200k), leaning towards over-counting.
#[wasm_bindgen(js_name = countTokens)]
pub fn count_tokens(text: &str) -> usize {
    estimate_tokens(text)
}
