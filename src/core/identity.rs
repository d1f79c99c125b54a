//! Ids and content hashes.

use md5::{Digest, Md5};

/// The length in bytes of every [`new_id`] (a hyphenated UUID: hex digits and `-`).
pub const ID_BYTES: usize = uuid::fmt::Hyphenated::LENGTH;

/// A fresh UUID v4.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// MD5 hex digest of `text`, the dedup key of memories (their `hash`).
pub fn content_hash(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(32);
    for byte in Md5::digest(text.as_bytes()) {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 15)]));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md5_matches_known_digests() {
        assert_eq!(content_hash(""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(content_hash("hello"), "5d41402abc4b2a76b9719d911017c592");
        assert_eq!(content_hash("The quick brown fox jumps over the lazy dog"), "9e107d9d372bb6826bd81d3542a419d6");
    }

    #[test]
    fn ids_are_uuid_v4_and_unique() {
        let (a, b) = (new_id(), new_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), ID_BYTES);
        let parsed = uuid::Uuid::parse_str(&a).unwrap();
        assert_eq!(parsed.get_version_num(), 4);
    }
}
