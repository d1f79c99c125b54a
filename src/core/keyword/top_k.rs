//! Top-k BM25 ranking that skips the documents that cannot make the top (MaxScore, term at a time). Each
//! query term gets an upper bound of its part of any document's score, from its highest frequency and its
//! shortest holder in the corpus (a turn's context counted). The terms are visited from the highest bound
//! down; a document first met in a term's list can score at most its part from that term plus the bounds of
//! the terms visited after it (without turns, those bounds taken at its own length, which ranking reads
//! from the index's packed shapes), and only one that could still enter the `limit` best passing `keep` is
//! scored in full, by looking its other terms up. Once those best outscore the bounds of the terms left,
//! the visit ends. The list is the one scoring every holder gives: same documents, order and scores (each
//! document's parts are summed in term order, as there).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::posting::Posting;
use super::rank::{idf, Query, Term, Work};
use super::{Doc, IdPredicate, Terms, CONTEXT_SHARE};

/// How far a document's computed score may stray above the sum of its terms' bounds by rounding (relative).
const ROUNDING: f64 = 1e-9;

/// A scored document; the greater of two ranks after the other (lower score, or equal and newer).
struct Ranked {
    score: f64,
    seq: u64,
    slot: u32,
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        other.score.total_cmp(&self.score).then(self.seq.cmp(&other.seq))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

impl<'a> Query<'a, '_> {
    /// Calls `visit` with the slot of each document holding the term of `postings` and the term's frequency
    /// in its text (0: a turn that has the term only from the turn before), as long as `visit` returns true.
    fn holders(&self, postings: &FxHashMap<u32, u32>, visit: &mut impl FnMut(u32, u32) -> bool) {
        for (&slot, &tf) in postings {
            if !self.in_corpus_at(slot) {
                continue;
            }
            if !visit(slot, tf) {
                return;
            }
            let after = match self.turns {
                true => self.index.live(slot).and_then(|doc| self.after(doc)),
                false => None,
            };
            let Some(after) = after.filter(|after| self.index.live(*after).is_some()) else { continue };
            let own = postings.contains_key(&after) && self.in_corpus_at(after);
            if !own && !visit(after, 0) {
                return;
            }
        }
    }

    /// Each query term's weight and bound, in term order: one walk of its postings, which the ranking and
    /// the scores of a fused search share.
    pub(super) fn terms(&self) -> Vec<Term<'a>> {
        self.postings.iter().map(|&postings| self.term(postings)).collect()
    }

    /// The term's weight and bound: its documents are counted, their highest frequency and shortest length
    /// noted.
    fn term<'p>(&self, postings: &'p Posting) -> Term<'p> {
        let (holders, most, shortest) = self.tally(postings).unwrap_or_else(|| {
            let (mut holders, mut most, mut shortest) = (0usize, 0u32, u32::MAX);
            self.holders(postings, &mut |slot, tf| {
                holders += 1;
                if tf > 0 {
                    let len = self.index.shapes.get(slot as usize).map_or(0, |shape| shape.0);
                    (most, shortest) = (most.max(tf), shortest.min(len));
                }
                true
            });
            (holders, most, shortest)
        });
        let idf = idf(self.count, holders);
        // A holder's frequency counts its context's (at most `most` too); its length with its context is at
        // least its own. A turn holding the term only as context scores at most a share of its context's part.
        let tf = f64::from(most) * if self.turns { 1.0 + CONTEXT_SHARE } else { 1.0 };
        Term { postings, idf, bound: self.bm25(idf, tf, f64::from(shortest.max(1))), most: tf }
    }

    /// At most the score of the document in `slot`, which holds `term` `tf` times in its own text and may
    /// hold `later` (the terms visited after it), given that the `left` of those bound their parts. Without
    /// turns its parts are those of its own length.
    fn most(&self, (term, tf): (&Term, u32), slot: u32, (later, left): (&[&Term], f64)) -> f64 {
        let Some(len) = self.index.shapes.get(slot as usize).map(|shape| f64::from(shape.0)).filter(|_| !self.turns)
        else {
            return term.bound + left;
        };
        let later: f64 = later.iter().map(|term| self.bm25(term.idf, term.most, len)).sum();
        self.bm25(term.idf, f64::from(tf), len) + later
    }

    /// The score of `doc`, a document of the corpus: each term's part summed in term order.
    fn score(&self, terms: &[Term], (slot, doc): (u32, &Doc)) -> f64 {
        let doc_len = self.len(doc);
        let own = self.in_corpus(doc);
        let before = self.before(doc).filter(|(_, said)| self.in_corpus(said)).map(|(b, _)| b);
        let mut score = 0.0;
        for term in terms {
            let look_up = |slot: u32| term.postings.get(&slot).copied().unwrap_or(0);
            let (own_tf, before_tf) = (look_up(slot), before.map_or(0, look_up));
            if (own && own_tf > 0) || before_tf > 0 {
                let tf = |at: u32| match at {
                    _ if at == slot => own_tf,
                    _ if Some(at) == before => before_tf,
                    _ => look_up(at),
                };
                score += self.part(term.idf, &tf, (slot, doc), doc_len);
            }
        }
        score
    }
}

