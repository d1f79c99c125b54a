//! Top-k keyword ranking: a search for the best few skips the documents that cannot be among them.

use super::bm25::{KeywordIndex, Ranking};
use crate::core::model::scope::Scope;
use crate::core::testing::Seeded;

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

/// A word of a 40-word vocabulary, the first ones far more often than the last.
fn word(random: &mut Seeded) -> String {
    let bound = 1 + random.below(40);
    format!("w{}", random.below(bound))
}

/// Where a random memory of the corpus belongs: a user, a run of hers, and whether it is a turn.
fn place(random: &mut Seeded) -> (Scope, bool) {
    let runs = [None, Some("r1"), Some("r2")];
    let scope = Scope {
        user_id: Some(["alice", "bob"][random.below(2)].into()),
        run_id: runs[random.below(3)].map(Into::into),
        ..Scope::default()
    };
    (scope, random.below(3) > 0)
}

/// A random text: common words (some repeated), a word every memory has, stop words, a word of its own.
fn text(random: &mut Seeded, n: usize) -> String {
    let mut words: Vec<String> = (0..1 + random.below(9)).map(|_| word(random)).collect();
    words.push("every".into());
    if random.below(4) == 0 {
        words.push(format!("solo{n} the and"));
    }
    words.join(" ")
}

/// A random index of memories and turns, some updated and some removed, with each live id's scope;
/// `unscoped` also writes memories that name no scope.
fn corpus(random: &mut Seeded, unscoped: bool) -> (KeywordIndex, Vec<(String, Scope)>) {
    let mut index = KeywordIndex::default();
    let mut placed: Vec<(String, Scope)> = Vec::new();
    for n in 0..20 + random.below(120) {
        let (scope, turn) = place(random);
        let id = match random.below(8) {
            0 if !placed.is_empty() => placed[random.below(placed.len())].0.clone(),
            _ => format!("m{n}"),
        };
        let text = text(random, n);
        match (turn, unscoped && random.below(5) == 0) {
            (_, true) => index.upsert(&id, &text),
            (true, _) => index.upsert_turn(&id, &text, &scope, &format!("2026-01-01T00:00:{:02}Z", random.below(30))),
            (false, _) => index.upsert_in(&id, &text, &scope),
        }
        placed.retain(|(kept, _)| *kept != id);
        placed.push((id, scope));
    }
    for _ in 0..random.below(6) {
        let (id, _) = placed.remove(random.below(placed.len()));
        index.remove(&id);
    }
    (index, placed)
}

fn query(random: &mut Seeded) -> String {
    let mut words: Vec<String> = (0..1 + random.below(4)).map(|_| word(random)).collect();
    for extra in ["every", "the", "solo7", "unknown"] {
        if random.below(4) == 0 {
            words.push(extra.into());
        }
    }
    if random.below(4) == 0 {
        words.push(words[0].clone());
    }
    words.join(" ")
}

#[test]
fn the_top_k_ranking_is_the_ranking_of_every_holder() {
    let mut random = Seeded(0x9E37_79B9_7F4A_7C15);
    let (mut searches, mut pruned) = (0, 0);
    for round in 0..60 {
        let (index, placed) = corpus(&mut random, round % 4 == 3);
        let scope_of = |id: &str| placed.iter().find(|(kept, _)| kept == id).map(|(_, scope)| scope.clone());
        let scopes = [user("alice"), user("bob"), Scope { run_id: Some("r1".into()), ..user("alice") }];
        for _ in 0..12 {
            let text = query(&mut random);
            let scope = &scopes[random.below(scopes.len())];
            let corpus = |id: &str| scope_of(id).is_some_and(|s| scope.contains(&s));
            let odd = |id: &str| id.len() % 2 == 1;
            let keep: &dyn Fn(&str) -> bool = if random.below(3) == 0 { &odd } else { ALL };
            let linked = random.below(2) == 0;
            let neighbours = if linked { index.neighbours_in(&corpus, scope) } else { index.neighbours(&corpus) };
            let named = linked.then_some(scope);
            for limit in [1, 2, 3, 7, 20, 1000] {
                let every = index.search_by(Ranking::Every, &text, limit, (&corpus, named), keep, &neighbours);
                let scored_every = index.scored_by_last_search();
                let top = index.search_by(Ranking::Top, &text, limit, (&corpus, named), keep, &neighbours);
                let ids = |hits: &[(f64, &str)]| hits.iter().map(|(_, id)| id.to_string()).collect::<Vec<_>>();
                assert_eq!(ids(&top), ids(&every), "round {round}, {text:?} in {scope:?}, limit {limit}");
                for ((a, id), (b, _)) in top.iter().zip(&every) {
                    assert!((a - b).abs() <= 1e-9, "{id}: {a} != {b} for {text:?}, limit {limit}");
                }
                searches += 1;
                pruned += usize::from(index.scored_by_last_search() < scored_every);
            }
        }
    }
    // The comparison means something only if many searches skipped documents.
    assert!(pruned * 5 > searches, "only {pruned} of {searches} searches skipped a document");
}

