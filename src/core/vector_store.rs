//! The search index: every memory of the instance in RAM, searched by brute-force cosine similarity
//! (seed 000 §6.2). Persistence is separate (see `storage`); this is what queries read.

use std::collections::HashMap;

use super::error::{MemoryError, Result};
use super::types::{MemoryItem, StoredMemory};

/// A predicate over memories, used for scope and filter checks.
pub type Predicate<'a> = &'a dyn Fn(&MemoryItem) -> bool;

/// A pluggable in-RAM index of memories and their vectors.
pub trait VectorStore {
    /// Inserts or replaces a memory (by id). Its vector must be unit length.
    fn upsert(&mut self, memory: StoredMemory) -> Result<()>;
    /// Removes a memory, returning it.
    fn remove(&mut self, id: &str) -> Option<StoredMemory>;
    /// The memory with this id.
    fn get(&self, id: &str) -> Option<&StoredMemory>;
    /// Up to `limit` memories passing `keep`, most similar to the unit vector `query` first.
    fn search(&self, query: &[f32], limit: usize, keep: Predicate) -> Result<Vec<(f32, &StoredMemory)>>;
    /// Up to `limit` memories passing `keep`, oldest first.
    fn list(&self, limit: usize, keep: Predicate) -> Vec<&StoredMemory>;
    /// Forgets everything.
    fn clear(&mut self);
    /// How many memories are held.
    fn len(&self) -> usize;
    /// The vector length the index holds, once it holds any vector.
    fn dimension(&self) -> Option<usize>;
    /// True when no memory is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The first memory passing `keep` whose text has this hash (exact-duplicate detection).
    fn find_by_hash(&self, hash: &str, keep: Predicate) -> Option<&StoredMemory> {
        self.list(usize::MAX, &|item| item.hash == hash && keep(item)).into_iter().next()
    }
}

/// Scales `vector` to unit length; a zero or non-finite vector is rejected.
pub fn normalized(mut vector: Vec<f32>) -> Option<Vec<f32>> {
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if !norm.is_finite() || norm == 0.0 {
        return None;
    }
    vector.iter_mut().for_each(|x| *x /= norm);
    Some(vector)
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The default store: a hash map plus insertion order, scanned linearly.
#[derive(Debug, Default)]
pub struct InMemoryVectorStore {
    entries: HashMap<String, (u64, StoredMemory)>,
    next_seq: u64,
    dimension: Option<usize>,
}

impl InMemoryVectorStore {
    fn check_dimension(&self, vector: &[f32]) -> Result<()> {
        match self.dimension {
            Some(expected) if expected != vector.len() => {
                Err(MemoryError::DimensionMismatch { expected, actual: vector.len() })
            }
            _ => Ok(()),
        }
    }
}

impl VectorStore for InMemoryVectorStore {
    fn upsert(&mut self, memory: StoredMemory) -> Result<()> {
        if let Some(vector) = &memory.embedding {
            self.check_dimension(vector)?;
            self.dimension = Some(vector.len());
        }
        let seq = match self.entries.get(&memory.item.id) {
            Some((seq, _)) => *seq,
            None => {
                self.next_seq += 1;
                self.next_seq
            }
        };
        self.entries.insert(memory.item.id.clone(), (seq, memory));
        Ok(())
    }

    fn remove(&mut self, id: &str) -> Option<StoredMemory> {
        let removed = self.entries.remove(id).map(|(_, memory)| memory);
        if self.entries.is_empty() {
            self.dimension = None;
        }
        removed
    }

    fn get(&self, id: &str) -> Option<&StoredMemory> {
        self.entries.get(id).map(|(_, memory)| memory)
    }

    fn search(&self, query: &[f32], limit: usize, keep: Predicate) -> Result<Vec<(f32, &StoredMemory)>> {
        self.check_dimension(query)?;
        let mut hits: Vec<(f32, u64, &StoredMemory)> = self
            .entries
            .values()
            .filter(|(_, memory)| keep(&memory.item))
            .filter_map(|(seq, memory)| memory.embedding.as_deref().map(|vector| (dot(query, vector), *seq, memory)))
            .collect();
        hits.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        Ok(hits.into_iter().take(limit).map(|(score, _, memory)| (score, memory)).collect())
    }

    fn list(&self, limit: usize, keep: Predicate) -> Vec<&StoredMemory> {
        let mut found: Vec<&(u64, StoredMemory)> = self.entries.values().filter(|(_, m)| keep(&m.item)).collect();
        found.sort_by_key(|(seq, _)| *seq);
        found.into_iter().take(limit).map(|(_, memory)| memory).collect()
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.dimension = None;
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn dimension(&self) -> Option<usize> {
        self.dimension
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scope::Scope;

    fn memory(id: &str, user: &str, vector: Option<Vec<f32>>) -> StoredMemory {
        StoredMemory {
            item: MemoryItem {
                id: id.into(),
                memory: format!("text {id}"),
                hash: format!("hash {id}"),
                metadata: Default::default(),
                score: None,
                created_at: String::new(),
                updated_at: String::new(),
                scope: Scope { user_id: Some(user.into()), ..Scope::default() },
            },
            embedding: vector.and_then(normalized),
        }
    }

    fn store() -> InMemoryVectorStore {
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
    }

    #[test]
    fn search_ranks_by_cosine_within_the_predicate_and_limit() {
        let store = store();
        let alice = |item: &MemoryItem| item.scope.user_id.as_deref() == Some("alice");
        let hits = store.search(&[1.0, 0.0, 0.0], 10, &alice).unwrap();
        let ids: Vec<_> = hits.iter().map(|(_, m)| m.item.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "d"]);
        assert!((hits[0].0 - 1.0).abs() < 1e-6 && (hits[1].0 - 0.8).abs() < 1e-6 && hits[2].0.abs() < 1e-6);
        assert_eq!(store.search(&[1.0, 0.0, 0.0], 2, &alice).unwrap().len(), 2);
        assert_eq!(store.search(&[1.0, 0.0, 0.0], 10, &|_| false).unwrap().len(), 0);
    }

    #[test]
    fn list_keeps_insertion_order_across_updates() {
        let mut store = store();
        store.upsert(memory("a", "alice", Some(vec![0.0, 1.0, 0.0]))).unwrap();
        let ids: Vec<_> = store.list(10, &|_| true).iter().map(|m| m.item.id.clone()).collect();
        assert_eq!(ids, ["a", "b", "c", "d", "e"]);
        assert_eq!(store.list(2, &|_| true).len(), 2);
        assert_eq!(store.find_by_hash("hash c", &|_| true).unwrap().item.id, "c");
        assert!(store.find_by_hash("hash c", &|item| item.scope.user_id.as_deref() == Some("alice")).is_none());
    }

    #[test]
    fn dimension_mismatch_is_an_error_not_a_wrong_answer() {
        let mut store = store();
        let error = store.upsert(memory("x", "alice", Some(vec![1.0, 0.0]))).unwrap_err();
        assert_eq!(error, MemoryError::DimensionMismatch { expected: 3, actual: 2 });
        assert!(store.search(&[1.0, 0.0], 3, &|_| true).is_err());
        assert!(store.get("x").is_none());
    }

    #[test]
    fn remove_and_clear() {
        let mut store = store();
        assert_eq!(store.remove("a").unwrap().item.id, "a");
        assert!(store.remove("a").is_none());
        assert_eq!(store.len(), 4);
        store.clear();
        assert!(store.is_empty());
        store.upsert(memory("z", "alice", Some(vec![1.0, 2.0]))).unwrap();
    }
}
