//! The index against a naive reference: exact f32 ranking, int8 recall on clustered data, removal,
//! updates, compaction, scope pre-checks and dimension checks.

use std::cell::Cell;

use super::kernels::{dot_f32, dot_f32_pair, dot_i8, squared_norm, LANES};
use super::*;
use crate::core::error::MemoryError;

/// splitmix64: a tiny seeded generator, so every run sees the same vectors.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
    fn vector(&mut self, dim: usize) -> Vec<f32> {
        normalized((0..dim).map(|_| self.unit()).collect()).unwrap()
    }
    /// `centre` plus noise of the given size, normalised.
    fn near(&mut self, centre: &[f32], noise: f32) -> Vec<f32> {
        normalized(centre.iter().map(|c| c + noise * self.unit()).collect()).unwrap()
    }
}

pub(crate) fn scope(user: &str, agent: Option<&str>) -> Scope {
    Scope { user_id: Some(user.into()), agent_id: agent.map(Into::into), run_id: None }
}

pub(crate) fn memory_in(id: &str, scope: Scope, vector: Option<Vec<f32>>) -> StoredMemory {
    StoredMemory {
        item: MemoryItem {
            id: id.into(),
            memory: format!("text {id}"),
            hash: format!("hash {id}"),
            metadata: Default::default(),
            score: None,
            fused_score: None,
            created_at: String::new(),
            updated_at: String::new(),
            scope,
            lifecycle: Default::default(),
        },
        embedding: vector,
    }
}

pub(super) fn memory(id: &str, user: &str, vector: Option<Vec<f32>>) -> StoredMemory {
    memory_in(id, scope(user, None), vector)
}

fn ids(hits: &[(f32, &StoredMemory)]) -> Vec<String> {
    hits.iter().map(|(_, m)| m.item.id.clone()).collect()
}

