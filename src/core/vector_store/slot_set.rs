//! An ordered set of slots that also answers "how many are below this one": sorted blocks of at most
//! [`BLOCK`] slots, so an insert or removal moves one block's slots, the rank of a slot sums the block
//! lengths before it, and reading in order from any slot costs nothing per slot.

/// Most slots a block holds before it is split (the cost of an insert or removal in the middle).
const BLOCK: usize = 512;

/// Slots, ascending.
#[derive(Debug, Default, Clone)]
pub struct SlotSet {
    /// Non-empty, each ascending, every slot of a block below every slot of the next.
    blocks: Vec<Vec<u32>>,
    len: usize,
}

impl SlotSet {
    /// The set of one slot.
    pub fn of(slot: u32) -> Self {
        Self { blocks: vec![vec![slot]], len: 1 }
    }

    /// How many slots are held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no slot is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The block `slot` belongs in: the last one starting at or below it (the first when none does).
    fn block_of(&self, slot: u32) -> usize {
        self.blocks.partition_point(|block| block[0] <= slot).saturating_sub(1)
    }

    /// Adds `slot` (nothing when held). Appending a slot above all others is the common case.
    pub fn insert(&mut self, slot: u32) {
        let Some(at) = (!self.blocks.is_empty()).then(|| self.block_of(slot)) else {
            self.blocks.push(vec![slot]);
            self.len = 1;
            return;
        };
        let last = at + 1 == self.blocks.len();
        let block = &mut self.blocks[at];
        let Err(position) = block.binary_search(&slot) else { return };
        if position == block.len() && last && block.len() >= BLOCK {
            self.blocks.push(vec![slot]);
        } else {
            block.insert(position, slot);
            if block.len() > 2 * BLOCK {
                let upper = block.split_off(BLOCK);
                self.blocks.insert(at + 1, upper);
            }
        }
        self.len += 1;
    }

    /// Removes `slot`; true when it was held.
    pub fn remove(&mut self, slot: u32) -> bool {
        if self.blocks.is_empty() {
            return false;
        }
        let at = self.block_of(slot);
        let Ok(position) = self.blocks[at].binary_search(&slot) else { return false };
        self.blocks[at].remove(position);
        if self.blocks[at].is_empty() {
            self.blocks.remove(at);
        }
        self.len -= 1;
        true
    }

    /// How many slots are below `slot`.
    pub fn rank(&self, slot: u32) -> usize {
        let before = self.blocks.partition_point(|block| block[0] < slot);
        let Some(last) = before.checked_sub(1) else { return 0 };
        let whole: usize = self.blocks[..last].iter().map(Vec::len).sum();
        whole + self.blocks[last].partition_point(|held| *held < slot)
    }

    /// The slots from `slot` on (it included when held), ascending.
    pub fn from(&self, slot: u32) -> impl Iterator<Item = u32> + '_ {
        let at = self.blocks.partition_point(|block| block.last().is_some_and(|last| *last < slot));
        let first = self.blocks.get(at).map_or(0, |block| block.partition_point(|held| *held < slot));
        let rest = self.blocks.get(at..).unwrap_or_default().iter().flatten();
        rest.skip(first).copied()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The set and a `BTreeSet` agree on every answer after `ops` (positive: insert, negative: remove).
    #[test]
    fn agrees_with_a_btree_set_through_inserts_and_removals_in_any_order() {
        let (mut set, mut model) = (SlotSet::default(), BTreeSet::new());
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for round in 0..6_000u32 {
            // Mostly appends (as the index writes), then random inserts and removals.
            let slot = if round < 3_000 { round * 2 } else { next() % 7_000 };
            if round >= 3_000 && next() % 3 == 0 {
                assert_eq!(set.remove(slot), model.remove(&slot), "remove {slot}");
            } else {
                set.insert(slot);
                model.insert(slot);
            }
            if round % 500 == 0 || round > 5_900 {
                assert_eq!(set.len(), model.len());
                for probe in [0, 1, slot, slot + 1, 3_333, 6_999, 7_000, u32::MAX] {
                    assert_eq!(set.rank(probe), model.range(..probe).count(), "rank {probe}");
                    let got: Vec<u32> = set.from(probe).take(700).collect();
                    let want: Vec<u32> = model.range(probe..).take(700).copied().collect();
                    assert_eq!(got, want, "from {probe}");
                }
            }
        }
        for slot in model.iter().copied().collect::<Vec<_>>() {
            assert!(set.remove(slot));
        }
        assert!(set.is_empty() && set.from(0).next().is_none() && set.rank(u32::MAX) == 0);
    }
}
