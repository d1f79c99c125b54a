//! Bulk loads ([`VectorStore::load_packed`]) against one `upsert` per memory: rows land exactly in their
//! memory's slot whatever the chunk order, `auto` quantization scans int8 codes above its threshold as an
//! upserted store does, and bad rows are refused as `upsert` refuses them.

use super::tests::memory;
use super::*;
use crate::core::error::MemoryError;
use crate::core::model::types::MemoryItem;
use crate::core::packed::{Packed, RowChunk, RowSource};

/// One chunk: (dim, owners, values).
pub(super) type Chunk = (usize, Vec<Option<u32>>, Vec<f32>);

/// Hands out its chunks in order.
struct Rows(std::vec::IntoIter<Chunk>, Option<Chunk>);

impl RowSource for Rows {
    fn next_chunk(&mut self) -> Option<RowChunk<'_>> {
        self.1 = Some(self.0.next()?);
        let (dim, owners, values) = self.1.as_ref()?;
        Some(RowChunk { dim: *dim, owners, values })
    }
}

pub(super) fn packed(memories: Vec<StoredMemory>, chunks: Vec<Chunk>) -> Packed {
    Packed::new(memories, Box::new(Rows(chunks.into_iter(), None)))
}

fn user(user: &str) -> Scope {
    super::tests::scope(user, None)
}

fn vector(seed: usize, dim: usize) -> Vec<f32> {
    let raw = (0..dim).map(|i| ((seed * 31 + i * 7) % 97) as f32 - 48.0 + (seed as f32).sin()).collect();
    normalized(raw).unwrap()
}

/// `n` memories and their vectors packed in chunks of `per_chunk` rows, the chunks in reverse order and
/// the rows of each reversed, so row order never matches memory order.
fn shuffled(n: usize, dim: usize, per_chunk: usize) -> (Vec<StoredMemory>, Vec<Chunk>) {
    let memories = (0..n).map(|i| memory(&format!("m{i}"), if i % 2 == 0 { "alice" } else { "bob" }, None)).collect();
    let owners: Vec<usize> = (0..n).collect();
    let mut chunks: Vec<_> = owners
        .chunks(per_chunk)
        .map(|rows| {
            let rows: Vec<usize> = rows.iter().rev().copied().collect();
            (dim, rows.iter().map(|i| Some(*i as u32)).collect(), rows.iter().flat_map(|i| vector(*i, dim)).collect())
        })
        .collect();
    chunks.reverse();
    (memories, chunks)
}

#[test]
fn rows_land_in_their_memorys_slot_whatever_the_order() {
    let (memories, chunks) = shuffled(50, 20, 7);
    let mut store = InMemoryVectorStore::new(Quantization::None);
    store.load_packed(packed(memories, chunks)).unwrap();
    assert_eq!(store.len(), 50);
    for i in 0..50 {
        assert_eq!(store.vector(&format!("m{i}")), Some(vector(i, 20)), "m{i}: the exact values");
    }
    let listed: Vec<_> = store.list(usize::MAX, &|_| true).iter().map(|m| m.item.id.clone()).collect();
    assert_eq!(listed, (0..50).map(|i| format!("m{i}")).collect::<Vec<_>>(), "the memories' order, not the rows'");
    let bob = |item: &MemoryItem| item.scope.user_id.as_deref() == Some("bob");
    let hits = store.search(&vector(7, 20), 3, &|_| true).unwrap();
    assert_eq!((hits[0].1.item.id.as_str(), hits[0].1.embedding.is_none()), ("m7", true));
    let scoped = store.search_in_scope(&vector(8, 20), 50, &user("bob"), (&bob, None)).unwrap();
    assert_eq!(scoped.len(), 25, "every bob memory, found by its interned scope");
}

#[test]
fn memories_without_a_row_keep_their_own_vector_or_none() {
    let memories = vec![memory("own", "u", Some(vec![0.0, 3.0])), memory("row", "u", None), memory("none", "u", None)];
    let rows = vec![(2, vec![None, Some(1)], vec![9.0, 9.0, 0.6, 0.8])];
    let mut store = InMemoryVectorStore::default();
    store.load_packed(packed(memories, rows)).unwrap();
    assert_eq!(store.vector("own"), Some(vec![0.0, 1.0]), "normalised, as upsert does");
    assert_eq!(store.vector("row"), Some(vec![0.6, 0.8]));
    assert_eq!(store.vector("none"), None, "listed, never searched");
    assert_eq!(store.search(&[1.0, 0.0], 10, &|_| true).unwrap().len(), 2);
}

