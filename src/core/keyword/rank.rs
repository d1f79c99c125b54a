//! BM25 ranking over the inverted index: what a search reads (`Query`: the query's postings, the corpus,
//! its statistics and the turns' context), a term's part of a document's score, and the ranking that
//! scores every document holding a query term. Scores, term frequencies and marks live in arrays by
//! document slot for the length of one search: a query term held by every document of a large scope is
//! scored with array reads, not a hash look-up per document. A search for far fewer documents than its
//! terms' postings number ranks by `top_k` instead, which gives the same list.

use std::cell::{OnceCell, RefCell};

use rustc_hash::FxHashMap;

use super::posting::Posting;
use super::{Doc, IdPredicate, Terms, B, CONTEXT_SHARE, K1};
use crate::core::keyword::tokenize;
use crate::core::keyword::turns::Neighbours;
use crate::core::model::scope::Scope;

/// The top-k ranking runs when the postings of the query's terms number more than this many times the limit.
const TOP_SHARE: usize = 8;

/// Per-slot working arrays of a search, kept between searches (`Scratch`): each search puts back at rest
/// only the entries it wrote, so its cost follows the documents it scores, not the slots of the index.
#[derive(Default)]
pub(super) struct Work {
    /// How often the current term occurs in each slot's own text (0 outside its postings).
    tf: Vec<u32>,
    /// The number of the last term that listed the slot among its holders (terms count from 1).
    mark: Vec<u32>,
    /// The score summed so far, and whether the slot was scored at all.
    score: Vec<(f64, bool)>,
    /// Each slot's document length with its context, once computed (NaN before).
    len: Vec<f64>,
    /// The scored slots, in the order they were first scored.
    pub(super) scored: Vec<u32>,
    /// The marked slots (each scored one, and turns after a holder whose slot is free).
    marked: Vec<u32>,
    /// How many documents the last search scored.
    #[cfg(test)]
    pub(super) scored_last: usize,
}

impl Work {
    /// Room for `slots`, the new entries at rest.
    pub(super) fn grow(&mut self, slots: usize) {
        if self.tf.len() < slots {
            self.tf.resize(slots, 0);
            self.mark.resize(slots, 0);
            self.score.resize(slots, (0.0, false));
            self.len.resize(slots, f64::NAN);
        }
    }

    pub(super) fn mark(&mut self, slot: u32, number: u32) {
        self.mark[slot as usize] = number;
        self.marked.push(slot);
    }

    pub(super) fn marked(&self, slot: u32) -> bool {
        self.mark[slot as usize] != 0
    }

    /// Puts back at rest what the last search wrote (term frequencies are reset term by term).
    fn settle(&mut self) {
        #[cfg(test)]
        {
            self.scored_last = self.scored.len();
        }
        for slot in self.marked.drain(..) {
            self.mark[slot as usize] = 0;
        }
        for slot in self.scored.drain(..) {
            self.score[slot as usize] = (0.0, false);
            self.len[slot as usize] = f64::NAN;
        }
    }
}

/// The working arrays the searches of one index share (wasm is single-threaded; a search that finds them
/// in use, which no caller does today, works on arrays of its own).
#[derive(Default)]
pub(super) struct Scratch(pub(super) RefCell<Work>);

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}

/// Which ranking a search runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ranking {
    /// `top_k` when the limit is well below the number of documents holding a query term, else `Every`.
    ByLimit,
    /// Every document holding a query term scored, whatever the limit.
    #[cfg_attr(not(test), allow(dead_code))]
    Every,
    /// `top_k`, whatever the limit.
    #[cfg_attr(not(test), allow(dead_code))]
    Top,
}

/// What the search keeps of one query term.
pub(super) struct Term<'a> {
    pub(super) postings: &'a FxHashMap<u32, u32>,
    pub(super) idf: f64,
    /// No document's part from this term exceeds it.
    pub(super) bound: f64,
    /// Its highest frequency in a holder (context counted).
    pub(super) most: f64,
}

