//! Compact, exact encodings of embeddings: little-endian `f32` bytes (IndexedDB records) and standard
//! base64 of those bytes (JSONL export). Both round-trip every bit; a JSON number array would not be compact.

use super::error::{MemoryError, Result};

pub(crate) const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// Byte → its value in [`ALPHABET`], or [`INVALID`] (a table: importing 10k vectors decodes 20 MB).
pub(crate) const SEXTETS: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};
pub(crate) const INVALID: u8 = 0xff;

/// The vector as little-endian `f32` bytes.
pub fn vector_to_bytes(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The vector in little-endian `f32` bytes; fails unless the length is a multiple of 4 and every value is finite.
pub fn vector_from_bytes(bytes: &[u8]) -> Result<Vec<f32>> {
    if bytes.len() % 4 != 0 {
        return Err(bad(format!("{} bytes is not a whole number of f32 values", bytes.len())));
    }
    let vector: Vec<f32> =
        bytes.chunks_exact(4).map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]])).collect();
    if vector.iter().any(|x| !x.is_finite()) {
        return Err(bad("the vector holds a non-finite value".into()));
    }
    Ok(vector)
}

/// The vector as base64 (with padding) of its little-endian bytes.
pub fn vector_to_base64(vector: &[f32]) -> String {
    bytes_to_base64(&vector_to_bytes(vector))
}

/// Standard base64 (with padding) of `bytes`.
pub fn bytes_to_base64(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            let symbol = if i <= chunk.len() { ALPHABET[(group >> (18 - 6 * i) & 63) as usize] } else { b'=' };
            text.push(char::from(symbol));
        }
    }
    text
}

/// The vector encoded by `vector_to_base64`.
pub fn vector_from_base64(text: &str) -> Result<Vec<f32>> {
    vector_from_bytes(&bytes_from_base64(text)?)
}

/// The bytes of standard base64 text (with padding). Every quad but the last is decoded without a check
/// of its own (importing 10k vectors decodes 20 MB); should any hold a byte outside the alphabet, the text
/// is decoded again quad by quad, for the error that names the fault.
pub fn bytes_from_base64(text: &str) -> Result<Vec<u8>> {
    let text = text.as_bytes();
    if text.len() % 4 != 0 {
        return Err(bad("base64 length is not a multiple of 4".into()));
    }
    let (body, last) = text.split_at(text.len().saturating_sub(4));
    // Room for the last quad too, so its bytes never move the rest.
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3);
    bytes.resize(body.len() / 4 * 3, 0);
    let mut seen = 0;
    for (quad, out) in body.chunks_exact(4).zip(bytes.chunks_exact_mut(3)) {
        // Fixed-size arrays (never failing here), so the quad compiles to plain loads and stores.
        let (Ok(&[a, b, c, d]), Ok(out)) = (<&[u8; 4]>::try_from(quad), <&mut [u8; 3]>::try_from(out)) else { break };
        let sextet = |symbol: u8| u32::from(SEXTETS[usize::from(symbol)]);
        let (a, b, c, d) = (sextet(a), sextet(b), sextet(c), sextet(d));
        seen |= a | b | c | d;
        let group = a << 18 | b << 12 | c << 6 | d;
        *out = [(group >> 16) as u8, (group >> 8) as u8, group as u8];
    }
    if seen >= 64 {
        return quad_by_quad(text);
    }
    if !last.is_empty() {
        decode_quad(last, true, &mut bytes)?;
    }
    Ok(bytes)
}

/// The bytes of base64 text whose length is a multiple of 4, each quad checked on its own: the error names
/// the first fault.
fn quad_by_quad(text: &[u8]) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3);
    let quads = text.len() / 4;
    for (index, quad) in text.chunks_exact(4).enumerate() {
        decode_quad(quad, index + 1 == quads, &mut bytes)?;
    }
    Ok(bytes)
}