#[test]
fn auto_above_its_threshold_matches_a_store_filled_by_upsert() {
    let (memories, chunks) = shuffled(300, 48, 41);
    let upserted = {
        let mut store = InMemoryVectorStore::new(Quantization::Auto).with_int8_from(100);
        store.reserve(memories.len());
        for (i, mut memory) in memories.clone().into_iter().enumerate() {
            memory.embedding = Some(vector(i, 48));
            store.upsert(memory).unwrap();
        }
        store
    };
    let mut bulk = InMemoryVectorStore::new(Quantization::Auto).with_int8_from(100);
    bulk.load_packed(packed(memories, chunks)).unwrap();
    assert_eq!(bulk.vector_bytes(), upserted.vector_bytes(), "f32 rows and int8 codes, allocated once");
    for seed in [3, 150, 299, 1000] {
        let query = vector(seed, 48);
        let expected = upserted.search(&query, 10, &|_| true).unwrap();
        let found = bulk.search(&query, 10, &|_| true).unwrap();
        let pairs =
            |hits: &[(f32, &StoredMemory)]| hits.iter().map(|(s, m)| (*s, m.item.id.clone())).collect::<Vec<_>>();
        assert_eq!(pairs(&found), pairs(&expected), "query {seed}: same int8 scan, same rescored scores");
    }
    assert_eq!(bulk.search(&vector(150, 48), 1, &|_| true).unwrap()[0].1.item.id, "m150");
}

#[test]
fn an_update_in_the_batch_and_a_store_already_filled_keep_slots_right() {
    let mut store = InMemoryVectorStore::default();
    store.upsert(memory("old", "u", Some(vec![1.0, 0.0]))).unwrap();
    store.upsert(memory("kept", "u", Some(vec![0.0, 1.0]))).unwrap();
    // "old" is replaced, "new" appended; "dup" comes twice: its later record and row win.
    let memories =
        vec![memory("old", "u", None), memory("dup", "u", None), memory("new", "u", None), memory("dup", "v", None)];
    let rows = vec![(2, vec![Some(2), Some(0), Some(1), Some(3)], vec![0.6, 0.8, 0.8, 0.6, 1.0, 0.0, 0.0, -1.0])];
    store.load_packed(packed(memories, rows)).unwrap();
    assert_eq!(store.len(), 4);
    assert_eq!(store.vector("kept"), Some(vec![0.0, 1.0]));
    assert_eq!(store.vector("old"), Some(vec![0.8, 0.6]));
    assert_eq!(store.vector("new"), Some(vec![0.6, 0.8]));
    assert_eq!(store.vector("dup"), Some(vec![0.0, -1.0]));
    assert_eq!(store.get("dup").unwrap().item.scope.user_id.as_deref(), Some("v"));
    let listed: Vec<_> = store.list(9, &|_| true).iter().map(|m| m.item.id.clone()).collect();
    assert_eq!(listed, ["old", "kept", "dup", "new"]);
}

#[test]
fn bad_rows_are_refused_as_upsert_refuses_them() {
    let two = || vec![memory("a", "u", None), memory("b", "u", None)];
    let mismatch = vec![(2, vec![Some(0)], vec![1.0, 0.0]), (3, vec![Some(1)], vec![1.0, 0.0, 0.0])];
    let error = InMemoryVectorStore::default().load_packed(packed(two(), mismatch)).unwrap_err();
    assert!(matches!(error, MemoryError::DimensionMismatch { expected: 2, actual: 3 }), "{error:?}");
    for bad in [[0.0, 0.0], [f32::NAN, 1.0]] {
        let error = InMemoryVectorStore::default().load_packed(packed(two(), vec![(2, vec![Some(1)], bad.to_vec())]));
        assert_eq!(error.unwrap_err().code(), "INVALID_INPUT");
    }
    // Rows past the memories, and a chunk of dimension 0, are ignored.
    let stray = vec![(2, vec![Some(7), None], vec![1.0, 0.0, 0.0, 1.0]), (0, vec![Some(0)], vec![])];
    let mut store = InMemoryVectorStore::default();
    store.load_packed(packed(two(), stray)).unwrap();
    assert_eq!((store.len(), store.dimension()), (2, None));
}

#[test]
fn the_default_path_attaches_each_row_to_its_memory() {
    let (memories, chunks) = shuffled(10, 4, 3);
    let memories = packed(memories, chunks).into_memories();
    for (i, memory) in memories.iter().enumerate() {
        assert_eq!(memory.embedding, Some(vector(i, 4)), "m{i}");
    }
}

