//! Unicode lower and upper case. Natively std's `str::to_lowercase`; in wasm the host's
//! `String.prototype.toLowerCase` / `toUpperCase` (the same Unicode mappings, without a locale), registered
//! with [`set_case_mapping`] (the JS binding and the Worker do so), which keeps std's case tables (about
//! 25 KB, 16 KB of it in the gzipped .wasm) out of the module. ASCII text never leaves Rust.

use std::sync::OnceLock;

/// Maps a string to lower (first) or upper (second) case.
pub type CaseMapping = (fn(&str) -> String, fn(&str) -> String);

static MAPPING: OnceLock<CaseMapping> = OnceLock::new();

/// Sets the case mapping for this process (the first call wins).
pub fn set_case_mapping(mapping: CaseMapping) {
    let _ = MAPPING.set(mapping);
}

/// `text` in lower case, as `str::to_lowercase` gives it (a final `Σ` becomes `ς`).
pub fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    host::lower(text)
}

/// `text` in upper case, as `str::to_uppercase` gives it.
pub fn uppercase(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_uppercase();
    }
    host::upper(text)
}

/// `lowercased()` / `uppercased()` on strings: [`lowercase`] and [`uppercase`].
pub trait CaseExt {
    fn lowercased(&self) -> String;
    fn uppercased(&self) -> String;
}

impl CaseExt for str {
    fn lowercased(&self) -> String {
        lowercase(self)
    }

    fn uppercased(&self) -> String {
        uppercase(self)
    }
}

/// `text` lower-cased character by character, as `text.chars().flat_map(char::to_lowercase)` gives it:
/// `Σ` is always `σ`, never the final `ς`.
pub fn lowercase_chars(text: &str) -> String {
    if text.contains('Σ') {
        return lowercase(&text.replace('Σ', "σ"));
    }
    lowercase(text)
}

/// The registered mapping; natively std's, in wasm (nothing registered) ASCII only.
mod host {
    use super::MAPPING;

    pub fn lower(text: &str) -> String {
        MAPPING.get().map_or_else(|| built_in::lower(text), |(lower, _)| lower(text))
    }

    pub fn upper(text: &str) -> String {
        MAPPING.get().map_or_else(|| built_in::upper(text), |(_, upper)| upper(text))
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod built_in {
        pub fn lower(text: &str) -> String {
            text.to_lowercase()
        }

        pub fn upper(text: &str) -> String {
            text.to_uppercase()
        }
    }

    #[cfg(target_arch = "wasm32")]
    mod built_in {
        pub fn lower(text: &str) -> String {
            text.to_ascii_lowercase()
        }

        pub fn upper(text: &str) -> String {
            text.to_ascii_uppercase()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_like_std() {
        for text in ["", "Hello World", "ÄRZTE in Köln", "ΟΔΟΣ Σ", "İstanbul", "straße", "ǅ"] {
            assert_eq!(lowercase(text), text.to_lowercase(), "{text}");
            assert_eq!(uppercase(text), text.to_uppercase(), "{text}");
            assert_eq!(lowercase_chars(text), text.chars().flat_map(char::to_lowercase).collect::<String>(), "{text}");
        }
    }
}
