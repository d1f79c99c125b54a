//! How many candidates each ranking draws: a keyword search for a page scores about the page, not the
//! fusion pool, and a fused search gives every memory the vector ranking found its own keyword score, however
//! many memories share the query's words.

use futures_executor::block_on;

use crate::core::config::Prompts;
use crate::core::engine::memory::MemoryEngine;
use crate::core::engine::search::FUSION_POOL;
use crate::core::fusion::{Method, Weights};
use crate::core::read::Read;
use crate::core::storage::{Changeset, InMemoryStorage};
use crate::core::testing::{NoLlm, TableEmbedder};
use crate::core::vector_store::tests::{memory_in, scope};

type Engine = MemoryEngine<NoLlm, TableEmbedder, InMemoryStorage>;

/// An engine whose query "apple" embeds to (1, 0), holding `texts` for alice, each with its vector.
fn engine(texts: Vec<(String, [f32; 2])>) -> Engine {
    let embedder = TableEmbedder::new(&[("apple", &[1.0, 0.0])], &[0.0, 1.0]);
    let engine = MemoryEngine::new(NoLlm, embedder, InMemoryStorage::default(), Prompts::default());
    let upserts = texts
        .into_iter()
        .enumerate()
        .map(|(i, (text, vector))| {
            let mut memory = memory_in(&format!("m{i:05}"), scope("alice", None), Some(vector.to_vec()));
            memory.item.memory = text;
            memory
        })
        .collect();
    block_on(engine.commit(Changeset { upserts, ..Changeset::default() })).unwrap();
    engine
}

/// "apple" and `fill` other words.
fn apple_and(fill: usize, seed: usize) -> String {
    let words: Vec<String> = (0..fill).map(|w| format!("w{}", (seed * 31 + w * 7) % 500)).collect();
    format!("apple {}", words.join(" "))
}

fn read(method: Method, limit: usize) -> Read {
    Read { method: Some(method), ..Read::of(scope("alice", None), limit) }
}

#[test]
fn a_keyword_search_for_a_page_does_not_score_the_fusion_pool() {
    let texts = (0..3_000).map(|i| (apple_and(i % 13, i), [0.6, 0.8])).collect();
    let engine = engine(texts);
    let found = block_on(engine.search("apple", &read(Method::Keyword, 10))).unwrap();
    let scored = engine.keywords.borrow().scored_by_last_search();
    let ids: Vec<&str> = found.results.iter().map(|item| item.id.as_str()).collect();
    let keywords = engine.keywords.borrow();
    let every = keywords.search("apple", 10, &|_| true, &|_| true);
    let best: Vec<&str> = every.iter().map(|(_, id)| *id).collect();
    assert_eq!(ids, best, "the page is the index's own best ten");
    assert!(scored < FUSION_POOL / 2, "scored {scored} documents of 3000 for a page of 10");
}

#[test]
fn a_memory_the_vector_ranking_finds_keeps_its_keyword_score_among_many_holders() {
    // 1,500 short memories say "apple"; the one most like the query says it among 40 other words, so more
    // than the fusion pool outscore it by keywords.
    let mut texts: Vec<(String, [f32; 2])> = (0..1_500).map(|i| (apple_and(i % 3, i), [0.0, 1.0])).collect();
    texts.push((apple_and(40, 7), [1.0, 0.0]));
    let engine = engine(texts);
    let found = block_on(engine.search("apple", &read(Method::Hybrid, 1))).unwrap();
    let top = &found.results[0];
    assert_eq!(top.id, "m01500");
    let keywords = engine.keywords.borrow();
    let every = keywords.search("apple", 2_000, &|_| true, &|_| true);
    let rank = every.iter().position(|(_, id)| *id == "m01500").unwrap();
    assert!(rank >= FUSION_POOL, "ranked {rank} by keywords");
    let (best, own) = (every[0].0, every[rank].0);
    let weights = Weights::default();
    let expected = weights.vector + weights.keyword * own / best;
    let score = top.score.unwrap();
    assert!(
        (score - expected).abs() < 1e-9,
        "score {score}, expected {expected} (vector part alone: {})",
        weights.vector
    );
}

#[test]
fn a_keyword_search_counts_every_match_when_asked() {
    let engine = engine((0..50).map(|i| (apple_and(i % 5, i), [0.0, 1.0])).collect());
    let page = block_on(engine.search("apple", &read(Method::Keyword, 2))).unwrap();
    let counted = Read { count_matches: true, ..read(Method::Keyword, 2) };
    let counted = block_on(engine.search("apple", &counted)).unwrap();
    assert_eq!([page.results.len(), counted.results.len()], [2, 2]);
    assert_eq!(counted.results, page.results);
    assert_eq!(counted.matched, 50, "every memory saying apple");
    assert!(page.matched <= 8, "a page ranks its own pool: {}", page.matched);
}

/// 3,000 memories at angles around the query "apple" (1, 0), all of alice's.
fn spread() -> Engine {
    engine((0..3_000).map(|i| (format!("memory {i}"), [1.0, i as f32 / 100.0])).collect())
}

#[test]
fn a_vector_search_for_a_page_draws_about_the_page() {
    let engine = spread();
    let counted = Read { count_matches: true, ..read(Method::Vector, 10) };
    let every = block_on(engine.search("apple", &counted)).unwrap();
    let page = block_on(engine.search("apple", &read(Method::Vector, 10))).unwrap();
    assert_eq!(page.results, every.results, "the same best ten");
    assert_eq!(page.results[0].id, "m00000");
    assert_eq!(every.matched, FUSION_POOL, "counting draws the pool");
    assert!(page.matched <= 40, "a page of 10 drew {} candidates", page.matched);
}

#[test]
fn a_search_by_vector_for_a_page_draws_about_the_page() {
    let engine = spread();
    let page = block_on(engine.search_by_vector(vec![1.0, 0.0], &Read::of(scope("alice", None), 10))).unwrap();
    let ids: Vec<String> = page.results.iter().map(|item| item.id.clone()).collect();
    assert_eq!(ids, (0..10).map(|i| format!("m{i:05}")).collect::<Vec<_>>());
    assert_eq!(page.total_count, 3_000);
    assert_eq!(page.matched, 10, "a page of 10 drew {} candidates", page.matched);
    let counted = Read { count_matches: true, ..Read::of(scope("alice", None), 10) };
    let every = block_on(engine.search_by_vector(vec![1.0, 0.0], &counted)).unwrap();
    assert_eq!(page.results, every.results, "the same best ten as from the pool");
    assert_eq!(every.matched, FUSION_POOL);
}
