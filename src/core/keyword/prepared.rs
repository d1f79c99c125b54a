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

    /// The score [`top`](Self::top) gives each of `ids` that shares a term with the query (itself or, for a
    /// turn, through the turn before it), in `ids`' order; the others are left out.
    pub fn scores(&self, ids: &[&str]) -> Vec<(f64, &'a str)> {
        match &self.query {
            Some(query) if !ids.is_empty() => {
                self.index.score_each(query, self.terms.get_or_init(|| query.terms()), ids)
            }
            _ => Vec::new(),
        }
    }
}
