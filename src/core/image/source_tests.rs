//! An image read from bytes outside this memory (as IndexedDB's JS buffer): parts copied, never the whole.

use std::cell::Cell;
use std::rc::Rc;

use super::checksum::{checksum, Checksum};
use super::rows::ROWS_PER_CHUNK;
use super::tests::{memories, memory};
use super::{decode, encode, with_journal, ImageBytes, Parts};
use crate::core::testing::Seeded;

/// Bytes that are only copied out, as a host's buffer is, noting the longest copy asked for.
struct Outside {
    bytes: Vec<u8>,
    longest: Rc<Cell<usize>>,
}

impl ImageBytes for Outside {
    fn size(&self) -> usize {
        self.bytes.len()
    }

    fn copy_to(&self, at: usize, out: &mut [u8]) {
        self.longest.set(self.longest.get().max(out.len()));
        out.copy_from_slice(&self.bytes[at..at + out.len()]);
    }
}

fn outside(bytes: Vec<u8>) -> (Outside, Rc<Cell<usize>>) {
    let longest = Rc::new(Cell::new(0));
    (Outside { bytes, longest: longest.clone() }, longest)
}

#[test]
fn a_checksum_summed_in_parts_is_the_checksum_of_the_whole() {
    let mut random = Seeded(7);
    let bytes: Vec<u8> = (0..300).map(|_| random.below(256) as u8).collect();
    let whole = checksum(&bytes);
    for cut in 0..=bytes.len() {
        let mut parts = Checksum::default();
        parts.add(&bytes[..cut]);
        parts.add(&bytes[cut..]);
        assert_eq!(parts.finish(), whole, "cut at {cut}");
    }
    for _ in 0..200 {
        let mut parts = Checksum::default();
        let mut at = 0;
        while at < bytes.len() {
            let step = (1 + random.below(40)).min(bytes.len() - at);
            parts.add(&bytes[at..at + step]);
            at += step;
        }
        assert_eq!(parts.finish(), whole);
    }
    assert_ne!(checksum(&bytes[1..]), whole);
}

#[test]
fn an_image_read_from_outside_gives_what_its_bytes_in_memory_give() {
    let written = memories(2 * ROWS_PER_CHUNK + 37);
    let bytes = encode(&written, 9).unwrap();
    let (source, _) = outside(bytes.clone());
    let decoded = decode(source).unwrap();
    assert_eq!(decoded.seq, 9);
    assert_eq!(decoded.into_packed().into_memories(), written);
    let gone: Vec<String> = written.iter().step_by(5).map(|memory| memory.item.id.clone()).collect();
    let changed = vec![memory(4), memory(9_000)];
    let (source, _) = outside(bytes.clone());
    let from_outside = with_journal(decode(source).unwrap(), &gone, changed.clone()).into_memories();
    assert_eq!(from_outside, with_journal(decode(bytes).unwrap(), &gone, changed).into_memories());
}

#[test]
fn an_image_outside_is_never_copied_whole() {
    // 4,000 vectors of 384 values: 6 MB of values, far more than the records, a window or a chunk of rows.
    let mut written = memories(4_000);
    for (i, memory) in written.iter_mut().enumerate() {
        memory.embedding = Some((0..384).map(|d| ((i + d) % 13) as f32 / 13.0).collect());
    }
    let bytes = encode(&written, 1).unwrap();
    let size = bytes.len();
    let (source, longest) = outside(bytes);
    let decoded = decode(source).unwrap().into_packed().into_memories();
    assert_eq!(decoded, written);
    assert!(longest.get() < size / 4, "a copy of {} bytes of a {size}-byte image", longest.get());
}

#[test]
fn an_image_outside_torn_or_altered_is_rejected() {
    let bytes = encode(&memories(6), 7).unwrap();
    for length in 0..bytes.len() {
        assert!(decode(outside(bytes[..length].to_vec()).0).is_err(), "cut at {length} and used");
    }
    for at in 0..bytes.len() {
        let mut altered = bytes.clone();
        altered[at] ^= 0x20;
        assert!(decode(outside(altered).0).is_err(), "byte {at} altered and used");
    }
}

#[test]
fn an_image_in_parts_of_any_sizes_reads_as_the_whole_does() {
    let written = memories(ROWS_PER_CHUNK + 30);
    let bytes = encode(&written, 5).unwrap();
    let mut random = Seeded(11);
    for round in 0..8 {
        let mut parts = Parts::default();
        let mut at = 0;
        while at < bytes.len() {
            // Empty parts, one-byte parts and parts longer than a window or a chunk of rows.
            let most = [1, 40, 4_000, 400_000][round % 4];
            let step = random.below(most + 1).min(bytes.len() - at);
            parts.push(Box::new(bytes[at..at + step].to_vec()));
            at += step;
        }
        assert_eq!(parts.size(), bytes.len());
        assert_eq!(decode(parts).unwrap().into_packed().into_memories(), written, "round {round}");
    }
    let mut torn = Parts::default();
    torn.push(Box::new(bytes[..bytes.len() / 2].to_vec()));
    assert!(decode(torn).is_err());
}