/// The naive reference: every vector scored in f64, sorted by score, oldest first among ties.
fn naive_top(rows: &[(String, Vec<f32>)], query: &[f32], limit: usize) -> Vec<(f64, String)> {
    let mut scored: Vec<(f64, usize, String)> = rows
        .iter()
        .enumerate()
        .map(|(order, (id, v))| {
            (v.iter().zip(query).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum(), order, id.clone())
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(limit).map(|(score, _, id)| (score, id)).collect()
}

fn small_store() -> InMemoryVectorStore {
    let mut store = InMemoryVectorStore::default();
    store.upsert(memory("a", "alice", Some(vec![1.0, 0.0, 0.0]))).unwrap();
    store.upsert(memory("b", "alice", Some(vec![0.8, 0.6, 0.0]))).unwrap();
    store.upsert(memory("c", "bob", Some(vec![1.0, 0.0, 0.0]))).unwrap();
    store.upsert(memory("d", "alice", Some(vec![0.0, 0.0, 5.0]))).unwrap();
    store.upsert(memory("e", "alice", None)).unwrap();
    store
}

#[test]
fn normalises_and_rejects_zero_vectors() {
    assert_eq!(normalized(vec![3.0, 4.0]), Some(vec![0.6, 0.8]));
    assert_eq!(normalized(vec![0.0, 0.0]), None);
    assert_eq!(normalized(vec![f32::NAN, 1.0]), None);
    let mut store = InMemoryVectorStore::default();
    store.upsert(memory("d", "alice", Some(vec![0.0, 0.0, 5.0]))).unwrap();
    assert_eq!(store.vector("d"), Some(vec![0.0, 0.0, 1.0]), "normalised once, at insert");
    let error = store.upsert(memory("z", "alice", Some(vec![0.0, 0.0, 0.0]))).unwrap_err();
    assert_eq!(error.code(), "INVALID_INPUT");
    assert!(store.get("z").is_none());
}

#[test]
fn search_ranks_by_cosine_within_the_predicate_and_limit() {
    let store = small_store();
    let alice = |item: &MemoryItem| item.scope.user_id.as_deref() == Some("alice");
    let hits = store.search(&[1.0, 0.0, 0.0], 10, &alice).unwrap();
    assert_eq!(ids(&hits), ["a", "b", "d"]);
    assert!((hits[0].0 - 1.0).abs() < 1e-6 && (hits[1].0 - 0.8).abs() < 1e-6 && hits[2].0.abs() < 1e-6);
    assert_eq!(store.search(&[1.0, 0.0, 0.0], 2, &alice).unwrap().len(), 2);
    assert_eq!(store.search(&[1.0, 0.0, 0.0], 10, &|_| false).unwrap().len(), 0);
    assert_eq!(store.search(&[1.0, 0.0, 0.0], 0, &|_| true).unwrap().len(), 0);
    let tie = store.search(&[1.0, 0.0, 0.0], 2, &|_| true).unwrap();
    assert_eq!(ids(&tie), ["a", "c"], "equal scores: the older memory first");
}

#[test]
fn list_keeps_insertion_order_across_updates() {
    let mut store = small_store();
    store.upsert(memory("a", "alice", Some(vec![0.0, 1.0, 0.0]))).unwrap();
    let ids: Vec<_> = store.list(10, &|_| true).iter().map(|m| m.item.id.clone()).collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e"]);
    assert_eq!(store.list(2, &|_| true).len(), 2);
    assert_eq!(store.find_by_hash("hash c", &|_| true).unwrap().item.id, "c");
    assert!(store.find_by_hash("hash c", &|item| item.scope.user_id.as_deref() == Some("alice")).is_none());
    assert_eq!(store.search(&[0.0, 1.0, 0.0], 1, &|_| true).unwrap()[0].1.item.id, "a", "the update is searched");
}

#[test]
fn dimension_mismatch_is_an_error_not_a_wrong_answer() {
    for quantization in [Quantization::None, Quantization::Int8, Quantization::Auto] {
        let mut store = InMemoryVectorStore::new(quantization);
        store.upsert(memory("a", "alice", Some(vec![1.0, 0.0, 0.0]))).unwrap();
        let error = store.upsert(memory("x", "alice", Some(vec![1.0, 0.0]))).unwrap_err();
        assert_eq!(error, MemoryError::DimensionMismatch { expected: 3, actual: 2 });
        assert!(store.search(&[1.0, 0.0], 3, &|_| true).is_err());
        assert!(store.get("x").is_none());
        assert_eq!(store.dimension(), Some(3));
    }
}

#[test]
fn remove_and_clear() {
    let mut store = small_store();
    let removed = store.remove("a").unwrap();
    assert_eq!((removed.item.id.as_str(), removed.embedding), ("a", Some(vec![1.0, 0.0, 0.0])));
    assert!(store.remove("a").is_none());
    assert_eq!(store.len(), 4);
    store.clear();
    assert!(store.is_empty() && store.dimension().is_none());
    store.upsert(memory("z", "alice", Some(vec![1.0, 2.0]))).unwrap();
    assert_eq!(store.dimension(), Some(2));
}

#[test]
fn emptied_by_removal_forgets_the_dimension() {
    let mut store = small_store();
    for id in ["a", "b", "c", "d", "e"] {
        store.remove(id).unwrap();
    }
    assert!(store.is_empty() && store.dimension().is_none());
    store.upsert(memory("n", "alice", Some(vec![1.0; 7]))).unwrap();
    assert_eq!(store.search(&[1.0; 7], 5, &|_| true).unwrap().len(), 1);
}

#[test]
fn memories_without_vectors_are_listed_but_never_searched() {
    let mut store = InMemoryVectorStore::default();
    store.upsert(memory("plain", "alice", None)).unwrap();
    assert!(store.search(&[1.0, 0.0], 5, &|_| true).unwrap().is_empty(), "no dimension yet: nothing to search");
    store.upsert(memory("vec", "alice", Some(vec![0.0, 1.0]))).unwrap();
    let hits = store.search(&[1.0, 0.0], 5, &|_| true).unwrap();
    assert_eq!(ids(&hits), ["vec"], "the vector-less memory (a zero row) is not a hit");
    store.upsert(memory("vec", "alice", None)).unwrap();
    assert!(store.search(&[1.0, 0.0], 5, &|_| true).unwrap().is_empty());
    assert_eq!(store.vector("vec"), None);
    assert_eq!(store.list(5, &|_| true).len(), 2);
}

#[test]
fn kernels_match_a_naive_dot_product() {
    let mut rng = Rng(7);
    for dim in [LANES, 64, 384, 1536] {
        let (a, b): (Vec<f32>, Vec<f32>) = (0..dim).map(|_| (rng.unit(), rng.unit())).unzip();
        let exact: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
        assert!((f64::from(dot_f32(&a, &b)) - exact).abs() < 1e-4, "{dim}");
        // Two rows in one pass: each the very sum `dot_f32` gives it.
        let c: Vec<f32> = (0..dim).map(|_| rng.unit()).collect();
        let (first, second) = dot_f32_pair(&a, &c, &b);
        assert_eq!((first.to_bits(), second.to_bits()), (dot_f32(&a, &b).to_bits(), dot_f32(&c, &b).to_bits()));
        let codes: Vec<i8> = (0..dim).map(|_| (rng.next() % 255) as i8).collect();
        let query: Vec<i16> = (0..dim).map(|_| (rng.next() % 20001) as i16 - 10000).collect();
        let exact: i64 = codes.iter().zip(&query).map(|(c, q)| i64::from(*c) * i64::from(*q)).sum();
        assert_eq!(i64::from(dot_i8(&codes, &query)), exact, "{dim}");
    }
}

#[test]
fn squared_norm_matches_a_naive_sum_at_every_length() {
    let mut rng = Rng(11);
    for dim in [0, 1, 3, LANES - 1, LANES, LANES + 5, 100, 384, 1536] {
        let v: Vec<f32> = (0..dim).map(|_| rng.unit()).collect();
        let exact: f64 = v.iter().map(|x| f64::from(*x) * f64::from(*x)).sum();
        assert!((f64::from(squared_norm(&v)) - exact).abs() < 1e-4, "{dim}");
    }
    assert!(squared_norm(&[1.0, f32::NAN]).is_nan());
}

#[test]
fn f32_search_is_exact_against_a_naive_reference() {
    let mut rng = Rng(42);
    for dim in [3, 17, 64, 384] {
        let mut store = InMemoryVectorStore::default();
        let rows: Vec<(String, Vec<f32>)> = (0..1500).map(|i| (format!("m{i}"), rng.vector(dim))).collect();
        for (id, v) in &rows {
            store.upsert(memory(id, "alice", Some(v.clone()))).unwrap();
        }
        for _ in 0..10 {
            let query = rng.vector(dim);
            let want = naive_top(&rows, &query, 10);
            let got = store.search(&query, 10, &|_| true).unwrap();
            assert_eq!(ids(&got), want.iter().map(|(_, id)| id.clone()).collect::<Vec<_>>(), "dim {dim}");
            for ((score, _), (exact, _)) in got.iter().zip(&want) {
                assert!((f64::from(*score) - exact).abs() < 1e-5, "dim {dim}: {score} vs {exact}");
            }
        }
        assert_eq!(store.get("m0").unwrap().embedding, None, "one copy: the arena's");
        assert_eq!(store.vector("m0").as_ref(), Some(&rows[0].1));
    }
}

/// 40 clusters of 150 vectors in `store`; one query near each centre. Returns the store's recall@10 and
/// the largest gap between a returned score and the exact cosine.
fn clustered_recall(mut store: InMemoryVectorStore, dim: usize, noise: f32) -> (f64, f32) {
    let mut rng = Rng(3);
    let centres: Vec<Vec<f32>> = (0..40).map(|_| rng.vector(dim)).collect();
    let rows: Vec<(String, Vec<f32>)> =
        (0..6000).map(|i| (format!("m{i}"), rng.near(&centres[i % centres.len()], noise))).collect();
    for (id, v) in &rows {
        store.upsert(memory(id, "alice", Some(v.clone()))).unwrap();
    }
    let (mut found, mut wanted, mut gap) = (0, 0, 0.0f32);
    for centre in &centres {
        let query = rng.near(centre, noise);
        let want = naive_top(&rows, &query, 10);
        let got = store.search(&query, 10, &|_| true).unwrap();
        for (score, hit) in &got {
            let exact = rows.iter().find(|(id, _)| *id == hit.item.id).unwrap().1.iter().zip(&query);
            let exact: f32 = exact.map(|(a, b)| a * b).sum();
            gap = gap.max((score - exact).abs());
        }
        wanted += want.len();
        found += want.iter().filter(|(_, id)| got.iter().any(|(_, m)| m.item.id == *id)).count();
    }
    (found as f64 / wanted as f64, gap)
}

#[test]
fn int8_recall_on_clustered_vectors() {
    let (recall, gap) = clustered_recall(InMemoryVectorStore::new(Quantization::Int8), 64, 0.6);
    assert!(recall >= 0.97, "recall@10 {recall}");
    assert!(gap < 0.01, "int8 scores stay close to the exact cosine: {gap}");
}

#[test]
fn auto_scans_int8_above_its_threshold_with_recall_of_at_least_0_99_and_exact_scores() {
    let auto = InMemoryVectorStore::new(Quantization::Auto).with_int8_from(1000);
    let (recall, gap) = clustered_recall(auto, 64, 0.6);
    assert!(recall >= 0.99, "recall@10 {recall}");
    assert!(gap < 1e-5, "rescored from f32: {gap}");
    let below = InMemoryVectorStore::new(Quantization::Auto).with_int8_from(usize::MAX);
    let (recall, gap) = clustered_recall(below, 64, 0.6);
    assert!(recall == 1.0 && gap < 1e-5, "below the threshold, the exact f32 scan: {recall} {gap}");
}

#[test]
fn int8_keeps_a_quarter_of_the_memory_and_dequantises_on_demand() {
    let mut rng = Rng(5);
    let (mut f32_store, mut int8_store, mut auto_store) = (
        InMemoryVectorStore::new(Quantization::None),
        InMemoryVectorStore::new(Quantization::Int8),
        InMemoryVectorStore::default(),
    );
    for i in 0..1000 {
        let v = rng.vector(384);
        f32_store.upsert(memory(&format!("m{i}"), "alice", Some(v.clone()))).unwrap();
        int8_store.upsert(memory(&format!("m{i}"), "alice", Some(v.clone()))).unwrap();
        auto_store.upsert(memory(&format!("m{i}"), "alice", Some(v))).unwrap();
    }
    assert_eq!(auto_store.vector_bytes(), f32_store.vector_bytes() + int8_store.vector_bytes(), "auto: both");
    assert_eq!(auto_store.vector("m1"), f32_store.vector("m1"), "auto hands back the exact vector");
    let mut reserved = InMemoryVectorStore::new(Quantization::Int8);
    reserved.reserve(1000);
    for i in 0..1000 {
        reserved.upsert(memory(&format!("m{i}"), "alice", Some(rng.vector(384)))).unwrap();
    }
    assert_eq!(reserved.vector_bytes(), 1000 * (384 + 4), "reserve() allocates once, exactly");
    let ratio = f32_store.vector_bytes() as f64 / int8_store.vector_bytes() as f64;
    assert!(ratio > 3.8, "f32 / int8 vector bytes {ratio}");
    assert!(int8_store.get("m1").unwrap().embedding.is_none(), "int8 records keep no f32 copy");
    let (exact, approx) = (f32_store.vector("m1").unwrap(), int8_store.vector("m1").unwrap());
    assert!(exact.iter().zip(&approx).all(|(a, b)| (a - b).abs() < 0.01));
    let norm = approx.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-5, "dequantised vectors come back unit length: {norm}");
    assert_eq!(int8_store.remove("m1").unwrap().embedding, Some(approx), "removal hands the vector back");
}

#[test]
fn removals_updates_and_compaction_keep_order_and_ranking() {
    for quantization in [Quantization::None, Quantization::Int8, Quantization::Auto] {
        let mut rng = Rng(11);
        let mut store = InMemoryVectorStore::new(quantization).with_int8_from(0);
        let mut rows: Vec<(String, Vec<f32>)> = (0..300).map(|i| (format!("m{i}"), rng.vector(32))).collect();
        for (id, v) in &rows {
            store.upsert(memory(id, if id.len() % 2 == 0 { "alice" } else { "bob" }, Some(v.clone()))).unwrap();
        }
        // Remove two thirds (compaction runs once tombstones outnumber the living), update some survivors.
        for i in (0..300).filter(|i| i % 3 != 0) {
            assert!(store.remove(&format!("m{i}")).is_some());
        }
        rows.retain(|(id, _)| id[1..].parse::<usize>().unwrap() % 3 == 0);
        for row in rows.iter_mut().step_by(7) {
            row.1 = rng.vector(32);
            store
                .upsert(memory(&row.0, if row.0.len() % 2 == 0 { "alice" } else { "bob" }, Some(row.1.clone())))
                .unwrap();
        }
        store.upsert(memory("late", "alice", Some(rng.vector(32)))).unwrap();
        assert_eq!(store.len(), rows.len() + 1);
        let listed: Vec<String> = store.list(usize::MAX, &|_| true).iter().map(|m| m.item.id.clone()).collect();
        let mut expected: Vec<String> = rows.iter().map(|(id, _)| id.clone()).collect();
        expected.push("late".into());
        assert_eq!(listed, expected, "{quantization:?}: insertion order survives removal and compaction");
        store.remove("late");
        for _ in 0..10 {
            let query = rng.vector(32);
            let want: Vec<String> = naive_top(&rows, &query, 5).into_iter().map(|(_, id)| id).collect();
            let got = ids(&store.search(&query, 5, &|_| true).unwrap());
            let overlap = got.iter().filter(|id| want.contains(id)).count();
            match quantization {
                Quantization::None | Quantization::Auto => assert_eq!(got, want),
                Quantization::Int8 => assert!(overlap >= 4, "{got:?} vs {want:?}"),
            }
        }
        for (id, v) in &rows {
            let stored = store.vector(id).unwrap();
            assert!(stored.iter().zip(v).all(|(a, b)| (a - b).abs() < 0.02), "{quantization:?} {id}");
        }
    }
}

#[test]
fn scope_pre_check_skips_other_scopes_before_the_predicate() {
    let mut rng = Rng(9);
    let mut store = InMemoryVectorStore::default();
    let scopes =
        [scope("alice", None), scope("alice", Some("helper")), scope("bob", None), scope("bob", Some("helper"))];
    for i in 0..2000 {
        store.upsert(memory_in(&format!("m{i}"), scopes[i % 4].clone(), Some(rng.vector(16)))).unwrap();
    }
    let calls = Cell::new(0);
    let counting = |_: &MemoryItem| {
        calls.set(calls.get() + 1);
        true
    };
    for (query_scope, seen) in [(scope("alice", None), [0, 1]), (scope("bob", Some("helper")), [3, 3])] {
        let query = rng.vector(16);
        calls.set(0);
        let fast = store.search_in_scope(&query, 10, &query_scope, (&counting, None)).unwrap();
        assert!(calls.get() < 200, "the predicate runs only for rows that make the cut: {}", calls.get());
        let slow = store.search(&query, 10, &|item| query_scope.contains(&item.scope)).unwrap();
        assert_eq!(ids(&fast), ids(&slow));
        assert_eq!(fast.len(), 10);
        for (_, hit) in &fast {
            assert!(seen.iter().any(|s| scopes[*s] == hit.item.scope), "{:?}", hit.item.scope);
        }
    }
    let only_even = |item: &MemoryItem| item.id[1..].parse::<usize>().unwrap() % 8 == 0;
    let query = rng.vector(16);
    let filtered = store.search_in_scope(&query, 5, &scope("alice", None), (&only_even, None)).unwrap();
    assert_eq!(filtered.len(), 5);
    assert!(filtered.iter().all(|(_, m)| only_even(&m.item)));
    let nobody = store.search_in_scope(&query, 5, &scope("carol", None), (&|_| true, None)).unwrap();
    assert!(nobody.is_empty());
}

#[test]
fn filters_on_the_best_rows_give_the_same_results_as_checking_every_row() {
    let mut rng = Rng(11);
    let rows: Vec<(String, Vec<f32>)> = (0..3000).map(|i| (format!("m{i}"), rng.vector(32))).collect();
    for quantization in [Quantization::None, Quantization::Int8, Quantization::Auto] {
        let mut store = InMemoryVectorStore::new(quantization).with_int8_from(1000);
        for (id, v) in &rows {
            store.upsert(memory(id, "alice", Some(v.clone()))).unwrap();
        }
        let number = |item: &MemoryItem| item.id[1..].parse::<usize>().unwrap();
        for _ in 0..5 {
            let query = rng.vector(32);
            let unfiltered: Vec<usize> =
                ids(&store.search(&query, 10, &|_| true).unwrap()).iter().map(|id| id[1..].parse().unwrap()).collect();
            // No row filtered out; one of the best filtered out; most rows filtered out.
            let best = unfiltered[0];
            let filters: [&dyn Fn(&MemoryItem) -> bool; 3] =
                [&|_| true, &|item| number(item) != best, &|item| number(item) % 7 == 0];
            for (which, keep) in filters.into_iter().enumerate() {
                let calls = Cell::new(0);
                let counting = |item: &MemoryItem| {
                    calls.set(calls.get() + 1);
                    keep(item)
                };
                let got = store.search(&query, 10, &counting).unwrap();
                let passing = |id: &String| keep(&memory(id, "alice", None).item);
                let kept: Vec<(String, Vec<f32>)> = rows.iter().filter(|(id, _)| passing(id)).cloned().collect();
                let want = naive_top(&kept, &query, 10);
                let found = want.iter().filter(|(_, id)| got.iter().any(|(_, m)| m.item.id == *id)).count();
                let least = if quantization == Quantization::Int8 { 8 } else { 10 };
                assert!(found >= least, "{quantization:?}, filter {which}: {found} of the 10 best that pass");
                assert!(got.iter().all(|(_, m)| keep(&m.item)), "{quantization:?}: only rows that pass");
                if quantization == Quantization::None {
                    assert_eq!(ids(&got), want.iter().map(|(_, id)| id.clone()).collect::<Vec<_>>());
                }
                if which == 0 {
                    // Nothing filtered out: the filter ran on the first scan's pool (1.5 × the candidates) only.
                    let pool = if quantization == Quantization::None { 15 } else { 108 };
                    assert!(calls.get() <= pool, "{quantization:?}: {} calls", calls.get());
                }
            }
        }
    }
}

/// 8,000 of alice's 64-d vectors around 40 centres (noise 0.6), in an `auto` index scanning int8 from 1,000.
struct Clustered {
    /// The generator after the rows, for queries.
    rng: Rng,
    centres: Vec<Vec<f32>>,
    rows: Vec<(String, Vec<f32>)>,
    store: InMemoryVectorStore,
}

fn alice_in_clusters(seed: u64) -> Clustered {
    let mut rng = Rng(seed);
    let centres: Vec<Vec<f32>> = (0..40).map(|_| rng.vector(64)).collect();
    let rows: Vec<(String, Vec<f32>)> = (0..8000).map(|i| (format!("m{i}"), rng.near(&centres[i % 40], 0.6))).collect();
    let mut store = InMemoryVectorStore::new(Quantization::Auto).with_int8_from(1000);
    for (id, v) in &rows {
        store.upsert(memory(id, "alice", Some(v.clone()))).unwrap();
    }
    Clustered { rng, centres, rows, store }
}

#[test]
fn auto_keeps_recall_for_a_fused_search_pool_of_a_thousand() {
    let Clustered { mut rng, centres, rows, store } = alice_in_clusters(21);
    for centre in centres.iter().take(5) {
        let query = rng.near(centre, 0.6);
        let want = naive_top(&rows, &query, 1000);
        let got = store.search(&query, 1000, &|_| true).unwrap();
        let found = want.iter().filter(|(_, id)| got.iter().any(|(_, m)| m.item.id == *id)).count();
        assert!(found >= 990, "{found} of the exact top 1000");
    }
}

#[test]
fn a_fused_pool_gives_its_head_exact_scores_and_its_tail_close_estimates() {
    let Clustered { mut rng, centres, rows, store } = alice_in_clusters(22);
    let alice = scope("alice", None);
    for centre in centres.iter().take(5) {
        let query = rng.near(centre, 0.6);
        let want = naive_top(&rows, &query, 1000);
        let exact: std::collections::HashMap<String, f64> =
            naive_top(&rows, &query, rows.len()).into_iter().map(|(score, id)| (id, score)).collect();
        let got = store.search_pool(&query, (1000, 40), &alice, (&|_| true, None)).unwrap();
        assert_eq!(got.len(), 1000);
        let score_of = |id: &str| got.iter().find(|(_, m)| m.item.id == id).map(|(s, _)| f64::from(*s));
        for (score, id) in want.iter().take(40) {
            let given = score_of(id).unwrap_or_else(|| panic!("{id} of the exact top 40 is missing"));
            assert!((given - score).abs() < 1e-5, "{id}: {given} against exact {score}");
        }
        for (score, memory) in &got {
            let error = (f64::from(*score) - exact[&memory.item.id]).abs();
            assert!(error < 0.01, "{}: off by {error}", memory.item.id);
        }
        let found = want.iter().filter(|(_, id)| score_of(id).is_some()).count();
        assert!(found >= 990, "{found} of the exact top 1000");
        let scores: Vec<f32> = got.iter().map(|(s, _)| *s).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first");
    }
}
