//! Where an image's bytes are read from: a `Vec` in this memory, or buffers of the host's (IndexedDB's JS
//! `ArrayBuffer`, SQLite's and a Durable Object's parts, see `parts`) read a part at a time. Decoding copies
//! only the records' part of such a buffer; its vectors go from it into the index a chunk at a time, so
//! the image is never copied whole into wasm (at 100,000 × 384 dimensions, 170 MB more wasm memory, which
//! never shrinks).

use std::borrow::Cow;

use super::checksum::Checksum;

/// An image's bytes.
pub trait ImageBytes {
    /// How many bytes there are.
    fn size(&self) -> usize;

    /// Copies the bytes from `at` on into `out` (`at + out.len()` is at most [`ImageBytes::size`]).
    fn copy_to(&self, at: usize, out: &mut [u8]);

    /// Every byte, when they are in this memory already (nothing is then copied to be read).
    fn as_slice(&self) -> Option<&[u8]> {
        None
    }

    /// The bytes `at..at + length`, copied.
    fn to_vec(&self, at: usize, length: usize) -> Vec<u8> {
        let mut part = vec![0; length];
        self.copy_to(at, &mut part);
        part
    }
}

impl ImageBytes for Vec<u8> {
    fn size(&self) -> usize {
        self.len()
    }

    fn copy_to(&self, at: usize, out: &mut [u8]) {
        out.copy_from_slice(&self[at..at + out.len()]);
    }

    fn as_slice(&self) -> Option<&[u8]> {
        Some(self)
    }
}

/// The bytes `at..at + length` of `source`, copied unless they are in this memory already.
pub fn read_part(source: &dyn ImageBytes, at: usize, length: usize) -> Cow<'_, [u8]> {
    match source.as_slice() {
        Some(all) => Cow::Borrowed(&all[at..at + length]),
        None => Cow::Owned(source.to_vec(at, length)),
    }
}

/// How many bytes [`sum_part`] copies at a time from a source not in this memory.
const WINDOW: usize = 1 << 18;

/// Adds the bytes `at..at + length` of `source` to `sum`, through one reused window when they must be copied.
pub fn sum_part(source: &dyn ImageBytes, at: usize, length: usize, sum: &mut Checksum) {
    if let Some(all) = source.as_slice() {
        return sum.add(&all[at..at + length]);
    }
    let mut window = vec![0; WINDOW.min(length)];
    for start in (at..at + length).step_by(WINDOW) {
        let part = &mut window[..WINDOW.min(at + length - start)];
        source.copy_to(start, part);
        sum.add(part);
    }
}

/// `values` holding the `count` little-endian `f32`s at byte `at` of `source`: one copy of their bytes.
pub fn read_floats(source: &dyn ImageBytes, at: usize, count: usize, values: &mut Vec<f32>) {
    values.resize(count, 0.0);
    source.copy_to(at, bytemuck::cast_slice_mut::<f32, u8>(values));
    if cfg!(target_endian = "big") {
        values.iter_mut().for_each(|value| *value = f32::from_bits(value.to_bits().swap_bytes()));
    }
}
