//! Importance at write time: `0.6 · novelty + 0.4 · salience`, in [0, 1].
//!
//! - **Novelty** is the cosine distance between the new memory's embedding and the centroid (mean) of the
//!   scope's existing embeddings, clamped to [0, 1]; 1.0 when the scope has none (or no vectors at all).
//! - **Salience** adds up content signals, at most 1.0: a named entity +0.3, a number or date +0.2, a
//!   preference +0.4, a rare technical term +0.1. The heuristics, with no model behind them:
//!   - *named entity*: a capitalised word that does not start a sentence ("works at Acme", "lives in
//!     Berlin"), other than `I` and `User`;
//!   - *number or date*: a digit, or a month or weekday name;
//!   - *preference*: see `memory_type::is_preference`;
//!   - *rare technical term*: a word shaped like an identifier rather than English: letters mixed with
//!     digits (`gpt4o`, `ES2022`), inner capitals (`PostgreSQL`, `FastAPI`), `_` `.` `::` `/` between
//!     letters (`snake_case`, `node.js`), an acronym of 2–6 capitals (`SQL`), or a word of 14+ letters.

use crate::core::case::CaseExt;
use crate::core::model::memory_type::is_preference;
use crate::core::query_time::{MONTHS, WEEKDAYS};

/// Weight of novelty in importance.
pub const NOVELTY_WEIGHT: f64 = 0.6;
/// Weight of salience in importance.
pub const SALIENCE_WEIGHT: f64 = 0.4;

/// `0.6 · novelty + 0.4 · salience`, clamped to [0, 1] and rounded to 4 decimals (so it survives a JSON
/// round trip exactly).
pub fn importance(novelty: f64, salience: f64) -> f64 {
    round4((NOVELTY_WEIGHT * novelty + SALIENCE_WEIGHT * salience).clamp(0.0, 1.0))
}

/// `value` rounded to 4 decimals.
pub fn round4(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}

pub use crate::core::vector_store::centroid;

/// Cosine distance of `vector` from `centroid`, clamped to [0, 1]; 1.0 without a centroid (an empty scope),
/// without a vector, or for a zero centroid.
pub fn novelty(vector: Option<&[f32]>, centroid: Option<&[f64]>) -> f64 {
    let (Some(vector), Some(centroid)) = (vector, centroid) else { return 1.0 };
    let dot: f64 = vector.iter().zip(centroid).map(|(x, c)| f64::from(*x) * c).sum();
    let norm = |squares: f64| squares.sqrt();
    let (a, b) = (norm(vector.iter().map(|x| f64::from(*x).powi(2)).sum()), norm(centroid.iter().map(|c| c * c).sum()));
    if a == 0.0 || b == 0.0 || !dot.is_finite() {
        return 1.0;
    }
    (1.0 - dot / (a * b)).clamp(0.0, 1.0)
}

/// The salience signals of `text`, summed and capped at 1.0.
pub fn salience(text: &str) -> f64 {
    let signals = [
        (has_named_entity(text), 0.3),
        (has_number_or_date(text), 0.2),
        (is_preference(text), 0.4),
        (has_technical_term(text), 0.1),
    ];
    signals.iter().filter(|(present, _)| *present).map(|(_, weight)| weight).sum::<f64>().min(1.0)
}

/// Words of `text` with the punctuation around them trimmed, and whether each starts a sentence.
fn words(text: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut starts = true;
    text.split_whitespace().map(move |raw| {
        let starts_here = starts;
        starts = raw.ends_with(['.', '!', '?', ':', ';']) || raw.ends_with(".\"");
        (raw.trim_matches(|c: char| !c.is_alphanumeric()), starts_here)
    })
}

const NOT_ENTITIES: &[&str] = &["I", "I'm", "I've", "I'd", "I'll", "User", "User's", "The", "A", "An"];

fn has_named_entity(text: &str) -> bool {
    words(text).any(|(word, starts_sentence)| {
        let mut chars = word.chars();
        let capitalised = chars.next().is_some_and(char::is_uppercase);
        capitalised && !starts_sentence && !NOT_ENTITIES.contains(&word)
    })
}

fn has_number_or_date(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
        || words(text).any(|(word, _)| {
            let word = word.lowercased();
            MONTHS.contains(&word.as_str()) || WEEKDAYS.contains(&word.as_str())
        })
}

fn is_technical(word: &str) -> bool {
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let has_digit = word.chars().any(|c| c.is_ascii_digit());
    let inner_capital =
        word.chars().skip(1).zip(word.chars()).any(|(c, before)| c.is_uppercase() && before.is_lowercase());
    let joined = ["_", ".", "::", "/"]
        .iter()
        .any(|joint| word.split(joint).filter(|part| part.chars().any(char::is_alphabetic)).count() > 1);
    let acronym = (2..=6).contains(&letters) && word.chars().all(|c| c.is_uppercase() || c.is_ascii_digit());
    (letters > 0 && has_digit) || inner_capital || joined || acronym || letters >= 14
}

fn has_technical_term(text: &str) -> bool {
    text.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_')).any(is_technical)
}

#[cfg(test)]
#[path = "importance_tests.rs"]
mod tests;
