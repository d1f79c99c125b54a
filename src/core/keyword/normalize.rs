//! Unicode NFC for the tokenizer. Text whose characters all lie below U+0300 is NFC already (the common
//! case: no work, no copy). Other text goes to the platform's normaliser: natively the
//! `unicode-normalization` crate; in wasm the host's `String.prototype.normalize`, registered with
//! [`set_normalizer`] (the JS binding does so), which keeps Unicode tables out of the `.wasm`.

use std::borrow::Cow;
use std::sync::OnceLock;

/// Returns the NFC form of a string.
pub type Normalizer = fn(&str) -> String;

static NORMALIZER: OnceLock<Normalizer> = OnceLock::new();

/// Sets the NFC normaliser for this process (the first call wins).
pub fn set_normalizer(normalizer: Normalizer) {
    let _ = NORMALIZER.set(normalizer);
}

/// `text` in Unicode normalisation form C.
pub fn nfc(text: &str) -> Cow<'_, str> {
    if text.chars().all(|c| (c as u32) < 0x300) {
        return Cow::Borrowed(text);
    }
    match NORMALIZER.get() {
        Some(normalize) => Cow::Owned(normalize(text)),
        None => built_in(text),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn built_in(text: &str) -> Cow<'_, str> {
    use unicode_normalization::UnicodeNormalization;
    Cow::Owned(text.nfc().collect())
}

/// Without a registered normaliser, wasm text is taken as it is.
#[cfg(target_arch = "wasm32")]
fn built_in(text: &str) -> Cow<'_, str> {
    Cow::Borrowed(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composes_and_leaves_nfc_alone() {
        assert_eq!(nfc("Cafe\u{301}"), "Café");
        assert_eq!(nfc("A\u{30A}ngstro\u{308}m"), "Ångström");
        assert_eq!(nfc("한국어"), "한국어");
        assert_eq!(nfc("\u{1100}\u{1161}"), "가", "conjoining jamo compose");
        assert!(matches!(nfc("plain ASCII and Latin-1: café"), Cow::Borrowed(_)));
    }
}
