//! A seeded xorshift64 generator for tests that make random changes and reads: the same ones on every run.

/// The generator's state (any non-zero seed).
pub struct Seeded(pub u64);

impl Seeded {
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