/// What one search reads: the postings of the query's terms, the corpus and its statistics, and where each
/// turn's context is.
pub(super) struct Query<'a, 'q> {
    pub(super) index: &'a Terms,
    /// The postings of each query term the index holds, in term order: scores sum in this order.
    pub(super) postings: Vec<&'a Posting>,
    corpus: IdPredicate<'q>,
    /// With every document's scope known: for each scope number, whether the searched scope contains it.
    contained: Option<Vec<bool>>,
    /// True when turns are linked slot to slot (with `contained`), else `neighbours` says.
    linked: bool,
    /// True when the corpus may hold turns.
    pub(super) turns: bool,
    neighbours: &'q Neighbours<'a>,
    /// The corpus's document count and mean length (context included).
    pub(super) count: usize,
    average_len: f64,
}

impl<'a> Query<'a, '_> {
    /// The slot and document of the turn before `doc` in the corpus, when it is a turn that has one.
    pub(super) fn before(&self, doc: &Doc) -> Option<(u32, &'a Doc)> {
        let slot = match (self.turns, self.linked) {
            (false, _) => None,
            (true, true) => doc.linked.0,
            (true, false) => self.neighbours.get(&doc.id).and_then(|n| n.before).and_then(|id| self.slot_of(id)),
        }?;
        Some((slot, self.index.live(slot)?))
    }

    /// The slot of the turn after `doc` in the corpus, when it is a turn that has one.
    pub(super) fn after(&self, doc: &Doc) -> Option<u32> {
        match self.linked {
            true => doc.linked.1,
            false => self.neighbours.get(&doc.id).and_then(|n| n.after).and_then(|id| self.slot_of(id)),
        }
    }

    fn slot_of(&self, id: &str) -> Option<u32> {
        self.index.slots.get(id).copied()
    }

    /// The document's length with its context's.
    pub(super) fn len(&self, doc: &Doc) -> f64 {
        f64::from(doc.len) + self.before(doc).map_or(0.0, |(_, b)| CONTEXT_SHARE * f64::from(b.len))
    }

    pub(super) fn in_corpus(&self, doc: &Doc) -> bool {
        match (&self.contained, doc.scope_number) {
            (Some(contained), Some(number)) => contained.get(number as usize).copied().unwrap_or(false),
            _ => (self.corpus)(&doc.id),
        }
    }

    /// How many documents of the corpus hold the term of `posting`, and bounds of their frequencies and
    /// lengths, from its tallies: when every scope is known and the corpus has no turns (which count the
    /// turn after each holder too); else `None`.
    pub(super) fn tally(&self, posting: &Posting) -> Option<(usize, u32, u32)> {
        let contained = self.contained.as_deref().filter(|_| !self.turns)?;
        Some(posting.tally(contained))
    }

    /// Whether the live document in `slot` is in the corpus: read from its shape when every scope is known.
    pub(super) fn in_corpus_at(&self, slot: u32) -> bool {
        match &self.contained {
            Some(contained) => {
                let number = self.index.shapes.get(slot as usize).map_or(u32::MAX, |shape| shape.1);
                contained.get(number as usize).copied().unwrap_or(false)
            }
            None => self.index.live(slot).is_some_and(|doc| (self.corpus)(&doc.id)),
        }
    }

    /// BM25 of a term of weight `idf` occurring `tf` times (context counted) in a document of `doc_len`.
    pub(super) fn bm25(&self, idf: f64, tf: f64, doc_len: f64) -> f64 {
        let length_norm = 1.0 - B + B * doc_len / self.average_len;
        idf * tf * (K1 + 1.0) / (tf + K1 * length_norm)
    }

    /// The term's BM25 in `doc` (its own frequency plus its context's), given the document's length with
    /// its context's; `tf` is the term's frequency in a slot's own text.
    fn term_score(&self, idf: f64, tf: &impl Fn(u32) -> u32, (slot, doc): (u32, &Doc), doc_len: f64) -> f64 {
        let context = self.before(doc).map_or(0.0, |(b, _)| CONTEXT_SHARE * f64::from(tf(b)));
        self.bm25(idf, f64::from(tf(slot)) + context, doc_len)
    }

    /// The term's part of the score of `doc`, a holder of it, whose length with its context is `doc_len`.
    pub(super) fn part(&self, idf: f64, tf: &impl Fn(u32) -> u32, (slot, doc): (u32, &Doc), doc_len: f64) -> f64 {
        let term = self.term_score(idf, tf, (slot, doc), doc_len);
        if tf(slot) != 0 {
            return term;
        }
        // The term is only in the turn's context: it scores at most its share of what it scores in the turn
        // that says it, so a turn's own words outrank them whatever the two lengths.
        match self.before(doc) {
            Some((b, said)) => term.min(CONTEXT_SHARE * self.term_score(idf, tf, (b, said), self.len(said))),
            None => term,
        }
    }
}

