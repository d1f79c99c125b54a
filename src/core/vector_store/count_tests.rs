//! The default index's catalog answers (counts, pages, keys, hashes, centroids) against the trait's defaults,
//! which walk every memory, over mixed data: several scopes, every type, vectorless, soft-deleted,
//! expired and expiring, mem0 `expirationDate`, compressed originals, keyed rows; after updates, removals
//! and a compaction.

use serde_json::json;

use super::tests::scope;
use super::*;
use crate::core::filter::Filter;
use crate::core::model::memory_type::MemoryType;
use crate::core::read::Read;
use crate::core::retrieval::Window;

const NOW: &str = "2026-06-01T12:00:00.000Z";

/// The trait's default answers: only the required methods, delegated.
#[derive(Default)]
struct Walking(InMemoryVectorStore);

impl VectorStore for Walking {
    fn upsert(&mut self, memory: StoredMemory) -> Result<()> {
        self.0.upsert(memory)
    }
    fn remove(&mut self, id: &str) -> Option<StoredMemory> {
        self.0.remove(id)
    }
    fn get(&self, id: &str) -> Option<&StoredMemory> {
        self.0.get(id)
    }
    fn search(&self, query: &[f32], limit: usize, keep: Predicate) -> Result<Vec<(f32, &StoredMemory)>> {
        self.0.search(query, limit, keep)
    }
    fn list(&self, limit: usize, keep: Predicate) -> Vec<&StoredMemory> {
        self.0.list(limit, keep)
    }
    fn clear(&mut self) {
        self.0.clear()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn dimension(&self) -> Option<usize> {
        self.0.dimension()
    }
    fn vector(&self, id: &str) -> Option<Vec<f32>> {
        self.0.vector(id)
    }
    fn has_vector(&self, id: &str) -> bool {
        self.0.has_vector(id)
    }
}

fn scopes() -> Vec<Scope> {
    let run = Scope { run_id: Some("r1".into()), ..Scope::default() };
    vec![scope("alice", None), scope("alice", Some("helper")), scope("bob", None), run]
}

/// Memory `i` of a mix: its scope, type, vector, state and metadata vary with `i` and `round`.
fn mixed(i: usize, round: usize) -> StoredMemory {
    let mut vector: Vec<f32> = (0..8).map(|d| ((i * 7 + d * 3 + round) % 11) as f32 - 5.0).collect();
    vector[i % 8] += 20.0;
    let mut item = MemoryItem {
        id: format!("m{i}"),
        memory: format!("text {}", i % 37),
        hash: format!("hash {}", (i + round) % 37),
        metadata: Default::default(),
        score: None,
        fused_score: None,
        created_at: format!("2026-05-{:02}T00:00:00.000Z", 1 + i % 28),
        updated_at: String::new(),
        scope: scopes()[(i + round) % 4].clone(),
        lifecycle: Default::default(),
    };
    let life = &mut item.lifecycle;
    life.memory_type = MemoryType::ALL[(i / 3) % MemoryType::ALL.len()];
    life.importance = (i % 10) as f64 / 10.0;
    match (i + round) % 13 {
        1 => life.deleted_at = Some("2026-05-01T00:00:00.000Z".into()),
        2 => life.expires_at = Some("2026-05-30T00:00:00.000Z".into()),
        3 => life.expires_at = Some("2026-07-01T00:00:00.000Z".into()),
        4 => drop(item.metadata.insert("expiration_date".into(), json!("2026-01-01"))),
        5 => drop(item.metadata.insert("expiration_date".into(), json!("2099-01-01"))),
        6 => drop(item.metadata.insert("compressed".into(), json!(true))),
        7 => drop(item.metadata.insert("category".into(), json!("work"))),
        _ => {}
    }
    if i % 5 == 0 {
        item.lifecycle.key = Some(format!("k{}", i % 15));
    }
    StoredMemory { item, embedding: (i % 9 != 4).then_some(vector) }
}

fn reads() -> Vec<Read> {
    let mut reads = Vec::new();
    for scope in scopes().into_iter().chain([scope("carol", None), Scope::default()]) {
        let base = Read::of(scope, 10);
        reads.push(base.clone());
        reads.push(Read { memory_types: Some(vec![MemoryType::Episodic, MemoryType::Working]), ..base.clone() });
        reads.push(Read { memory_types: Some(vec![]), ..base.clone() });
        reads.push(Read { include_deleted: true, show_expired: true, ..base.clone() });
        reads.push(Read { window: Window { include_compressed: true, ..Window::default() }, ..base.clone() });
        reads.push(Read { window: Window { start: Some(1_780_000_000_000), ..Window::default() }, ..base.clone() });
        reads.push(Read { importance_floor: Some(0.5), ..base.clone() });
        reads.push(Read { participant: Some("alice".into()), ..base.clone() });
        let filter = Filter::parse(&json!({"category": "work"})).unwrap();
        reads.push(Read { filter: Some(filter), ..base });
    }
    reads
}

/// Every answer of `fast` equals `exact`'s.
fn agree(fast: &InMemoryVectorStore, exact: &Walking) {
    for read in reads() {
        let keep = |item: &MemoryItem| read.keeps(item, NOW);
        for vectorless in [false, true] {
            let want = exact.count(&Count { keep: &keep, vectorless, plain: None });
            let got = fast.count(&Count { keep: &keep, vectorless, plain: read.plain() });
            assert_eq!(got, want, "{read:?} vectorless {vectorless}");
        }
        for (offset, limit) in [(0, 10), (3, 5), (40, 100), (500, 10)] {
            let listing = Listing { scope: &read.scope, keep: &keep, plain: read.plain(), now: NOW, offset, limit };
            let (got, want) = (fast.list_page(&listing), exact.list_page(&listing));
            let ids = |memories: &[&StoredMemory]| memories.iter().map(|m| m.item.id.clone()).collect::<Vec<_>>();
            assert_eq!((ids(&got.page), got.total), (ids(&want.page), want.total), "{read:?} from {offset}");
            assert_eq!(ids(&got.expired), ids(&want.expired), "{read:?}");
        }
    }
    for read in reads() {
        searches_agree(fast, exact, &read);
    }
    for scope in scopes() {
        for key in (0..15).map(|k| format!("k{k}")) {
            let id = |m: Option<&StoredMemory>| m.map(|m| m.item.id.clone());
            assert_eq!(id(fast.find_by_key(&scope, &key)), id(exact.find_by_key(&scope, &key)), "{scope:?} {key}");
        }
        for hash in (0..37).map(|h| format!("hash {h}")) {
            let live = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(NOW);
            let id = |m: Option<&StoredMemory>| m.map(|m| m.item.id.clone());
            assert_eq!(id(fast.find_by_hash(&hash, &live)), id(exact.find_by_hash(&hash, &live)), "{hash}");
        }
    }
    for scope in scopes().into_iter().chain([scope("alice", None), scope("carol", None)]) {
        let (got, want) = (fast.centroid(&scope, NOW), exact.centroid(&scope, NOW));
        assert_eq!(got.is_some(), want.is_some(), "{scope:?}");
        for (g, w) in got.unwrap_or_default().iter().zip(want.unwrap_or_default()) {
            assert!((g - w).abs() < 1e-9, "{scope:?}: {g} against {w}");
        }
    }
}

/// A search in `read`'s scope told what its predicate comes down to for plain memories finds what the
/// walking default finds, scores included, and runs the predicate on none of the plain ones.
fn searches_agree(fast: &InMemoryVectorStore, exact: &Walking, read: &Read) {
    let calls = std::cell::Cell::new(0);
    let keep = |item: &MemoryItem| read.keeps(item, NOW);
    let counted = |item: &MemoryItem| {
        calls.set(calls.get() + 1);
        assert!(read.plain().is_none() || !count::is_plain(item), "the predicate ran on plain {}", item.id);
        keep(item)
    };
    let hits = |found: Vec<(f32, &StoredMemory)>| {
        found.into_iter().map(|(score, m)| (score.to_bits(), m.item.id.clone())).collect::<Vec<_>>()
    };
    for (limit, query) in [(1, [1.0; 8]), (10, [0.5, -1.0, 2.0, 0.0, 1.0, 3.0, -2.0, 1.0]), (1000, [1.0; 8])] {
        let got = hits(fast.search_in_scope(&query, limit, &read.scope, (&counted, read.plain())).unwrap());
        let want = hits(exact.search_in_scope(&query, limit, &read.scope, (&keep, None)).unwrap());
        assert_eq!(got, want, "{read:?} limit {limit}");
        let ran = calls.replace(0) > 0;
        assert!(
            ran || read.plain().is_some() || got.is_empty(),
            "{read:?}: a read that is not plain runs its predicate"
        );
    }
}

#[test]
fn catalog_answers_equal_the_walking_defaults_through_updates_removals_and_compaction() {
    for quantization in [Quantization::None, Quantization::Int8, Quantization::Auto] {
        let mut fast = InMemoryVectorStore::new(quantization);
        let mut exact = Walking(InMemoryVectorStore::new(quantization));
        for i in 0..240 {
            fast.upsert(mixed(i, 0)).unwrap();
            exact.upsert(mixed(i, 0)).unwrap();
        }
        agree(&fast, &exact);
        // Rewrites change scope, hash, state, key and vector of a third of them.
        for i in (0..240).step_by(3) {
            fast.upsert(mixed(i, 1)).unwrap();
            exact.upsert(mixed(i, 1)).unwrap();
        }
        agree(&fast, &exact);
        // Removing most of them compacts the slots.
        for i in (0..240).filter(|i| i % 4 != 1) {
            let id = format!("m{i}");
            assert_eq!(fast.remove(&id).is_some(), exact.remove(&id).is_some());
        }
        agree(&fast, &exact);
        for i in 240..300 {
            fast.upsert(mixed(i, 2)).unwrap();
            exact.upsert(mixed(i, 2)).unwrap();
        }
        agree(&fast, &exact);
    }
}

/// `memories` as an open hands them over: the memories without vectors, then the rows in one chunk.
fn packed_mix(memories: Vec<StoredMemory>) -> crate::core::packed::Packed {
    let mut owners = Vec::new();
    let mut values = Vec::new();
    let mut bare = Vec::new();
    for (at, mut memory) in memories.into_iter().enumerate() {
        if let Some(vector) = memory.embedding.take() {
            owners.push(Some(at as u32));
            values.extend(vector);
        }
        bare.push(memory);
    }
    super::bulk_tests::packed(bare, vec![(8, owners, values)])
}

#[test]
fn catalog_answers_equal_the_walking_defaults_after_bulk_loads() {
    for quantization in [Quantization::None, Quantization::Int8, Quantization::Auto] {
        let mut fast = InMemoryVectorStore::new(quantization);
        let mut exact = Walking(InMemoryVectorStore::new(quantization));
        fast.load_packed(packed_mix((0..200).map(|i| mixed(i, 0)).collect())).unwrap();
        (0..200).for_each(|i| exact.upsert(mixed(i, 0)).unwrap());
        agree(&fast, &exact);
        // A second load over the first rewrites memories that already have a vector.
        fast.load_packed(packed_mix((100..260).map(|i| mixed(i, 3)).collect())).unwrap();
        (100..260).for_each(|i| exact.upsert(mixed(i, 3)).unwrap());
        agree(&fast, &exact);
    }
}

#[test]
fn plain_reads_are_those_that_look_no_further_than_scope_and_type() {
    let base = Read::of(scope("alice", None), 10);
    let plain = base.plain().unwrap();
    assert!(plain.passes(&scope("alice", Some("helper")), MemoryType::Episodic));
    assert!(!plain.passes(&scope("bob", None), MemoryType::Semantic));
    let typed = Read { memory_types: Some(vec![MemoryType::Profile]), ..base.clone() };
    assert!(typed.plain().unwrap().passes(&scope("alice", None), MemoryType::Profile));
    assert!(!typed.plain().unwrap().passes(&scope("alice", None), MemoryType::Semantic));
    assert!(Read { importance_floor: Some(0.2), ..base.clone() }.plain().is_none());
    assert!(Read { participant: Some("alice".into()), ..base }.plain().is_none());
}