/// Appends the bytes of one base64 quad, padded only when it is the `last`.
fn decode_quad(quad: &[u8], last: bool, bytes: &mut Vec<u8>) -> Result<()> {
    let padding = quad.iter().rev().take_while(|&&c| c == b'=').count();
    if padding > 2 || (padding > 0 && !last) {
        return Err(bad("misplaced base64 padding".into()));
    }
    let mut group = 0u32;
    for &c in &quad[..4 - padding] {
        let value = SEXTETS[usize::from(c)];
        if value == INVALID {
            return Err(bad("invalid base64 character".into()));
        }
        group = group << 6 | u32::from(value);
    }
    group <<= 6 * padding as u32;
    bytes.extend_from_slice(&group.to_be_bytes()[1..4 - padding]);
    Ok(())
}

fn bad(why: String) -> MemoryError {
    MemoryError::InvalidInput(format!("embedding: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_every_bit() {
        let vector = vec![0.1f32, -0.0, f32::MIN_POSITIVE, f32::MAX, -1.5e-40, 0.33333334];
        let bytes = vector_to_bytes(&vector);
        assert_eq!(bytes.len(), 24);
        assert_eq!(&bytes[..4], &0.1f32.to_le_bytes());
        let back = vector_from_bytes(&bytes).unwrap();
        assert_eq!(
            back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            vector.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn bytes_reject_ragged_or_non_finite_input() {
        assert!(vector_from_bytes(&[0, 0, 128]).is_err());
        assert!(vector_from_bytes(&f32::NAN.to_le_bytes()).is_err());
        assert_eq!(vector_from_bytes(&[]).unwrap(), Vec::<f32>::new());
    }

    #[test]
    fn base64_matches_the_standard_alphabet_and_round_trips() {
        // 1.0f32 is 00 00 80 3f: "AACAPw==" in standard base64.
        assert_eq!(vector_to_base64(&[1.0]), "AACAPw==");
        assert_eq!(vector_to_base64(&[1.0, 2.0]), "AACAPwAAAEA=");
        assert_eq!(vector_to_base64(&[1.0, 2.0, -3.5]), "AACAPwAAAEAAAGDA");
        for length in 0..8 {
            let vector: Vec<f32> = (0..length).map(|i| (i as f32 * 0.7).sin()).collect();
            assert_eq!(vector_from_base64(&vector_to_base64(&vector)).unwrap(), vector);
        }
    }

    #[test]
    fn base64_rejects_garbage() {
        for text in ["AAC", "AA*APw==", "AA==AACA", "A===", "AACAP==="] {
            let error = vector_from_base64(text).unwrap_err();
            assert_eq!(error.code(), "INVALID_INPUT", "{text}");
        }
    }

    #[test]
    fn base64_decodes_as_the_quad_by_quad_reference_with_a_fault_anywhere() {
        // Every quad checked on its own is what the fast path must agree with, result and error alike.
        let message = |result: Result<Vec<u8>>| result.map_err(|error| error.to_string());
        for len in 0..40usize {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = bytes_to_base64(&bytes);
            assert_eq!(bytes_from_base64(&text).unwrap(), bytes, "{len} bytes");
            for at in 0..text.len() {
                for fault in [b'*', b'=', b'-'] {
                    let mut broken = text.clone().into_bytes();
                    broken[at] = fault;
                    let broken = String::from_utf8(broken).unwrap();
                    let (fast, reference) =
                        (message(bytes_from_base64(&broken)), message(quad_by_quad(broken.as_bytes())));
                    assert_eq!(fast, reference, "{broken:?}");
                }
            }
        }
        let long = bytes_to_base64(&[7; 3000]);
        assert_eq!(bytes_from_base64(&long).unwrap(), [7; 3000]);
        for (fault, why) in [("=", "misplaced base64 padding"), ("*", "invalid base64 character")] {
            let broken = format!("{}{fault}{}", &long[..2999], &long[3000..]);
            assert_eq!(message(bytes_from_base64(&broken)), Err(format!("invalid input: embedding: {why}")));
        }
    }
}
