//! A bounded top-k selection: hits that beat the current floor go to a buffer, and when the buffer is full
//! the best `limit` are selected (`select_nth_unstable`, linear) and the floor raised: O(n) for a scan,
//! however large `limit` (a fused search draws a thousand), where a heap pays O(log k) per hit kept. Higher
//! scores win; among equal scores the lower slot (the older memory) wins, so results are deterministic.
//! Each hit is one `u64` ([`Key`]), so that selecting and sorting compare integers.

/// A hit as one number that sorts best first: the score's bits mapped onto `total_cmp`'s order and
/// flipped (a higher score is a smaller key), then the slot (the lower slot first among equal scores).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key(u64);

impl Key {
    #[inline(always)]
    fn new(score: f32, slot: u32) -> Self {
        let bits = score.to_bits();
        // Ascending in `total_cmp`'s order: negatives reversed below the positives.
        let ascending = if bits >> 31 == 1 { !bits } else { bits | 1 << 31 };
        Self(u64::from(!ascending) << 32 | u64::from(slot))
    }

    #[inline(always)]
    fn hit(self) -> (f32, u32) {
        let ascending = !((self.0 >> 32) as u32);
        let bits = if ascending >> 31 == 1 { ascending & !(1 << 31) } else { !ascending };
        (f32::from_bits(bits), self.0 as u32)
    }
}

/// Hits a buffer holds beyond `limit` before it is cut back, at least.
const SLACK: usize = 64;

/// The best `limit` hits seen so far.
#[derive(Debug)]
pub struct TopK {
    limit: usize,
    /// Every hit offered that beat `floor` when it came, since the last cut.
    buffer: Vec<Key>,
    /// The length at which the buffer is cut back to the best `limit`.
    cut_at: usize,
    /// The weakest hit kept at the last cut, with its score (none before the first): a hit must rank
    /// above it. Most rows of a scan fall below its score, and one float comparison turns them away.
    floor: Option<(f32, Key)>,
}

impl TopK {
    /// Keeps at most `limit` hits; `expected` (an upper bound on the hits offered) sizes the buffer.
    pub fn new(limit: usize, expected: usize) -> Self {
        let cut_at = limit.saturating_add(limit.max(SLACK));
        Self { limit, buffer: Vec::with_capacity(cut_at.min(expected)), cut_at, floor: None }
    }

    /// True when a hit with this score and slot may be among the best (NaN never is).
    #[inline(always)]
    pub fn admits(&self, score: f32, slot: u32) -> bool {
        if score.is_nan() || self.limit == 0 {
            return false;
        }
        match &self.floor {
            Some((floor, _)) if score < *floor => false,
            Some((_, key)) => Key::new(score, slot) < *key,
            None => true,
        }
    }

    /// Keeps the hit if it may make the cut.
    pub fn push(&mut self, score: f32, slot: u32) {
        if !self.admits(score, slot) {
            return;
        }
        self.buffer.push(Key::new(score, slot));
        if self.buffer.len() >= self.cut_at {
            self.cut();
        }
    }

    /// Keeps the best `limit` of the buffer and raises the floor to the weakest of them.
    fn cut(&mut self) {
        if self.buffer.len() > self.limit {
            self.buffer.select_nth_unstable(self.limit);
            self.buffer.truncate(self.limit);
        }
        if self.buffer.len() == self.limit {
            self.floor = self.buffer.iter().max().map(|key| (key.hit().0, *key));
        }
    }

    /// The hits kept, best first.
    pub fn into_sorted(mut self) -> Vec<(f32, u32)> {
        self.cut();
        self.buffer.sort_unstable();
        self.buffer.into_iter().map(Key::hit).collect()
    }

    /// The hits kept, in no particular order (a caller that filters and cuts them sorts only what is left).
    pub fn into_unsorted(mut self) -> Vec<(f32, u32)> {
        self.cut();
        self.buffer.into_iter().map(Key::hit).collect()
    }
}

/// `hits` as keys, changed by `change`, and back (one sort and one select serve every caller).
fn through_keys(hits: &mut Vec<(f32, u32)>, change: impl FnOnce(&mut Vec<Key>)) {
    let mut keys: Vec<Key> = hits.iter().map(|&(score, slot)| Key::new(score, slot)).collect();
    change(&mut keys);
    hits.clear();
    hits.extend(keys.into_iter().map(Key::hit));
}

