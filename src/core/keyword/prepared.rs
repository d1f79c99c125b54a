//! A keyword query read once and used twice. A fused search ranks the scope's best by it and scores what the
//! vector ranking found; both read the same corpus statistics and the same walk of the terms' postings
//! (their weights and bounds), which at 100,000 memories costs as much as either use.

use std::cell::OnceCell;

use super::rank::{Query, Ranking, Term};
use super::{IdPredicate, KeywordIndex, Terms};
use crate::core::keyword::turns::Neighbours;
use crate::core::model::scope::Scope;

/// A query's statistics over the searched scope (none when the index holds none of its terms), and its
/// terms' weights once a use has read them.
pub struct KeywordQuery<'a, 'q> {
    index: &'a Terms,
    query: Option<Query<'a, 'q>>,
    terms: OnceCell<Vec<Term<'a>>>,
}

impl KeywordIndex {
    /// `query` read for a search of `scope`, where `corpus` passes exactly the memories whose scope `scope`
    /// contains (as [`search_in`](Self::search_in)); `neighbours` are the turns of that corpus.
    pub fn query_in<'a, 'q>(
        &'a self,
        query: &str,
        (corpus, scope): (IdPredicate<'q>, &Scope),
        neighbours: &'q Neighbours<'a>,
    ) -> KeywordQuery<'a, 'q> {
        let index = self.terms();
        KeywordQuery { index, query: index.prepare(query, (corpus, Some(scope)), neighbours), terms: OnceCell::new() }
    }
}

impl<'a> KeywordQuery<'a, '_> {
    /// Up to `limit` memories passing `keep` that share a term with the query, best first.
    pub fn top(&self, limit: usize, keep: IdPredicate) -> Vec<(f64, &'a str)> {
        match &self.query {
            Some(query) => self.index.rank(query, &self.terms, (limit, Ranking::ByLimit), keep),
            None => Vec::new(),
        }
    }

    /// For a fused search: the score [`top`](Self::top) gives each of `ids` (0 when it shares no term with
    /// the query, itself or, for a turn, through the turn before it), in `ids`' order, and the best `limit`
    /// memories passing `keep` that are not among `ids`, best first. Each memory is in one of the two.
    pub fn scores_and_others(&self, ids: &[&str], limit: usize, keep: IdPredicate) -> (Vec<f64>, Vec<(f64, &'a str)>) {
        let Some(query) = &self.query else { return (vec![0.0; ids.len()], Vec::new()) };
        let scored = self.index.score_each(query, self.terms.get_or_init(|| query.terms()), ids);
        // A document's id is one string, which both lists borrow: the same memory is the same address.
        let mut among: Vec<usize> = scored.iter().flatten().map(|(_, id)| id.as_ptr() as usize).collect();
        among.sort_unstable();
        let others = self.top(limit, keep).into_iter();
        let others = others.filter(|(_, id)| among.binary_search(&(id.as_ptr() as usize)).is_err()).collect();
        (scored.into_iter().map(|scored| scored.map_or(0.0, |(score, _)| score)).collect(), others)
    }
}
