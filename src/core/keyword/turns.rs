//! The order of conversation turns: messages stored as they were said, ordered by creation time, then by
//! insertion. Within a searched scope each turn has the turn before it and the turn after it, which
//! keyword search reads as context and fused search as neighbours.

use std::collections::{BTreeSet, HashMap};

use super::bm25::IdPredicate;

/// A turn's neighbours in the searched scope.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Around<'a> {
    pub before: Option<&'a str>,
    pub after: Option<&'a str>,
}

/// Turn id → its neighbours in the searched scope.
pub type Neighbours<'a> = HashMap<&'a str, Around<'a>>;

/// Every indexed turn as (creation time, insertion order, id), in order.
#[derive(Debug, Default)]
pub struct TurnOrder(BTreeSet<(String, u64, String)>);

impl TurnOrder {
    pub fn insert(&mut self, created_at: &str, seq: u64, id: &str) {
        self.0.insert((created_at.to_owned(), seq, id.to_owned()));
    }

    pub fn remove(&mut self, created_at: &str, seq: u64, id: &str) {
        self.0.remove(&(created_at.to_owned(), seq, id.to_owned()));
    }

    /// The turns passing `corpus`, each with the one before and after it among them.
    pub fn neighbours(&self, corpus: IdPredicate) -> Neighbours<'_> {
        let order: Vec<&str> = self.0.iter().map(|(_, _, id)| id.as_str()).filter(|id| corpus(id)).collect();
        order
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                let before = i.checked_sub(1).map(|j| order[j]);
                (id, Around { before, after: order.get(i + 1).copied() })
            })
            .collect()
    }
}