/// Sorts hits best first, the older slot first among equal scores.
pub fn sort(hits: &mut Vec<(f32, u32)>) {
    through_keys(hits, |keys| keys.sort_unstable());
}

/// Keeps the best `limit` of `hits`, in no particular order: the set the first `limit` of them sorted hold.
pub fn keep_best(hits: &mut Vec<(f32, u32)>, limit: usize) {
    if hits.len() > limit {
        through_keys(hits, |keys| {
            keys.select_nth_unstable(limit);
            keys.truncate(limit);
        });
    }
}

/// Moves the best `first` of `hits` before the others, each part in no particular order.
pub fn put_best_first(hits: &mut Vec<(f32, u32)>, first: usize) {
    if hits.len() > first {
        through_keys(hits, |keys| {
            keys.select_nth_unstable(first);
        });
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
        assert_eq!(top.into_sorted(), [(0.9, 1), (0.9, 3), (0.7, 5)]);
    }

    #[test]
    fn a_cut_raises_the_floor_that_turns_rows_away() {
        let mut top = TopK::new(2, 1_000);
        assert!(top.admits(-1.0, 999), "no floor before the first cut");
        for slot in 0..(2 + SLACK) as u32 {
            top.push(slot as f32, slot);
        }
        // The buffer was cut to the best two (65 and 64): the floor is 64 at slot 64.
        assert!(!top.admits(63.0, 0));
        assert!(!top.admits(64.0, 65), "an equal score from a newer slot ranks below");
        assert!(top.admits(64.0, 7), "an equal score from an older slot ranks above");
        assert!(top.admits(64.5, 900));
        assert!(!top.admits(f32::NAN, 0));
        top.push(64.0, 7);
        assert_eq!(top.into_sorted(), [(65.0, 65), (64.0, 7)]);
    }

    #[test]
    fn matches_a_full_sort_with_ties_signed_zeros_and_nan() {
        // Scores from a small set (many ties), signed zeros and NaN, against sorting every hit.
        let values = [0.5, -0.0, 0.0, 0.25, f32::NAN, -0.25, 0.5, 1.0, 0.0, -0.0];
        let mut state = 7u32;
        let scores: Vec<f32> = (0..500)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                values[state as usize % values.len()]
            })
            .collect();
        for limit in [1, 3, 10, 64, 499, 600] {
            let mut top = TopK::new(limit, scores.len());
            for (slot, score) in scores.iter().enumerate() {
                top.push(*score, slot as u32);
            }
            let mut every: Vec<(f32, u32)> =
                scores.iter().enumerate().filter(|(_, s)| !s.is_nan()).map(|(slot, s)| (*s, slot as u32)).collect();
            every.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            every.truncate(limit);
            let kept = top.into_sorted();
            let bits = |hits: &[(f32, u32)]| hits.iter().map(|(s, slot)| (s.to_bits(), *slot)).collect::<Vec<_>>();
            assert_eq!(bits(&kept), bits(&every), "limit {limit}");
            // The best of a larger top, cut without sorting, are the same hits.
            let mut wider = TopK::new(limit * 2, scores.len());
            scores.iter().enumerate().for_each(|(slot, score)| wider.push(*score, slot as u32));
            let mut cut = wider.into_unsorted();
            keep_best(&mut cut, limit);
            sort(&mut cut);
            assert_eq!(bits(&cut), bits(&every), "the best {limit} of {}", limit * 2);
        }
    }

    #[test]
    fn a_key_orders_as_total_cmp_then_slot_and_gives_back_the_exact_hit() {
        let scores =
            [f32::NEG_INFINITY, -1.5, -f32::MIN_POSITIVE, -0.0, 0.0, f32::MIN_POSITIVE, 0.25, 1.0, f32::INFINITY];
        let mut hits: Vec<(f32, u32)> = scores.iter().flat_map(|s| [(*s, 9), (*s, 2), (*s, u32::MAX)]).collect();
        for &(score, slot) in &hits {
            assert_eq!(Key::new(score, slot).hit().0.to_bits(), score.to_bits());
            assert_eq!(Key::new(score, slot).hit().1, slot);
        }
        let mut by_rank = hits.clone();
        by_rank.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        sort(&mut hits);
        let bits = |hits: &[(f32, u32)]| hits.iter().map(|(s, slot)| (s.to_bits(), *slot)).collect::<Vec<_>>();
        assert_eq!(bits(&hits), bits(&by_rank));
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
