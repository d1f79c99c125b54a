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

/// The bytes of standard base64 text (with padding).
pub fn bytes_from_base64(text: &str) -> Result<Vec<u8>> {
    let text = text.as_bytes();
    if text.len() % 4 != 0 {
        return Err(bad("base64 length is not a multiple of 4".into()));
    }
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3);
    for (index, quad) in text.chunks(4).enumerate() {
        let last = index + 1 == text.len() / 4;
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
    }
    Ok(bytes)
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
}
