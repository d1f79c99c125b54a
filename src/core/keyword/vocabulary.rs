//! The index's terms, numbered: documents list their terms by number and each number has its postings, so
//! indexing a text looks each of its terms up once and allocates only for a term the index never held.

use rustc_hash::FxHashMap;

use super::posting::Posting;

/// Term text → number, and each number's text and postings. A term whose last holder goes frees its
/// number for the next new term.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    numbers: FxHashMap<Box<str>, u32>,
    /// By number (a freed number's text is empty).
    entries: Vec<Entry>,
    /// Freed numbers.
    unused: Vec<u32>,
    /// The mark of the text being counted (see [`Vocabulary::count`]).
    text: u32,
}

#[derive(Debug, Default)]
struct Entry {
    term: Box<str>,
    postings: Posting,
    /// The mark of the last text that counted the term, and where it listed it.
    seen: (u32, u32),
}

impl Vocabulary {
    /// The number of `term`, given one (with no holders yet) when the index does not hold it.
    fn number_of(&mut self, term: &str) -> u32 {
        if let Some(&number) = self.numbers.get(term) {
            return number;
        }
        let entry = Entry { term: term.into(), ..Entry::default() };
        let number = match self.unused.pop() {
            Some(number) => {
                self.entries[number as usize] = entry;
                number
            }
            None => {
                self.entries.push(entry);
                (self.entries.len() - 1) as u32
            }
        };
        self.numbers.insert(term.into(), number);
        number
    }

    /// Starts counting the terms of another text.
    pub(super) fn next_text(&mut self) {
        self.text = self.text.wrapping_add(1);
    }

    /// Counts `times` occurrences of `term` in the text being read into `counts` (term number, frequency):
    /// each term listed once, in order of first appearance, found again through where it was listed (no sort).
    pub(super) fn count(&mut self, term: &str, times: u32, counts: &mut Vec<(u32, u32)>) {
        let number = self.number_of(term);
        let Some(entry) = self.entries.get_mut(number as usize) else { return };
        match counts.get_mut(entry.seen.1 as usize) {
            Some((listed, tf)) if entry.seen.0 == self.text && *listed == number => *tf = tf.saturating_add(times),
            _ => {
                entry.seen = (self.text, counts.len() as u32);
                counts.push((number, times));
            }
        }
    }

    /// The postings of `term`, when the index holds it.
    pub(super) fn postings(&self, term: &str) -> Option<&Posting> {
        Some(&self.entries.get(*self.numbers.get(term)? as usize)?.postings)
    }

    /// The postings of term `number`.
    pub(super) fn postings_mut(&mut self, number: u32) -> Option<&mut Posting> {
        Some(&mut self.entries.get_mut(number as usize)?.postings)
    }

    /// Frees term `number` when no document holds it any more.
    pub(super) fn release_if_unheld(&mut self, number: u32) {
        let Some(entry) = self.entries.get_mut(number as usize) else { return };
        if entry.postings.is_empty() && !entry.term.is_empty() {
            self.numbers.remove(&*entry.term);
            *entry = Entry::default();
            self.unused.push(number);
        }
    }

    /// How many terms the index holds.
    pub(super) fn len(&self) -> usize {
        self.numbers.len()
    }
}
