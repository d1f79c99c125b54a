//! The documents holding one term, and what top-k ranking needs to know of them without a visit: how many
//! hold it in each scope (a search's document frequency is the sum over the scopes it covers), and bounds
//! of their frequencies and lengths. At 100,000 memories a common term is held by tens of thousands of
//! documents, and reading those figures from the postings cost a fused search as much as its ranking did.

use std::ops::Deref;

use rustc_hash::FxHashMap;

/// A term's postings (slot → frequency in that document's text) with its tallies.
#[derive(Debug, Default)]
pub(super) struct Posting {
    slots: FxHashMap<u32, u32>,
    /// Scope number → how many documents of that scope hold the term (documents of a known scope only),
    /// sorted by scope number: most terms are held in one scope or a few.
    by_scope: Vec<(u32, u32)>,
    /// The highest frequency and the shortest length of any document that held the term since it was
    /// first indexed: bounds, loosened by no removal, that stay true of every holder.
    most: u32,
    shortest: u32,
}

impl Deref for Posting {
    type Target = FxHashMap<u32, u32>;

    fn deref(&self) -> &Self::Target {
        &self.slots
    }
}

impl Posting {
    /// Notes that the document in `slot`, of `len` terms and scope number `scope`, holds the term `tf`
    /// times (it did not before).
    pub(super) fn add(&mut self, slot: u32, (tf, len): (u32, u32), scope: Option<u32>) {
        if self.slots.is_empty() {
            self.shortest = u32::MAX;
        }
        self.slots.insert(slot, tf);
        if let Some(scope) = scope {
            match self.by_scope.binary_search_by_key(&scope, |&(number, _)| number) {
                Ok(at) => self.by_scope[at].1 += 1,
                Err(at) => self.by_scope.insert(at, (scope, 1)),
            }
        }
        (self.most, self.shortest) = (self.most.max(tf), self.shortest.min(len));
    }

    /// Notes that the document in `slot`, of scope number `scope`, no longer holds the term.
    pub(super) fn remove(&mut self, slot: u32, scope: Option<u32>) {
        if self.slots.remove(&slot).is_none() {
            return;
        }
        let at = scope.and_then(|scope| self.by_scope.binary_search_by_key(&scope, |&(number, _)| number).ok());
        if let Some((_, count)) = at.and_then(|at| self.by_scope.get_mut(at)) {
            *count = count.saturating_sub(1);
        }
    }

    /// How many documents hold the term in the scopes `contained` marks (by scope number), and the bounds
    /// of their frequencies and lengths (`most`, `shortest`). Exact when every holder's scope is known.
    pub(super) fn tally(&self, contained: &[bool]) -> (usize, u32, u32) {
        let inside = |scope: &u32| contained.get(*scope as usize).copied().unwrap_or(false);
        let holders = self.by_scope.iter().filter(|(scope, _)| inside(scope)).map(|(_, count)| *count as usize);
        (holders.sum(), self.most, self.shortest)
    }
}