impl Terms {
    /// For each of `ids` in the corpus, its score (the one either ranking would give it; 0 when it holds no
    /// query term, itself or, for a turn, in its context) and the index's copy of its id; `None` for the
    /// others. In `ids`' order; `terms` are the query's (`Query::terms`).
    pub(super) fn score_each<'a>(
        &'a self,
        query: &Query<'a, '_>,
        terms: &[Term],
        ids: &[&str],
    ) -> Vec<Option<(f64, &'a str)>> {
        // The slots first, in a loop of look-ups alone: each waits on memory, and without the scoring in
        // between the processor overlaps several (1,000 look-ups among 100,000 memories: about a third
        // less time than in one loop with the scoring).
        let slots: Vec<Option<u32>> = ids.iter().map(|id| self.slots.get(*id).copied()).collect();
        let score = |slot: u32| {
            let doc = self.live(slot).filter(|doc| query.in_corpus(doc))?;
            Some((query.score(terms, (slot, doc)), doc.id.as_str()))
        };
        slots.into_iter().map(|slot| score(slot?)).collect()
    }

    /// The `limit` best documents passing `keep`, best first, scoring only those that can be among them;
    /// `terms` are the query's (`Query::terms`).
    pub(super) fn rank_top<'a>(
        &'a self,
        (query, terms): (&Query<'a, '_>, &[Term]),
        limit: usize,
        keep: IdPredicate,
        work: &mut Work,
    ) -> Vec<(f64, &'a str)> {
        let mut visit: Vec<usize> = (0..terms.len()).collect();
        crate::core::sort::sort_by(&mut visit, |a, b| terms[*b].bound.total_cmp(&terms[*a].bound));
        // What the terms from each step of the visit on can add to a score, at most.
        let mut left: Vec<f64> = visit
            .iter()
            .rev()
            .scan(0.0, |sum, t| {
                *sum += terms[*t].bound;
                Some(*sum)
            })
            .collect();
        left.reverse();
        left.push(0.0);
        let ordered: Vec<&Term> = visit.iter().map(|t| &terms[*t]).collect();
        let mut best: BinaryHeap<Ranked> = BinaryHeap::with_capacity(limit.min(1024));
        for (step, &t) in visit.iter().enumerate() {
            let mut open = true;
            query.holders(terms[t].postings, &mut |slot, tf| {
                let floor = best.peek().filter(|_| best.len() == limit).map(|worst| worst.score);
                let beaten = |most: f64| floor.is_some_and(|floor| most * (1.0 + ROUNDING) < floor);
                if beaten(left[step]) {
                    open = false;
                    return false;
                }
                if work.marked(slot) {
                    return true;
                }
                // Met first here: the terms visited before are not in it. Once passed over, it never could enter.
                work.mark(slot, 1);
                if beaten(query.most((&terms[t], tf), slot, (&ordered[step + 1..], left[step + 1]))) {
                    return true;
                }
                let Some(doc) = self.live(slot) else { return true };
                work.scored.push(slot);
                let ranked = Ranked { score: query.score(terms, (slot, doc)), seq: doc.seq, slot };
                let enters = best.len() < limit || best.peek().is_some_and(|worst| ranked < *worst);
                if enters && keep(&doc.id) {
                    if best.len() < limit {
                        best.push(ranked);
                    } else if let Some(mut worst) = best.peek_mut() {
                        *worst = ranked;
                    }
                }
                true
            });
            if !open {
                break;
            }
        }
        let ranked = best.into_sorted_vec().into_iter();
        ranked.filter_map(|r| Some((r.score, self.live(r.slot)?.id.as_str()))).collect()
    }
}
