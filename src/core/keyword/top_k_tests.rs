//! Top-k keyword ranking: a search for the best few skips the documents that cannot be among them.

use super::bm25::KeywordIndex;
use crate::core::model::scope::Scope;

fn user(id: &str) -> Scope {
    Scope { user_id: Some(id.into()), ..Scope::default() }
}

const ALL: &dyn Fn(&str) -> bool = &|_| true;

#[test]
fn a_search_for_the_best_few_does_not_score_every_holder() {
    let mut index = KeywordIndex::default();
    for i in 0..200 {
        index.upsert_in(&format!("c{i}"), &format!("common words number {i}"), &user("alice"));
    }
    for i in 0..3 {
        index.upsert_in(&format!("r{i}"), "a rare word beside common ones", &user("alice"));
    }
    let scope = user("alice");
    let neighbours = index.neighbours_in(ALL, &scope);
    let hits = index.search_in("rare common", 3, (ALL, &scope), ALL, &neighbours);
    let ids: Vec<&str> = hits.iter().map(|(_, id)| *id).collect();
    assert_eq!(ids, ["r0", "r1", "r2"]);
    // Every one of the 203 documents holds "common"; only the three holding "rare" can make the top 3.
    let scored = index.scored_by_last_search();
    assert!(scored < 20, "the search scored {scored} documents of 203 to find the best 3");
}
