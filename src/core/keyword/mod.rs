//! Keyword search without an external engine: a Unicode-aware tokenizer and a BM25 inverted index
//! kept beside the vector index.

mod bm25;
#[cfg(test)]
mod bm25_tests;
mod counted;
mod normalize;
mod scope_tally;
mod tokenizer;
#[cfg(test)]
mod top_k_tests;
mod turns;

pub use bm25::{IdPredicate, KeywordIndex, KeywordQuery, B, K1};
pub use counted::CountedTexts;
pub use normalize::{nfc, set_normalizer, Normalizer};
pub use tokenizer::{is_stop_word, tokenize};
pub use turns::{Around, Neighbours};
