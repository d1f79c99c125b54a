//! The keyword index's corpus statistics per exact scope, kept as documents are written: a search over a
//! scope adds up the tallies of the scopes it contains instead of visiting every document.

use rustc_hash::FxHashMap;

use crate::core::model::scope::Scope;

/// What the documents of one exact scope add to the statistics.
#[derive(Debug, Default, Clone, Copy)]
struct ScopeTally {
    docs: usize,
    /// Terms of all its documents.
    len: u64,
    /// Terms of its conversation turns (each turn but the last is the context of the next).
    turn_len: u64,
}

/// The tallies of every scope, and how many documents were written without one. A scope's tally stays
/// (at zero) once its last document is gone.
#[derive(Debug, Default)]
pub struct ScopeTallies {
    /// The position of each scope's tally in `tallies`.
    ids: FxHashMap<Scope, u32>,
    tallies: Vec<(Scope, ScopeTally)>,
    unscoped: usize,
}

impl ScopeTallies {
    /// Counts a document of `len` terms in (`add`) or out of its scope's tally; returns the scope's number.
    pub fn count(&mut self, scope: Option<&Scope>, len: u32, turn: bool, add: bool) -> Option<u32> {
        let Some(scope) = scope else {
            self.unscoped = if add { self.unscoped + 1 } else { self.unscoped.saturating_sub(1) };
            return None;
        };
        let id = match self.ids.get(scope) {
            Some(id) => *id as usize,
            None => {
                self.ids.insert(scope.clone(), self.tallies.len() as u32);
                self.tallies.push((scope.clone(), ScopeTally::default()));
                self.tallies.len() - 1
            }
        };
        let tally = &mut self.tallies[id].1;
        let (len, turn_len) = (u64::from(len), if turn { u64::from(len) } else { 0 });
        if add {
            (tally.docs, tally.len, tally.turn_len) = (tally.docs + 1, tally.len + len, tally.turn_len + turn_len);
        } else {
            tally.docs = tally.docs.saturating_sub(1);
            tally.len = tally.len.saturating_sub(len);
            tally.turn_len = tally.turn_len.saturating_sub(turn_len);
        }
        Some(id as u32)
    }

    /// For each scope number, whether `scope` contains that scope: one look-up per document instead of
    /// comparing scopes.
    pub fn contained_in(&self, scope: &Scope) -> Vec<bool> {
        self.tallies.iter().map(|(exact, _)| scope.contains(exact)).collect()
    }

    /// True when every document was counted with its scope.
    pub fn cover_every_document(&self) -> bool {
        self.unscoped == 0
    }

    /// The document count and total length of the documents whose scope `scope` contains, each turn's
    /// context (the turn before it, `context_share` of its length) included: every turn of a conversation
    /// but its last (`last_turn` gives its length) is the context of the next.
    pub fn statistics(&self, scope: &Scope, context_share: f64, last_turn: &dyn Fn(&Scope) -> u32) -> (usize, f64) {
        let (mut count, mut total) = (0usize, 0.0);
        for (exact, tally) in self.tallies.iter().filter(|(exact, _)| scope.contains(exact)) {
            count += tally.docs;
            let context = match tally.turn_len {
                0 => 0,
                turns => turns.saturating_sub(u64::from(last_turn(exact))),
            };
            total += tally.len as f64 + context_share * context as f64;
        }
        (count, total)
    }
}
