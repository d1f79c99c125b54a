//! Token counts: a small estimate of OpenAI's `cl100k_base` / `o200k_base` counts (their tables would add
//! megabytes to the `.wasm`; docs/token-counting.md measures both), and [`TokenCounter`], which an app can
//! point at an exact tokenizer.

use std::rc::Rc;

/// Estimated tokens of `text` under `cl100k_base`, leaning high (`o200k_base` counts about as many for
/// English and code, fewer for other languages): the text is cut where those tokenizers cut it, and each
/// piece is priced by a rule of thumb.
///
/// - **Words** (runs of letters, cut again at camelCase humps): 1 token up to 7 letters, 1 more per 4
///   further letters up to 12, then 1 per 3; a run of capitals 1 per 3 letters; an accented Latin letter
///   (or one of most other scripts) 1 more, a Greek or Cyrillic one ½ more.
/// - **Digits**: 1 per group of up to 3. **Chinese, Japanese, Korean**: 1¼ per character.
/// - **Punctuation**: 1 per 3 ASCII characters of a run; 1 per other symbol, 3 per emoji.
/// - **Whitespace**: a space before a word or symbol is part of it; line breaks 1 per 2, other runs 1 per 8.
///
/// No piece spans a line break, so texts that end in one cost, joined, at most the sum of their costs.
pub fn estimate_tokens(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let mut total = 0;
    let mut i = 0;
    while i < chars.len() {
        let kind = kind(chars[i]);
        let end = i + chars[i..].iter().take_while(|&&c| self::kind(c) == kind).count();
        let run = &chars[i..end];
        total += match kind {
            Kind::Space => spaces(run, chars.get(end).map(|&c| self::kind(c))),
            Kind::Letter => word(run),
            Kind::Digit => run.len().div_ceil(3),
            Kind::Wide => (run.len() * 5).div_ceil(4),
            Kind::Symbol => symbols(run),
        };
        i = end;
    }
    total
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Space,
    Letter,
    Digit,
    /// Han, kana and Hangul: no spaces between words, about a token a character.
    Wide,
    Symbol,
}

fn kind(c: char) -> Kind {
    if c.is_whitespace() {
        Kind::Space
    } else if c.is_numeric() {
        Kind::Digit
    } else if matches!(c as u32, 0x1100..=0x11FF | 0x3040..=0x30FF | 0x3130..=0x318F | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
    {
        Kind::Wide
    } else if c.is_alphabetic() || is_mark(c) {
        Kind::Letter
    } else {
        Kind::Symbol
    }
}

/// Combining marks, which belong to the letter before them.
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05C7 | 0x0610..=0x061A | 0x064B..=0x065F
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// A run of letters: the sum of its camelCase parts (`getUserID` → `get`, `User`, `ID`; `HTTPServer` →
/// `HTTP`, `Server`).
fn word(run: &[char]) -> usize {
    let mut total = 0;
    let mut start = 0;
    for i in 1..run.len() {
        let (before, here) = (run[i - 1], run[i]);
        let hump = before.is_lowercase() && here.is_uppercase();
        let acronym_ends =
            before.is_uppercase() && here.is_uppercase() && run.get(i + 1).is_some_and(|c| c.is_lowercase());
        if hump || acronym_ends {
            total += part(&run[start..i]);
            start = i;
        }
    }
    total + part(&run[start..])
}

/// One part of a word: its ASCII letters by length, plus its other letters by script; at least 1.
fn part(letters: &[char]) -> usize {
    let ascii = letters.iter().filter(|c| c.is_ascii()).count();
    let capitals = ascii >= 2 && !letters.iter().any(|c| c.is_lowercase());
    let base = match ascii {
        0 => 0,
        _ if capitals => ascii.div_ceil(3),
        1..=7 => 1,
        8..=12 => 1 + (ascii - 7).div_ceil(4),
        _ => 3 + (ascii - 12).div_ceil(3),
    };
    let quarters: usize = letters.iter().filter(|c| !c.is_ascii()).map(|&c| letter_quarters(c)).sum();
    (base + quarters.div_ceil(4)).max(1)
}

/// Quarter tokens of a non-ASCII letter: Greek and Cyrillic share many tokens, other scripts few.
fn letter_quarters(c: char) -> usize {
    match c as u32 {
        0x0370..=0x052F => 2,
        _ => 4,
    }
}

/// A run of punctuation and symbols: ASCII ones 3 a token, other symbols 1 each, emoji 3 each.
fn symbols(run: &[char]) -> usize {
    let ascii = run.iter().filter(|c| c.is_ascii()).count();
    let other: usize = run.iter().filter(|c| !c.is_ascii()).map(|&c| if c as u32 > 0xFFFF { 3 } else { 1 }).sum();
    ascii.div_ceil(3) + other
}

/// A run of whitespace followed by `next`: line breaks 1 per 2; the spaces after the last one 1 per 8, the
/// last space free before a word or symbol (the tokenizers make it part of that token).
fn spaces(run: &[char], next: Option<Kind>) -> usize {
    let is_break = |c: &char| *c == '\n' || *c == '\r';
    let breaks = run.iter().filter(|c| is_break(c)).count();
    let after = run.len() - run.iter().rposition(is_break).map_or(0, |p| p + 1);
    let folded = usize::from(after > 0 && matches!(next, Some(Kind::Letter | Kind::Wide | Kind::Symbol)));
    breaks.div_ceil(2) + (after - folded).div_ceil(8)
}

/// How the memory counts tokens: [`estimate_tokens`] by default, or an exact tokenizer the app supplies
/// (e.g. `js-tiktoken` for its model).
#[derive(Clone, Default)]
pub struct TokenCounter(Option<Count>);

/// An injected tokenizer: tokens of a text.
type Count = Rc<dyn Fn(&str) -> usize>;

impl std::fmt::Debug for TokenCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "TokenCounter(injected)" } else { "TokenCounter(estimate)" })
    }
}

impl TokenCounter {
    /// A counter that asks `count`.
    pub fn from_fn(count: impl Fn(&str) -> usize + 'static) -> Self {
        Self(Some(Rc::new(count)))
    }

    /// Tokens of `text`.
    pub fn count(&self, text: &str) -> usize {
        match &self.0 {
            Some(count) => count(text),
            None => estimate_tokens(text),
        }
    }
}

#[cfg(test)]
#[path = "tokens_tests.rs"]
mod tests;
