//! An ordered set of slots that also answers "how many are below this one": sorted blocks of at most
//! [`BLOCK`] slots, so an insert or removal moves one block's slots, the rank of a slot sums the block
//! lengths before it, and reading in order from any slot costs nothing per slot. The same blocks order
//! other keys too (a scope's (expiry, slot) pairs).

/// Most slots a block holds before it is split (the cost of an insert or removal in the middle).
const BLOCK: usize = 512;

/// Slots (or other keys), ascending.
#[derive(Debug, Clone)]
pub struct SlotSet<T = u32> {
    /// Non-empty, each ascending, every key of a block below every key of the next.
    blocks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for SlotSet<T> {
    fn default() -> Self {
        Self { blocks: Vec::new(), len: 0 }
    }
}

impl<T: Ord> SlotSet<T> {
    /// The set of one key.
    pub fn of(key: T) -> Self {
        Self { blocks: vec![vec![key]], len: 1 }
    }

    /// How many keys are held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no key is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The blocks, in order (each ascending).
    pub fn blocks(&self) -> &[Vec<T>] {
        &self.blocks
    }

    /// The block `key` belongs in: the last one starting at or below it (the first when none does).
    fn block_of(&self, key: &T) -> usize {
        self.blocks.partition_point(|block| block[0] <= *key).saturating_sub(1)
    }

    /// Adds `key` (nothing when held). Appending a key above all others is the common case.
    pub fn insert(&mut self, key: T) {
        if self.blocks.is_empty() {
            *self = Self::of(key);
            return;
        }
        let at = self.block_of(&key);
        let last = at + 1 == self.blocks.len();
        let block = &mut self.blocks[at];
        let Err(position) = block.binary_search(&key) else { return };
        if position == block.len() && last && block.len() >= BLOCK {
            self.blocks.push(vec![key]);
        } else {
            block.insert(position, key);
            if block.len() > 2 * BLOCK {
                let upper = block.split_off(BLOCK);
                self.blocks.insert(at + 1, upper);
            }
        }
        self.len += 1;
    }

    /// Removes `key`; true when it was held.
    pub fn remove(&mut self, key: &T) -> bool {
        if self.blocks.is_empty() {
            return false;
        }
        let at = self.block_of(key);
        let Ok(position) = self.blocks[at].binary_search(key) else { return false };
        self.blocks[at].remove(position);
        if self.blocks[at].is_empty() {
            self.blocks.remove(at);
        }
        self.len -= 1;
        true
    }
}

impl SlotSet {
    /// How many slots are below `slot`.
    pub fn rank(&self, slot: u32) -> usize {
        let at = self.block_of(&slot);
        let Some(last) = self.blocks.get(at) else { return 0 };
        let mut whole = 0;
        for block in &self.blocks[..at] {
            whole += block.len();
        }
        whole + below(last, slot)
    }

    /// The slots from `slot` on (it included when held), ascending.
    pub fn from(&self, slot: u32) -> Cursor<'_> {
        let block = self.block_of(&slot);
        let index = self.blocks.get(block).map_or(0, |held| below(held, slot));
        Cursor::at(&self.blocks, block, index)
    }
}

/// How many of `slots` (ascending) are below `slot`.
pub fn below(slots: &[u32], slot: u32) -> usize {
    slots.partition_point(|held| *held < slot)
}

/// A place in ascending blocks of slots, read forward.
pub struct Cursor<'a> {
    blocks: &'a [Vec<u32>],
    block: usize,
    index: usize,
}

impl<'a> Cursor<'a> {
    /// The slots of `sorted` (ascending) from its `index`-th.
    pub fn sorted(sorted: &'a Vec<u32>, index: usize) -> Self {
        Self::at(std::slice::from_ref(sorted), 0, index)
    }

    /// The slots of `blocks` from the `index`-th of block `block` (past its end: the next block's first).
    fn at(blocks: &'a [Vec<u32>], block: usize, index: usize) -> Self {
        let mut cursor = Self { blocks, block, index };
        if blocks.get(block).is_some_and(|held| index >= held.len()) {
            (cursor.block, cursor.index) = (block + 1, 0);
        }
        cursor
    }

    /// The slot it is at, if any.
    pub fn peek(&self) -> Option<u32> {
        self.blocks.get(self.block)?.get(self.index).copied()
    }

    /// Moves past the slot it is at.
    pub fn advance(&mut self) {
        self.index += 1;
        if self.blocks.get(self.block).is_some_and(|block| self.index >= block.len()) {
            self.block += 1;
            self.index = 0;
        }
    }
}

impl Iterator for Cursor<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let slot = self.peek()?;
        self.advance();
        Some(slot)
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
                assert_eq!(set.remove(&slot), model.remove(&slot), "remove {slot}");
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
            assert!(set.remove(&slot));
        }
        assert!(set.is_empty() && set.from(0).next().is_none() && set.rank(u32::MAX) == 0);
    }

    /// (expiry, slot) keys keep the order of a `BTreeSet` through inserts and removals across many blocks.
    #[test]
    fn orders_expiry_keys_as_a_btree_set_does() {
        let (mut set, mut model) = (SlotSet::default(), BTreeSet::new());
        for slot in 0..3_000u32 {
            let key: (Box<str>, u32) = (format!("2030-01-{:02}", slot * 7 % 28 + 1).into(), slot);
            if slot % 5 == 4 {
                let gone = (format!("2030-01-{:02}", (slot - 2) * 7 % 28 + 1).into(), slot - 2);
                assert_eq!(set.remove(&gone), model.remove(&gone));
            }
            set.insert(key.clone());
            model.insert(key);
        }
        let held: Vec<_> = set.blocks().iter().flatten().cloned().collect();
        assert_eq!((held, set.len()), (model.iter().cloned().collect::<Vec<_>>(), model.len()));
        assert!(set.blocks().len() > 2, "several blocks");
    }
}
