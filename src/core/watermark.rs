//! Which numbered changes of a shared store an instance has read: every change number up to a floor, and
//! those above it read out of order (notices from several writers can overtake each other). IndexedDB's
//! turns wait until the floor reaches the database's last change, so another tab's notice that arrives
//! after the Web Lock's grant is still read before the turn decides anything.

use std::collections::BTreeSet;

/// The change numbers read so far.
#[derive(Debug, Default)]
pub struct Watermark {
    floor: u64,
    above: BTreeSet<u64>,
}

impl Watermark {
    /// Every change up to `last` has been read (an open read them all, or a turn stopped waiting).
    pub fn reset(&mut self, last: u64) {
        self.floor = self.floor.max(last);
        self.above.retain(|change| *change > last);
        self.rise();
    }

    /// Change `change` has been read (this instance's own commit, or another's notice).
    pub fn note(&mut self, change: u64) {
        if change > self.floor {
            self.above.insert(change);
            self.rise();
        }
    }

    /// Whether every change up to `last` has been read.
    pub fn covers(&self, last: u64) -> bool {
        self.floor >= last
    }

    fn rise(&mut self) {
        while self.above.remove(&(self.floor + 1)) {
            self.floor += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Watermark;

    #[test]
    fn the_floor_rises_only_over_changes_read_without_a_gap() {
        let mut seen = Watermark::default();
        seen.reset(3);
        seen.note(5);
        assert!(seen.covers(3) && !seen.covers(5), "4 is missing");
        seen.note(4);
        assert!(seen.covers(5));
        seen.note(2);
        seen.reset(4);
        assert!(seen.covers(5) && !seen.covers(6), "a reset never lowers the floor");
        seen.note(7);
        seen.reset(6);
        assert!(seen.covers(7), "a change seen above a reset's last counts");
    }
}
