//! A bounded top-k selection: O(n log k) instead of sorting every hit. Higher scores win; among equal
//! scores the lower slot (the older memory) wins, so results are deterministic.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A hit: its score and the slot it came from.
#[derive(Debug, Clone, Copy)]
struct Hit {
    score: f32,
    slot: u32,
}

impl Hit {
    /// `Greater` when `self` ranks below `other` (so the heap's top is the weakest hit kept).
    #[inline(always)]
    fn weakness(&self, other: &Self) -> Ordering {
        other.score.total_cmp(&self.score).then(self.slot.cmp(&other.slot))
    }
}

impl PartialEq for Hit {
    fn eq(&self, other: &Self) -> bool {
        self.weakness(other) == Ordering::Equal
    }
}
impl Eq for Hit {}
impl PartialOrd for Hit {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Hit {
    fn cmp(&self, other: &Self) -> Ordering {
        self.weakness(other)
    }
}

/// The best `limit` hits seen so far.
#[derive(Debug)]
pub struct TopK {
    limit: usize,
    heap: BinaryHeap<Hit>,
}

impl TopK {
    /// Keeps at most `limit` hits; `expected` (an upper bound on the hits offered) sizes the heap.
    pub fn new(limit: usize, expected: usize) -> Self {
        Self { limit, heap: BinaryHeap::with_capacity(limit.min(expected)) }
    }

    /// True when a hit with this score and slot would be kept (NaN never is).
    #[inline(always)]
    pub fn admits(&self, score: f32, slot: u32) -> bool {
        if score.is_nan() || self.limit == 0 {
            return false;
        }
        match self.heap.peek() {
            Some(weakest) if self.heap.len() >= self.limit => Hit { score, slot }.weakness(weakest) == Ordering::Less,
            _ => true,
        }
    }

    /// Keeps the hit if it makes the cut, dropping the weakest when full.
    pub fn push(&mut self, score: f32, slot: u32) {
        if !self.admits(score, slot) {
            return;
        }
        if self.heap.len() >= self.limit {
            self.heap.pop();
        }
        self.heap.push(Hit { score, slot });
    }

    /// The hits kept, best first.
    pub fn into_sorted(self) -> Vec<(f32, u32)> {
        self.heap.into_sorted_vec().into_iter().map(|hit| (hit.score, hit.slot)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_best_with_older_slots_winning_ties() {
        let mut top = TopK::new(3, 10);
        for (slot, score) in [0.1, 0.9, 0.5, 0.9, 0.3, 0.7, f32::NAN].into_iter().enumerate() {
            top.push(score, slot as u32);
        }
        assert!(!top.admits(0.5, 0));
        assert!(top.admits(0.7, 4));
        assert_eq!(top.into_sorted(), [(0.9, 1), (0.9, 3), (0.7, 5)]);
    }

    #[test]
    fn limit_zero_and_fewer_hits_than_the_limit() {
        let mut none = TopK::new(0, 5);
        none.push(1.0, 0);
        assert!(none.into_sorted().is_empty());
        let mut wide = TopK::new(usize::MAX, 2);
        wide.push(0.2, 7);
        wide.push(0.4, 3);
        assert_eq!(wide.into_sorted(), [(0.4, 3), (0.2, 7)]);
    }
}