#[test]
fn rows_in_slot_order_with_gaps_match_a_store_filled_by_upsert() {
    // Every third memory has no row: its slot stays a zero row between rows that are loaded.
    let memories: Vec<_> = (0..200).map(|i| memory(&format!("m{i}"), "u", None)).collect();
    let with_rows: Vec<usize> = (0..200).filter(|i| i % 3 != 1).collect();
    let owners = with_rows.iter().map(|i| Some(*i as u32)).collect();
    let rows = vec![(24, owners, with_rows.iter().flat_map(|i| vector(*i, 24)).collect())];
    for quantization in [Quantization::None, Quantization::Int8, Quantization::Auto] {
        let mut upserted = InMemoryVectorStore::new(quantization).with_int8_from(50);
        for (i, mut memory) in memories.clone().into_iter().enumerate() {
            memory.embedding = (i % 3 != 1).then(|| vector(i, 24));
            upserted.upsert(memory).unwrap();
        }
        let mut bulk = InMemoryVectorStore::new(quantization).with_int8_from(50);
        bulk.load_packed(packed(memories.clone(), rows.clone())).unwrap();
        let stride = 24usize.div_ceil(super::kernels::LANES) * super::kernels::LANES;
        let exact = 200
            * stride
            * match quantization {
                Quantization::None => 4,
                Quantization::Int8 => 1,
                Quantization::Auto => 5,
            }
            + if quantization == Quantization::None { 0 } else { 200 * 4 };
        assert_eq!(bulk.vector_bytes(), exact, "{quantization:?}: allocated once");
        for i in [0, 1, 2, 199] {
            assert_eq!(bulk.vector(&format!("m{i}")), upserted.vector(&format!("m{i}")), "{quantization:?} m{i}");
        }
        let pairs =
            |hits: Vec<(f32, &StoredMemory)>| hits.iter().map(|(s, m)| (*s, m.item.id.clone())).collect::<Vec<_>>();
        let query = vector(77, 24);
        let expected = pairs(upserted.search(&query, 200, &|_| true).unwrap());
        assert_eq!(pairs(bulk.search(&query, 200, &|_| true).unwrap()), expected, "{quantization:?}");
        assert_eq!(expected.len(), with_rows.len());
    }
}

#[test]
fn a_load_refused_half_way_leaves_a_store_that_reads_what_it_holds() {
    let memories = vec![memory("a", "u", None), memory("b", "u", None), memory("c", "u", None)];
    let rows = vec![(2, vec![Some(0)], vec![1.0, 0.0]), (3, vec![Some(2)], vec![1.0, 0.0, 0.0])];
    let mut store = InMemoryVectorStore::default();
    assert!(store.load_packed(packed(memories, rows)).is_err());
    assert_eq!(store.vector("a"), Some(vec![1.0, 0.0]));
    assert_eq!(store.vector("c"), None);
    let hits = store.search(&[0.0, 1.0], 10, &|_| true).unwrap();
    assert_eq!(hits.iter().map(|(_, m)| m.item.id.as_str()).collect::<Vec<_>>(), ["a"]);
    store.upsert(memory("d", "u", Some(vec![0.0, 2.0]))).unwrap();
    assert_eq!(store.search(&[0.0, 1.0], 1, &|_| true).unwrap()[0].1.item.id, "d");
}

#[test]
fn the_scope_centroid_after_a_bulk_load_is_the_mean_of_its_vectors_before_and_after_writes() {
    const NOW: &str = "2030-01-01T00:00:00Z";
    let agree = |store: &InMemoryVectorStore, when: &str| {
        for user in ["alice", "bob", "carol"] {
            let scope = super::tests::scope(user, None);
            let members = store.list(usize::MAX, &|item| scope.contains(&item.scope));
            let want = super::centroid(members.iter().filter_map(|m| store.vector(&m.item.id)));
            let got = store.centroid(&scope, NOW);
            assert_eq!(got.is_some(), want.is_some(), "{when}, {user}");
            for (g, w) in got.unwrap_or_default().iter().zip(want.unwrap_or_default()) {
                assert!((g - w).abs() < 1e-9, "{when}, {user}: {g} against {w}");
            }
        }
    };
    let (memories, chunks) = shuffled(60, 8, 7);
    let mut store = InMemoryVectorStore::default();
    store.load_packed(packed(memories.clone(), chunks.clone())).unwrap();
    store.upsert(memory("late", "alice", Some(vector(100, 8)))).unwrap();
    store.remove("m3");
    store.upsert(memory("m4", "bob", Some(vector(101, 8)))).unwrap();
    agree(&store, "writes before the first centroid");
    store.upsert(memory("later", "carol", Some(vector(102, 8)))).unwrap();
    store.remove("m6");
    store.upsert(memory("m5", "alice", Some(vector(103, 8)))).unwrap();
    agree(&store, "writes after it");
    let mut filled = InMemoryVectorStore::default();
    filled.upsert(memory("first", "carol", Some(vector(104, 8)))).unwrap();
    filled.load_packed(packed(memories, chunks)).unwrap();
    agree(&filled, "a load into a store already holding memories");
}
