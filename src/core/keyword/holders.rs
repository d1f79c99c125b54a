//! The conversation turns of a scope that hold a word: what a query's word is checked against to tell
//! whether it names one of the conversation's speakers (`core::query_speaker`).

use super::{KeywordIndex, Terms};
use crate::core::keyword::tokenizer::each_term;
use crate::core::model::scope::Scope;

/// The most postings read for one word: a word held across many other scopes costs a bounded walk.
const MOST_READ: usize = 4096;

impl KeywordIndex {
    /// Up to `limit` conversation turns of `scope` whose text holds `word` (as the index reads words:
    /// lower-cased and stemmed), in no particular order. Builds the index on first use, as a search does.
    pub fn turns_holding(&self, word: &str, scope: &Scope, limit: usize) -> Vec<&str> {
        self.terms().turns_holding(word, scope, limit)
    }

    /// True when the noted texts are indexed (a read has built the index), so asking costs no build.
    pub fn is_built(&self) -> bool {
        self.terms.get().is_some()
    }
}

impl Terms {
    fn turns_holding(&self, word: &str, scope: &Scope, limit: usize) -> Vec<&str> {
        if self.turns.is_empty() {
            return Vec::new(); // a store of facts alone: no word's postings are walked
        }
        let mut term = None;
        each_term(word, &mut |t| {
            term.get_or_insert_with(|| t.to_owned());
        });
        let Some(posting) = term.and_then(|term| self.vocabulary.postings(&term)) else { return Vec::new() };
        posting
            .keys()
            .take(MOST_READ)
            .filter_map(|slot| self.docs.get(*slot as usize)?.as_ref())
            .filter(|doc| doc.turn().is_some_and(|place| scope.contains(&place.conversation)))
            .map(|doc| doc.id.as_str())
            .take(limit)
            .collect()
    }
}
