use super::bm25::KeywordIndex;
use crate::core::model::scope::Scope;

/// Scores by hand, with N = 3 and an average length of 3 terms:
/// idf(df=1) = ln(1 + 2.5/1.5) = 0.980829, idf(df=2) = ln(1 + 1.5/2.5) = 0.470004;
/// a term's part is idf · tf·2.2 / (tf + 1.2·(0.25 + 0.75·len/3)).
fn fruit() -> KeywordIndex {
    let mut index = KeywordIndex::default();
    index.upsert("d1", "Apple banana apple");
    index.upsert("d2", "banana, cherry");
    index.upsert("d3", "cherry durian elderberry fig");
    index
}

const ALL: &dyn Fn(&str) -> bool = &|_| true;

fn ranked(index: &KeywordIndex, query: &str) -> Vec<(String, f64)> {
    index.search(query, 10, ALL, ALL).into_iter().map(|(score, id)| (id.to_owned(), score)).collect()
}

fn assert_scores(actual: Vec<(String, f64)>, expected: &[(&str, f64)]) {
    assert_eq!(actual.len(), expected.len(), "{actual:?}");
    for ((id, score), (want_id, want)) in actual.iter().zip(expected) {
        assert_eq!(id, want_id, "{actual:?}");
        assert!((score - want).abs() < 1e-6, "{id}: {score} != {want}");
    }
}

#[test]
fn matches_hand_computed_bm25_scores() {
    let index = fruit();
    // d1: tf 2, len 3: 0.980829 · 4.4 / 3.2
    assert_scores(ranked(&index, "apple"), &[("d1", 1.348_640_2)]);
    // d2: two terms, each 0.470004 · 2.2 / 1.9; d1: 0.470004 · 2.2 / 2.2; d3: 0.470004 · 2.2 / 2.5
    assert_scores(ranked(&index, "Banana CHERRY"), &[("d2", 1.088_429_5), ("d1", 0.470_003_6), ("d3", 0.413_603_2)]);
    // A repeated query term counts once; stop words and unknown terms add nothing.
    assert_eq!(ranked(&index, "apple apple the kiwi"), ranked(&index, "apple"));
    assert!(ranked(&index, "kiwi").is_empty());
    assert!(ranked(&index, "the of and").is_empty());
}

#[test]
fn statistics_come_from_the_searched_corpus_only() {
    let mut index = fruit();
    index.upsert("other", "banana banana banana apple apple");
    let mine = |id: &str| id != "other";
    let scores: Vec<(String, f64)> =
        index.search("banana cherry", 10, &mine, &mine).into_iter().map(|(s, id)| (id.to_owned(), s)).collect();
    assert_scores(scores, &[("d2", 1.088_429_5), ("d1", 0.470_003_6), ("d3", 0.413_603_2)]);
    // `keep` narrows the results, not the statistics.
    let only_d1 = |id: &str| id == "d1";
    let hits = index.search("banana cherry", 10, &mine, &only_d1);
    assert_eq!(hits.len(), 1);
    assert!((hits[0].0 - 0.470_003_6).abs() < 1e-6);
}

#[test]
fn updates_and_removals_are_incremental() {
    let mut index = fruit();
    assert_eq!(index.len(), 3);
    index.upsert("d1", "kiwi");
    assert!(ranked(&index, "apple").is_empty());
    assert_eq!(ranked(&index, "kiwi")[0].0, "d1");
    index.remove("d2");
    index.remove("missing");
    assert_eq!(index.len(), 2);
    assert_eq!(ranked(&index, "banana").len(), 0);
    // Terms nobody uses any more leave the index.
    assert_eq!(index.term_count(), 5, "kiwi cherry durian elderberry fig");
    // A term gone and then written again is a new term of the index, held by its new document alone.
    index.upsert("d4", "Apple");
    assert_eq!(ranked(&index, "apple").iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["d4"]);
    assert_eq!((ranked(&index, "kiwi")[0].0.as_str(), index.term_count()), ("d1", 6));
    index.clear();
    assert!(index.is_empty() && index.term_count() == 0);
    assert!(ranked(&index, "kiwi").is_empty());
}

#[test]
fn ties_keep_insertion_order_and_limit_applies() {
    let mut index = KeywordIndex::default();
    for id in ["x", "y", "z"] {
        index.upsert(id, "same words here");
    }
    index.upsert("x", "same words here"); // re-indexing keeps x's place
    let ids: Vec<&str> = index.search("words", 10, ALL, ALL).into_iter().map(|(_, id)| id).collect();
    assert_eq!(ids, ["x", "y", "z"]);
    assert_eq!(index.search("words", 2, ALL, ALL).len(), 2);
    assert!(index.search("words", 0, ALL, ALL).is_empty());
}

