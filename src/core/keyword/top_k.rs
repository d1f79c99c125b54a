//! Top-k BM25 ranking that skips the documents that cannot make the top (MaxScore, term at a time). Each
//! query term gets an upper bound of its part of any document's score, from its highest frequency and its
//! shortest holder in the corpus (a turn's context included). The terms are visited from the highest bound
//! down, and each document first met is scored in full, by looking its other terms up; once the `limit`
//! best that pass `keep` score more than the bounds of the terms left to visit add up to, no document met
//! from then on could enter them, and the search ends. The list is the one scoring every holder gives:
//! same documents, order and scores (each document's parts are summed in term order, as there).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::rank::{idf, Query, Work};
use super::{Doc, IdPredicate, Terms, CONTEXT_SHARE};

/// How far a document's computed score may stray above the sum of its terms' bounds by rounding (relative).
const ROUNDING: f64 = 1e-9;

/// What the search keeps of one query term.
struct Term<'a> {
    postings: &'a FxHashMap<u32, u32>,
    idf: f64,
    /// No document's part from this term exceeds it.
    bound: f64,
}

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
    /// Calls `visit` with each document holding the term of `postings` (its text has the term, or it is the
    /// turn after one that has it), as long as `visit` returns true.
    fn holders(&self, postings: &FxHashMap<u32, u32>, visit: &mut impl FnMut(u32, &'a Doc, u32) -> bool) {
        for (&slot, &tf) in postings {
            let Some(doc) = self.index.live(slot).filter(|doc| self.in_corpus(doc)) else { continue };
            if !visit(slot, doc, tf) {
                return;
            }
            if !self.turns {
                continue;
            }
            let Some((after, next)) = self.after(doc).and_then(|s| Some((s, self.index.live(s)?))) else { continue };
            let own = postings.contains_key(&after) && self.in_corpus(next);
            if !own && !visit(after, next, 0) {
                return;
            }
        }
    }

    /// The term's weight and bound: its documents are counted, their highest frequency and shortest length
    /// noted.
    fn term(&self, postings: &'a FxHashMap<u32, u32>) -> Term<'a> {
        let (mut holders, mut most, mut shortest) = (0usize, 0u32, u32::MAX);
        self.holders(postings, &mut |_, doc, tf| {
            holders += 1;
            if tf > 0 {
                (most, shortest) = (most.max(tf), shortest.min(doc.len));
            }
            true
        });
        let idf = idf(self.count, holders);
        // A holder's frequency counts its context's (at most `most` too); its length with its context is at
        // least its own. A turn holding the term only as context scores at most a share of its context's part.
        let tf = f64::from(most) * if self.turns { 1.0 + CONTEXT_SHARE } else { 1.0 };
        Term { postings, idf, bound: self.bm25(idf, tf, f64::from(shortest.max(1))) }
    }

    /// The score of `doc`, a document of the corpus: each term's part summed in term order.
    fn score(&self, terms: &[Term], (slot, doc): (u32, &Doc)) -> f64 {
        let doc_len = self.len(doc);
        let own = self.in_corpus(doc);
        let before = self.before(doc).filter(|(_, said)| self.in_corpus(said));
        let mut score = 0.0;
        for term in terms {
            let tf = |slot: u32| term.postings.get(&slot).copied().unwrap_or(0);
            let holds = (own && tf(slot) > 0) || before.is_some_and(|(b, _)| tf(b) > 0);
            if holds {
                score += self.part(term.idf, &tf, (slot, doc), doc_len);
            }
        }
        score
    }
}

impl Terms {
    /// The `limit` best documents passing `keep`, best first, scoring only those that can be among them.
    pub(super) fn rank_top<'a>(
        &'a self,
        query: &Query<'a, '_>,
        limit: usize,
        keep: IdPredicate,
        work: &mut Work,
    ) -> Vec<(f64, &'a str)> {
        let terms: Vec<Term> = query.postings.iter().map(|postings| query.term(postings)).collect();
        let mut visit: Vec<usize> = (0..terms.len()).collect();
        crate::core::sort::sort_by(&mut visit, |a, b| terms[*b].bound.total_cmp(&terms[*a].bound));
        // What a document first met at each step of the visit can score at most.
        let mut left: Vec<f64> = visit
            .iter()
            .rev()
            .scan(0.0, |sum, t| {
                *sum += terms[*t].bound;
                Some(*sum)
            })
            .collect();
        left.reverse();
        let mut best: BinaryHeap<Ranked> = BinaryHeap::with_capacity(limit.min(1024));
        for (step, &t) in visit.iter().enumerate() {
            let most = left[step] * (1.0 + ROUNDING);
            let mut open = true;
            query.holders(terms[t].postings, &mut |slot, doc, _| {
                if best.len() == limit && best.peek().is_some_and(|worst| most < worst.score) {
                    open = false;
                    return false;
                }
                if work.marked(slot) {
                    return true;
                }
                work.mark(slot, 1);
                work.scored.push(slot);
                let ranked = Ranked { score: query.score(&terms, (slot, doc)), seq: doc.seq, slot };
                let enters = best.len() < limit || best.peek().is_some_and(|worst| ranked < *worst);
                if enters && keep(&doc.id) {
                    if best.len() == limit {
                        best.pop();
                    }
                    best.push(ranked);
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
