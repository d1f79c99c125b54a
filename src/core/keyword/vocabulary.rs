//! The index's terms, numbered: documents list their terms by number and each number has its postings, so
//! indexing a text looks each of its terms up once and allocates only for a term the index never held.

use rustc_hash::FxHashMap;

use super::posting::Posting;

/// Term text → number, and each number's text and postings. A term whose last holder goes frees its
/// number for the next new term.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    numbers: FxHashMap<Box<str>, u32>,
    /// By number: the term's text and its postings (a freed number's text is empty).
    entries: Vec<(Box<str>, Posting)>,
    /// Freed numbers.
    unused: Vec<u32>,
}

impl Vocabulary {
    /// The number of `term`, given one (with no holders yet) when the index does not hold it.
    pub(super) fn number_of(&mut self, term: &str) -> u32 {
        if let Some(&number) = self.numbers.get(term) {
            return number;
        }
        let number = match self.unused.pop() {
            Some(number) => {
                self.entries[number as usize] = (term.into(), Posting::default());
                number
            }
            None => {
                self.entries.push((term.into(), Posting::default()));
                (self.entries.len() - 1) as u32
            }
        };
        self.numbers.insert(term.into(), number);
        number
    }

    /// The postings of `term`, when the index holds it.
    pub(super) fn postings(&self, term: &str) -> Option<&Posting> {
        Some(&self.entries.get(*self.numbers.get(term)? as usize)?.1)
    }

    /// The postings of term `number`.
    pub(super) fn postings_mut(&mut self, number: u32) -> Option<&mut Posting> {
        Some(&mut self.entries.get_mut(number as usize)?.1)
    }

    /// Frees term `number` when no document holds it any more.
    pub(super) fn release_if_unheld(&mut self, number: u32) {
        let Some((term, posting)) = self.entries.get_mut(number as usize) else { return };
        if posting.is_empty() && !term.is_empty() {
            self.numbers.remove(&**term);
            *term = Box::default();
            self.unused.push(number);
        }
    }

    /// How many terms the index holds.
    pub(super) fn len(&self) -> usize {
        self.numbers.len()
    }
}
