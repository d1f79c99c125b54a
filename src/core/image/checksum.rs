//! The image's checksum: Fletcher's two running sums over eight-byte words, in four lanes (adds only).
//! Detects torn and altered images; not a MAC. It is summed a part at a time ([`Checksum::add`]), so an
//! image read in parts (IndexedDB's, from a JS buffer) is never copied whole to be checked.

use super::bytes::arrays;

const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// How many bytes one call of a per-block loop takes. Loops over a whole image run once per open, and V8
/// runs a wasm function's first calls unoptimised: a loop split into calls is optimised after a few.
pub const BLOCK: usize = 1 << 16;

/// The checksum of `bytes`.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = Checksum::default();
    sum.add(bytes);
    sum.finish()
}

/// A checksum being summed: the same value whatever parts the bytes are added in.
pub struct Checksum {
    sums: ([u64; 4], [u64; 4]),
    /// The bytes after the last whole 32-byte group.
    held: [u8; 32],
    held_len: usize,
    length: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Self { sums: ([K; 4], [0; 4]), held: [0; 32], held_len: 0, length: 0 }
    }
}

impl Checksum {
    /// Adds the next `bytes`.
    pub fn add(&mut self, mut bytes: &[u8]) {
        self.length += bytes.len() as u64;
        if self.held_len > 0 {
            let take = (32 - self.held_len).min(bytes.len());
            self.held[self.held_len..self.held_len + take].copy_from_slice(&bytes[..take]);
            self.held_len += take;
            bytes = &bytes[take..];
            if self.held_len < 32 {
                return;
            }
            self.sums = sum_block(self.sums, &self.held);
            self.held_len = 0;
        }
        let whole = bytes.len() / 32 * 32;
        for block in bytes[..whole].chunks(BLOCK) {
            self.sums = sum_block(self.sums, block);
        }
        let rest = &bytes[whole..];
        self.held[..rest.len()].copy_from_slice(rest);
        self.held_len = rest.len();
    }

    /// The checksum of every byte added.
    pub fn finish(&self) -> u64 {
        let mut hash = self.length ^ K;
        let (lanes, lanes_of_lanes) = self.sums;
        let rest = self.held[..self.held_len].iter().map(|byte| u64::from(*byte));
        for value in lanes.into_iter().chain(lanes_of_lanes).chain(rest) {
            hash = (hash ^ value).wrapping_mul(K).rotate_left(29);
        }
        hash ^ (hash >> 32)
    }
}

/// The running sums after the 32-byte groups of `block` (a multiple of 32 bytes long).
#[inline(never)]
fn sum_block((mut sums, mut sums_of_sums): ([u64; 4], [u64; 4]), block: &[u8]) -> ([u64; 4], [u64; 4]) {
    for group in block.chunks_exact(32) {
        for (lane, word) in arrays::<8>(group).enumerate() {
            sums[lane] = sums[lane].wrapping_add(u64::from_le_bytes(word));
            sums_of_sums[lane] = sums_of_sums[lane].wrapping_add(sums[lane]);
        }
    }
    (sums, sums_of_sums)
}
