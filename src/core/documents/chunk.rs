//! Step 2 of ingestion: semantic chunking of a cleaned text, with no fixed sizes.
//!
//! 1. **Paragraphs.** The text is split at blank lines, except inside fenced code blocks, whose blank
//!    lines split nothing.
//! 2. **Long paragraphs** (over [`MAX_CHUNK_TOKENS`]) are split between sentences (see `sentences`); a
//!    code block inside one is a single unit. The paragraph is cut into about `⌈tokens / 300⌉` pieces of
//!    similar size (sentences are added to a piece until it reaches that share, and a piece never grows
//!    past 300 by taking another sentence), so no tiny remainder is left at its end.
//! 3. **Short chunks** (under [`MIN_CHUNK_TOKENS`]) are merged, left to right, with the neighbour that gives
//!    the smaller merged chunk (the next one on a tie: a heading belongs to what follows it), as long as the
//!    merged chunk stays within 300 tokens; a merged chunk still under 50 tokens is merged again.
//!
//! So chunks are 50 to 300 tokens, except: a text of under 50 tokens is one chunk; a short chunk between
//! two neighbours too big to take it stays short; a code block, or a sentence, longer than 300 tokens is
//! one chunk of its own. A chunk is a slice of the cleaned text, separators included (`\n\n` between merged
//! paragraphs). Tokens are counted by the memory's counter: an injected `countTokens`, else the library's
//! estimate of `cl100k_base` counts, [`estimate_tokens`].

use super::fence::{classify, Line};
use super::sentences::sentences;
use crate::core::tokens::estimate_tokens;

/// Paragraphs longer than this are split at sentences.
pub const MAX_CHUNK_TOKENS: usize = 300;
/// Chunks shorter than this are merged with a neighbour.
pub const MIN_CHUNK_TOKENS: usize = 50;

/// One chunk of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub text: String,
    /// Tokens of `text`, by the counter that chunked it.
    pub tokens: usize,
}

/// A byte range of the cleaned text.
type Span = (usize, usize);

/// A token counter: the memory's (an injected `countTokens`, else [`estimate_tokens`]).
pub type Count<'a> = &'a dyn Fn(&str) -> usize;

/// The chunks of `text`, a text cleaned by `clean`, in order, sized by [`estimate_tokens`].
pub fn chunk(text: &str) -> Vec<Chunk> {
    chunk_counted(text, &estimate_tokens)
}

/// The chunks of `text`, sized by `count`.
pub fn chunk_counted(text: &str, count: Count) -> Vec<Chunk> {
    let tokens = |(start, end): Span| count(&text[start..end]);
    let spans = paragraphs(text).iter().flat_map(|atoms| split_long(atoms, &tokens)).collect();
    let spans = merge_short(spans, &tokens);
    spans.into_iter().map(|span| Chunk { text: text[span.0..span.1].to_owned(), tokens: tokens(span) }).collect()
}

/// The paragraphs of `text`, each as its atoms: the sentences of its prose and its code blocks, whole.
fn paragraphs(text: &str) -> Vec<Vec<Span>> {
    let mut paragraphs = Vec::new();
    let mut atoms: Vec<Span> = Vec::new();
    let mut run: Option<(Line, Span)> = None;
    let flush = |run: &mut Option<(Line, Span)>, atoms: &mut Vec<Span>| match run.take() {
        Some((Line::Text, (start, end))) => {
            atoms.extend(sentences(&text[start..end]).into_iter().map(|(a, b)| (start + a, start + b)));
        }
        Some((_, span)) => atoms.push(span),
        None => {}
    };
    let mut offset = 0;
    for (line, kind) in classify(text) {
        let span = (offset, offset + line.len());
        offset = span.1 + 1;
        if kind == Line::Blank {
            flush(&mut run, &mut atoms);
            if !atoms.is_empty() {
                paragraphs.push(std::mem::take(&mut atoms));
            }
            continue;
        }
        match &mut run {
            Some((held, held_span)) if *held == kind => held_span.1 = span.1,
            _ => {
                flush(&mut run, &mut atoms);
                run = Some((kind, span));
            }
        }
    }
    flush(&mut run, &mut atoms);
    if !atoms.is_empty() {
        paragraphs.push(atoms);
    }
    paragraphs
}

/// A paragraph (its `atoms`) as one span, or cut between atoms into pieces of similar size when it is
/// longer than `MAX_CHUNK_TOKENS`.
fn split_long(atoms: &[Span], tokens: &dyn Fn(Span) -> usize) -> Vec<Span> {
    let whole = (atoms[0].0, atoms[atoms.len() - 1].1);
    let total = tokens(whole);
    if total <= MAX_CHUNK_TOKENS || atoms.len() == 1 {
        return vec![whole];
    }
    let share = total.div_ceil(total.div_ceil(MAX_CHUNK_TOKENS));
    let mut pieces = Vec::new();
    let mut current: Option<Span> = None;
    for &atom in atoms {
        current = match current {
            Some(piece) if tokens((piece.0, atom.1)) > MAX_CHUNK_TOKENS => {
                pieces.push(piece);
                Some(atom)
            }
            Some(piece) => Some((piece.0, atom.1)),
            None => Some(atom),
        };
        if let Some(piece) = current.filter(|piece| tokens(*piece) >= share) {
            pieces.push(piece);
            current = None;
        }
    }
    pieces.extend(current);
    pieces
}

/// `spans` with each one under `MIN_CHUNK_TOKENS` merged into a neighbour while the result fits.
fn merge_short(mut spans: Vec<Span>, tokens: &dyn Fn(Span) -> usize) -> Vec<Span> {
    let fits = |a: Span, b: Span| Some(tokens((a.0, b.1))).filter(|merged| *merged <= MAX_CHUNK_TOKENS);
    let mut i = 0;
    while i < spans.len() {
        if spans.len() < 2 || tokens(spans[i]) >= MIN_CHUNK_TOKENS {
            i += 1;
            continue;
        }
        let before = i.checked_sub(1).and_then(|p| fits(spans[p], spans[i]));
        let after = spans.get(i + 1).and_then(|next| fits(spans[i], *next));
        match (before, after) {
            (Some(before), Some(after)) if before < after => {
                spans[i - 1].1 = spans.remove(i).1;
                i -= 1;
            }
            (_, Some(_)) => spans[i].1 = spans.remove(i + 1).1,
            (Some(_), None) => {
                spans[i - 1].1 = spans.remove(i).1;
                i -= 1;
            }
            (None, None) => i += 1,
        }
    }
    spans
}

#[cfg(test)]
#[path = "chunk_tests.rs"]
mod tests;