#[test]
fn one_prepared_query_ranks_and_scores_as_the_searches_do() {
    let mut random = Seeded(0x5851_F42D_4C95_7F2D);
    for round in 0..40 {
        let (index, placed) = corpus(&mut random, false);
        let scope = [user("alice"), user("bob")][round % 2].clone();
        let corpus = |id: &str| placed.iter().any(|(kept, s)| kept == id && scope.contains(s));
        let neighbours = index.neighbours_in(&corpus, &scope);
        let ids: Vec<&str> = placed.iter().map(|(id, _)| id.as_str()).collect();
        for _ in 0..8 {
            let text = query(&mut random);
            let every = index.search_by(Ranking::Every, &text, usize::MAX, (&corpus, Some(&scope)), ALL, &neighbours);
            let prepared = index.query_in(&text, (&corpus, &scope), &neighbours);
            // Ranked first, then scored: the scores read the weights the ranking read.
            let top = prepared.top(5, ALL);
            assert_eq!(top, index.search_in(&text, 5, (&corpus, &scope), ALL, &neighbours), "{text:?}");
            let (scored, others) = prepared.scores_and_others(&ids, 5, ALL);
            assert!(others.is_empty(), "{text:?}: every memory is among the ids scored");
            let holders = scored.iter().filter(|score| **score > 0.0).count();
            assert_eq!(holders, every.len(), "{text:?}: every holder in the corpus is scored, no other");
            for (score, id) in scored.iter().zip(&ids).filter(|(score, _)| **score > 0.0) {
                let (want, _) = every.iter().find(|(_, held)| held == id).expect("a holder");
                assert!((score - want).abs() <= 1e-9, "{id}: {score} != {want} for {text:?}");
            }
            // Given every other memory, the best five not among them are the ranking's best five that are not.
            let some: Vec<&str> = ids.iter().copied().step_by(2).collect();
            let (scored, others) = prepared.scores_and_others(&some, 5, ALL);
            assert_eq!(scored.len(), some.len());
            let rest: Vec<(f64, &str)> = top.iter().copied().filter(|(_, id)| !some.contains(id)).collect();
            assert_eq!(others, rest, "{text:?}");
        }
    }
}

#[test]
fn without_turns_the_terms_tallied_per_scope_rank_as_every_holder_does() {
    let mut random = Seeded(0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    for _ in 0..30 {
        let mut index = KeywordIndex::default();
        // Built first, so that every write below updates the postings and their tallies in place.
        index.build();
        let mut placed: Vec<(String, Scope)> = Vec::new();
        for n in 0..40 + random.below(160) {
            let (scope, _) = place(&mut random);
            let id = format!("m{}", random.below(n + 1));
            index.upsert_in(&id, &text(&mut random, n), &scope);
            placed.retain(|(kept, _)| *kept != id);
            placed.push((id, scope));
        }
        for _ in 0..random.below(8) {
            index.remove(&placed.remove(random.below(placed.len())).0);
        }
        for scope in [user("alice"), user("bob"), Scope { run_id: Some("r2".into()), ..user("bob") }] {
            let corpus = |id: &str| placed.iter().any(|(kept, s)| kept == id && scope.contains(s));
            let neighbours = index.neighbours_in(&corpus, &scope);
            for _ in 0..6 {
                let text = query(&mut random);
                for limit in [1, 3, 10] {
                    let args = (&corpus as &dyn Fn(&str) -> bool, Some(&scope));
                    let top = index.search_by(Ranking::Top, &text, limit, args, ALL, &neighbours);
                    let every = index.search_by(Ranking::Every, &text, limit, args, ALL, &neighbours);
                    assert_eq!(top, every, "{text:?} in {scope:?}, limit {limit}");
                    checked += usize::from(!top.is_empty());
                }
            }
        }
    }
    assert!(checked > 500, "only {checked} searches found anything");
}