#[test]
fn cjk_and_accented_text_is_searchable() {
    let mut index = KeywordIndex::default();
    index.upsert("tokyo", "ユーザーは東京に住んでいる");
    index.upsert("kyoto", "ユーザーは京都が好き");
    index.upsert("cafe", "User likes the café on Rue Cler");
    assert_eq!(ranked(&index, "東京")[0].0, "tokyo");
    assert_eq!(ranked(&index, "京都")[0].0, "kyoto");
    assert_eq!(ranked(&index, "cafe\u{301}")[0].0, "cafe");
    assert!(ranked(&index, "cafe").is_empty(), "accents are kept, not folded");
}

#[test]
fn texts_noted_before_the_first_read_rank_as_if_indexed_at_once() {
    // Same writes twice: `eager` is read after each one (so it is built from the start), `lazy` only at the end.
    let writes: [(&str, Option<&str>); 7] = [
        ("a", Some("tea at noon")),
        ("b", Some("green tea")),
        ("c", Some("coffee")),
        ("b", None),
        ("b", Some("garden tea")), // removed and added again: now the newest
        ("a", Some("tea garden")), // rewritten: keeps its (oldest) insertion order
        ("c", None),
    ];
    let (mut eager, mut lazy) = (KeywordIndex::default(), KeywordIndex::default());
    assert!(eager.is_empty());
    for (id, text) in writes {
        for index in [&mut eager, &mut lazy] {
            match text {
                Some(text) => index.upsert(id, text),
                None => index.remove(id),
            }
        }
        eager.len();
    }
    // a and b tie on "tea"; the older one (a) ranks first, whenever the index was built.
    assert_eq!(ranked(&lazy, "tea"), ranked(&eager, "tea"));
    assert_eq!(ranked(&lazy, "tea").iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!((lazy.len(), lazy.term_count()), (eager.len(), eager.term_count()));
    assert!(ranked(&lazy, "coffee").is_empty());
    lazy.upsert("d", "coffee"); // after the build: indexed at once
    assert_eq!(ranked(&lazy, "coffee").len(), 1);
}

#[test]
fn build_indexes_the_noted_texts_as_the_first_read_would() {
    let (mut built, mut read) = (KeywordIndex::default(), KeywordIndex::default());
    for index in [&mut built, &mut read] {
        index.upsert("a", "tea at noon");
        index.upsert("b", "green tea");
        index.remove("a");
        index.upsert("c", "coffee");
    }
    assert_eq!(built.unindexed(), 2);
    built.build();
    assert_eq!(built.unindexed(), 0);
    built.upsert("d", "tea"); // after the build: indexed at once
    read.upsert("d", "tea");
    assert_eq!(built.unindexed(), 0);
    assert_eq!(ranked(&built, "tea"), ranked(&read, "tea"));
    assert_eq!(read.unindexed(), 0, "a read builds the index too");
}

#[test]
fn a_turn_outranks_the_turn_after_it_on_its_own_words() {
    // a is read with z's words, b with a's: both documents are 3 + 3 terms, and "sushi" is a's own word and
    // b's context. Counted fully, the context would tie b with a; counted at three quarters, a wins.
    let user = |name: &str| Scope { user_id: Some(name.into()), ..Scope::default() };
    let mut index = KeywordIndex::default();
    index.upsert_turn("z", "good morning friend", &user("alice"), "2026-01-01T00:00:00.000Z");
    index.upsert_turn("a", "we ate sushi", &user("alice"), "2026-01-01T00:00:00.001Z");
    index.upsert_turn("b", "near station yes", &user("alice"), "2026-01-01T00:00:00.002Z");
    let found = ranked(&index, "sushi");
    assert_eq!(found.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    assert!(found[0].1 > found[1].1, "{found:?}");
    // Another conversation's turn is never context.
    index.upsert_turn("x", "hello", &user("bob"), "2026-01-01T00:00:00.002Z");
    assert_eq!(ranked(&index, "sushi").len(), 2);
}

#[test]
fn a_search_in_a_scope_scores_as_a_visit_of_every_document_would() {
    let user = |u: &str| Scope { user_id: Some(u.into()), ..Scope::default() };
    let run = |u: &str, r: &str| Scope { user_id: Some(u.into()), run_id: Some(r.into()), ..Scope::default() };
    let mut index = KeywordIndex::default();
    index.upsert_in("a1", "tea with lemon and honey", &user("alice"));
    index.upsert_in("a2", "green tea in the morning", &user("alice"));
    index.upsert_in("b1", "coffee, black, no sugar, strong tea never", &user("bob"));
    let said =
        [("t1", "do you like tea"), ("t2", "yes, green tea mostly"), ("t3", "and coffee"), ("t4", "only on mondays")];
    for (n, (id, text)) in said.iter().enumerate() {
        index.upsert_turn(id, text, &run("alice", "r1"), &format!("2026-01-01T00:00:0{n}Z"));
    }
    index.upsert_turn("u1", "tea time", &run("alice", "r2"), "2026-01-01T00:00:00Z");
    index.upsert_turn("u2", "tea again, with scones", &run("alice", "r2"), "2026-01-01T00:00:01Z");
    // Edits and removals keep the tallies in step: a re-indexed text, a removed turn in the middle and at the end.
    index.upsert_in("a2", "green tea in the morning, oolong at night", &user("alice"));
    index.remove("t2");
    index.remove("u2");
    let holds = |scope: &Scope, id: &str| {
        let owner = match id {
            "a1" | "a2" => user("alice"),
            "b1" => user("bob"),
            "u1" | "u2" => run("alice", "r2"),
            _ => run("alice", "r1"),
        };
        scope.contains(&owner)
    };
    for scope in [user("alice"), user("bob"), run("alice", "r1"), Scope::default()] {
        let corpus = |id: &str| holds(&scope, id);
        let neighbours = index.neighbours(&corpus);
        for query in ["tea", "green tea coffee", "mondays scones", "honey"] {
            let visited = index.search_around(query, 10, &corpus, ALL, &neighbours);
            let tallied = index.search_in(query, 10, (&corpus, &scope), ALL, &neighbours);
            assert_eq!(tallied, visited, "{query} in {scope:?}");
        }
    }
}

#[test]
fn an_index_noted_with_room_reserved_ranks_as_one_noted_without() {
    let scope = |user: &str| Scope { user_id: Some(user.into()), ..Scope::default() };
    let note = |index: &mut KeywordIndex| {
        for i in 0..40 {
            let text = format!("tea note {i} green tea {}", "oolong ".repeat(i % 4));
            match i % 3 {
                0 => index.upsert_turn(&format!("m{i}"), &text, &scope("a"), &format!("2026-01-01T00:00:{i:02}Z")),
                _ => index.upsert_in(&format!("m{i}"), &text, &scope(if i % 2 == 0 { "a" } else { "b" })),
            }
        }
        // A text noted again before the first search keeps its insertion order.
        index.upsert_in("m4", "oolong tea again", &scope("a"));
    };
    let mut plain = KeywordIndex::default();
    note(&mut plain);
    let mut reserved = KeywordIndex::default();
    reserved.reserve(40);
    note(&mut reserved);
    let all = |_: &str| true;
    let neighbours = (plain.neighbours(&all), reserved.neighbours(&all));
    for query in ["oolong tea", "green", "note 7"] {
        let a = plain.search_in(query, 10, (&all, &scope("a")), &all, &neighbours.0);
        let b = reserved.search_in(query, 10, (&all, &scope("a")), &all, &neighbours.1);
        assert!(!a.is_empty(), "{query}");
        assert_eq!(a, b, "{query}");
        assert_eq!(plain.search(query, 10, &all, &all), reserved.search(query, 10, &all, &all), "{query}");
    }
}

#[test]
fn linked_turns_give_the_neighbours_a_listing_of_every_turn_gives() {
    let run = |r: &str| Scope { user_id: Some("alice".into()), run_id: Some(r.into()), ..Scope::default() };
    let mut index = KeywordIndex::default();
    // Out of time order, two conversations interleaved, one turn re-indexed and two removed.
    for (id, r, second) in [("c", "r1", 3), ("a", "r1", 1), ("x", "r2", 2), ("e", "r1", 5), ("b", "r1", 2)] {
        index.upsert_turn(id, &format!("turn {id}"), &run(r), &format!("2026-01-01T00:00:0{second}Z"));
    }
    index.upsert_in("f", "a fact, no turn", &run("r1"));
    let _ = index.len(); // the index is built here; what follows updates it in place
    for (id, r, second) in [("d", "r1", 4), ("y", "r2", 1), ("z", "r2", 3)] {
        index.upsert_turn(id, &format!("turn {id}"), &run(r), &format!("2026-01-01T00:00:0{second}Z"));
    }
    index.upsert_turn("b", "turn b, said again", &run("r1"), "2026-01-01T00:00:02Z");
    index.remove("c");
    index.remove("y");
    let ids = ["a", "b", "c", "d", "e", "f", "x", "y", "z"];
    let owner = |id: &str| if "xyz".contains(id) { run("r2") } else { run("r1") };
    for scope in [run("r1"), run("r2"), Scope { user_id: Some("alice".into()), ..Scope::default() }] {
        let corpus = |id: &str| !["c", "y"].contains(&id) && scope.contains(&owner(id));
        let (listed, linked) = (index.neighbours(&corpus), index.neighbours_in(&corpus, &scope));
        for id in ids {
            assert_eq!(linked.get(id), listed.get(id), "{id} in {scope:?}");
        }
    }
    let r1 = |id: &str| !["c", "y"].contains(&id) && run("r1").contains(&owner(id));
    let around = index.neighbours_in(&r1, &run("r1")).get("d").unwrap();
    assert_eq!((around.before, around.after), (Some("b"), Some("e")), "c removed: b and d are neighbours");
}

#[test]
fn turns_noted_before_the_first_read_link_as_turns_indexed_one_by_one() {
    let run = |r: &str| Scope { user_id: Some("alice".into()), run_id: Some(r.into()), ..Scope::default() };
    let (mut eager, mut lazy) = (KeywordIndex::default(), KeywordIndex::default());
    // Two conversations, interleaved and out of time order, one turn said twice and one removed.
    let turns = [("c", "r1", 3), ("a", "r1", 1), ("x", "r2", 2), ("e", "r1", 5), ("b", "r1", 2), ("y", "r2", 1)];
    eager.len(); // built before the first write: each turn is linked as it comes
    for index in [&mut eager, &mut lazy] {
        for (id, r, second) in turns {
            index.upsert_turn(id, &format!("tea {id}"), &run(r), &format!("2026-01-01T00:00:0{second}Z"));
        }
        index.upsert_turn("b", "tea b again", &run("r1"), "2026-01-01T00:00:02Z");
        index.remove("c");
    }
    let alice = Scope { user_id: Some("alice".into()), ..Scope::default() };
    for scope in [run("r1"), run("r2"), alice] {
        let (eager_turns, lazy_turns) = (eager.neighbours_in(ALL, &scope), lazy.neighbours_in(ALL, &scope));
        for id in ["a", "b", "e", "x", "y"] {
            assert_eq!(lazy_turns.get(id), eager_turns.get(id), "{id}");
        }
        let lazy_hits = lazy.search_in("tea", 10, (ALL, &scope), ALL, &lazy_turns);
        assert_eq!(lazy_hits, eager.search_in("tea", 10, (ALL, &scope), ALL, &eager_turns));
    }
    let around = lazy.neighbours_in(ALL, &run("r1")).get("b").unwrap();
    assert_eq!((around.before, around.after), (Some("a"), Some("e")), "c removed: b and e are neighbours");
}

#[test]
fn searches_in_a_row_rank_as_first_searches_of_a_fresh_index_do() {
    // The ranking's working arrays are kept between searches: what one search wrote must not reach the next.
    let run = |r: &str| Scope { user_id: Some("alice".into()), run_id: Some(r.into()), ..Scope::default() };
    let build = || {
        let mut index = KeywordIndex::default();
        let said = ["tea please", "green tea", "coffee then", "tea and coffee", "mondays only", "tea tea tea"];
        for (n, text) in said.iter().enumerate() {
            let id = format!("t{n}");
            index.upsert_turn(&id, text, &run(if n < 4 { "r1" } else { "r2" }), &format!("2026-01-01T00:00:0{n}Z"));
        }
        index.upsert_in("m1", "tea with lemon", &Scope { user_id: Some("alice".into()), ..Scope::default() });
        index.remove("t1");
        index.remove("t4");
        index
    };
    let shared = build();
    let queries = ["tea", "coffee mondays", "green tea coffee", "tea", "lemon tea", "coffee mondays"];
    for scope in [run("r1"), run("r2"), Scope { user_id: Some("alice".into()), ..Scope::default() }] {
        for query in queries {
            let fresh = build();
            let corpus = |id: &str| !id.starts_with('m') || scope.run_id.is_none();
            let (expected, got) = (
                fresh.search_in(query, 10, (&corpus, &scope), ALL, &fresh.neighbours(&corpus)),
                shared.search_in(query, 10, (&corpus, &scope), ALL, &shared.neighbours(&corpus)),
            );
            assert_eq!(got, expected, "{query} in {scope:?}");
        }
    }
}