impl Terms {
    /// BM25 where each turn's document is its own terms plus those of the turn before it in `corpus`,
    /// counted at [`CONTEXT_SHARE`] (terms and length); a term only in a turn's context scores at most that
    /// share of its score in the turn that says it, so a turn's own words outrank the same words of the next
    /// turn's context. Both rankings give the same list (tests compare them).
    pub(super) fn search<'a>(
        &'a self,
        query: &str,
        (limit, ranking): (usize, Ranking),
        (corpus, scope): (IdPredicate, Option<&Scope>),
        keep: IdPredicate,
        neighbours: &Neighbours<'a>,
    ) -> Vec<(f64, &'a str)> {
        match self.prepare(query, (corpus, scope), neighbours) {
            Some(query) => self.rank(&query, &OnceCell::new(), (limit, ranking), keep),
            None => Vec::new(),
        }
    }

    /// The `limit` best documents of `query` passing `keep`, ranked as `ranking` says; `terms` holds the
    /// query's term weights and bounds once a ranking has read them (`Query::terms`).
    pub(super) fn rank<'a>(
        &'a self,
        query: &Query<'a, '_>,
        terms: &OnceCell<Vec<Term<'a>>>,
        (limit, ranking): (usize, Ranking),
        keep: IdPredicate,
    ) -> Vec<(f64, &'a str)> {
        if limit == 0 {
            return Vec::new();
        }
        // Skipping pays when the best are few among the documents holding a term: the top-k ranking's
        // look-ups cost more per document than scoring every holder does.
        let postings = query.postings.iter().map(|p| p.len()).sum::<usize>();
        let top = match ranking {
            Ranking::ByLimit => limit.saturating_mul(TOP_SHARE) < postings,
            Ranking::Every => false,
            Ranking::Top => true,
        };
        let mut shared = self.scratch.0.try_borrow_mut();
        let mut own = Work::default();
        let work: &mut Work = match shared.as_deref_mut() {
            Ok(work) => work,
            Err(_) => &mut own,
        };
        work.grow(self.docs.len());
        let found = match top {
            true => self.rank_top((query, terms.get_or_init(|| query.terms())), limit, keep, work),
            false => self.rank_every(query, limit, keep, work),
        };
        work.settle();
        found
    }

    /// The postings of each distinct term of `query` the index holds, in term order.
    fn postings_of(&self, query: &str) -> Vec<&Posting> {
        let mut terms = tokenize(query);
        terms.sort_unstable();
        terms.dedup();
        terms.iter().filter_map(|term| self.vocabulary.postings(term)).collect()
    }

    /// The search's `Query` for the text `query`, or `None` when the index holds none of its terms.
    pub(super) fn prepare<'a, 'q>(
        &'a self,
        query: &str,
        (corpus, scope): (IdPredicate<'q>, Option<&Scope>),
        neighbours: &'q Neighbours<'a>,
    ) -> Option<Query<'a, 'q>> {
        let postings = self.postings_of(query);
        (!postings.is_empty()).then(|| self.query(postings, (corpus, scope), neighbours))
    }

    /// The search's `Query`: with the scope mask, a turn's neighbours in the corpus are those of its
    /// conversation, linked slot to slot; otherwise `neighbours` says which turns `corpus` keeps around it.
    fn query<'a, 'q>(
        &'a self,
        postings: Vec<&'a Posting>,
        (corpus, scope): (IdPredicate<'q>, Option<&Scope>),
        neighbours: &'q Neighbours<'a>,
    ) -> Query<'a, 'q> {
        let known = scope.filter(|_| self.tallies.cover_every_document());
        let linked = known.is_some();
        let turns = if linked { !self.turns.is_empty() } else { !neighbours.is_empty() };
        let contained = known.map(|scope| self.tallies.contained_in(scope));
        let mut query =
            Query { index: self, postings, corpus, contained, linked, turns, neighbours, count: 0, average_len: 1.0 };
        // With every document's scope known, the corpus is the documents of the searched scope, read from
        // the documents themselves (the same set `corpus` passes, without asking it once per posting).
        let (count, total_len) = match known {
            Some(scope) => {
                let last_turn = |conversation: &Scope| {
                    self.turns.last_of(conversation).and_then(|id| self.doc(id)).map_or(0, |doc| doc.len)
                };
                self.tallies.statistics(scope, CONTEXT_SHARE, &last_turn)
            }
            _ => self
                .docs
                .iter()
                .flatten()
                .filter(|doc| corpus(&doc.id))
                .fold((0usize, 0.0), |(n, total), doc| (n + 1, total + query.len(doc))),
        };
        query.count = count;
        query.average_len = if total_len <= 0.0 { 1.0 } else { total_len / count as f64 };
        query
    }

    /// Every document of the corpus holding a query term scored; `keep` then runs in rank order, on as few
    /// as it takes (a document's score does not depend on which others pass it).
    fn rank_every<'a>(
        &'a self,
        query: &Query<'a, '_>,
        limit: usize,
        keep: IdPredicate,
        work: &mut Work,
    ) -> Vec<(f64, &'a str)> {
        let mut holders: Vec<(u32, &Doc)> = Vec::new();
        for (number, slots) in (1u32..).zip(query.postings.iter().copied()) {
            // The documents holding the term: those whose text has it, and the turns right after them.
            holders.clear();
            for (&slot, &tf) in slots.iter() {
                work.tf[slot as usize] = tf;
                if let Some(doc) = self.live(slot).filter(|doc| query.in_corpus(doc)) {
                    work.mark(slot, number);
                    holders.push((slot, doc));
                }
            }
            if query.turns {
                let own = holders.len();
                for at in 0..own {
                    let after = query.after(holders[at].1);
                    let Some(slot) = after.filter(|slot| work.mark.get(*slot as usize).is_some_and(|m| *m != number))
                    else {
                        continue;
                    };
                    work.mark(slot, number);
                    if let Some(doc) = self.live(slot) {
                        holders.push((slot, doc));
                    }
                }
            }
            let idf = idf(query.count, holders.len());
            for &(slot, doc) in &holders {
                let at = slot as usize;
                if work.len[at].is_nan() {
                    work.len[at] = query.len(doc);
                }
                let tf = |slot: u32| work.tf[slot as usize];
                let term = query.part(idf, &tf, (slot, doc), work.len[at]);
                let (score, scored) = &mut work.score[at];
                if !*scored {
                    *scored = true;
                    work.scored.push(slot);
                }
                *score += term;
            }
            for &slot in slots.keys() {
                work.tf[slot as usize] = 0;
            }
        }
        let mut ranked: Vec<(f64, u64, &str)> = work
            .scored
            .iter()
            .filter_map(|&slot| Some((work.score[slot as usize].0, self.live(slot)?)))
            .map(|(score, doc)| (score, doc.seq, doc.id.as_str()))
            .collect();
        let order = |a: &(f64, u64, &str), b: &(f64, u64, &str)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        // Sorting every scored document costs more than scoring them: the best `head` are sorted first, and
        // the rest only when too few of those pass `keep`.
        let head = limit.saturating_mul(2).saturating_add(64).min(ranked.len());
        if head < ranked.len() {
            ranked.select_nth_unstable_by(head, order);
        }
        let (best, rest) = ranked.split_at_mut(head);
        crate::core::sort::sort_by(best, order);
        let mut found: Vec<(f64, &str)> =
            best.iter().filter(|(_, _, id)| keep(id)).take(limit).map(|(score, _, id)| (*score, *id)).collect();
        if found.len() < limit && !rest.is_empty() {
            crate::core::sort::sort_by(rest, order);
            let more = rest.iter().filter(|(_, _, id)| keep(id)).take(limit - found.len());
            found.extend(more.map(|(score, _, id)| (*score, *id)));
        }
        found
    }

    /// The document in `slot`, unless the slot is free.
    pub(super) fn live(&self, slot: u32) -> Option<&Doc> {
        self.docs.get(slot as usize)?.as_ref()
    }
}

/// Lucene's non-negative BM25 idf: ln(1 + (N − df + 0.5) / (df + 0.5)).
pub(super) fn idf(documents: usize, frequency: usize) -> f64 {
    let (n, df) = (documents as f64, frequency as f64);
    (1.0 + ((n - df).max(0.0) + 0.5) / (df + 0.5)).ln()
}
