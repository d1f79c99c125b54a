//! Step 1 of ingestion: cleaning. Line breaks become `\n` (`\r\n` and lone `\r` too), the
//! text becomes Unicode NFC (the platform's normaliser: `String.prototype.normalize` in wasm), leading and
//! trailing whitespace goes, and outside code blocks every run of blank lines (lines that are empty or only
//! whitespace) becomes one empty line, so paragraphs are separated by exactly `\n\n`. Nothing else changes:
//! formatting markers stay, and fenced code blocks are kept byte for byte, blank lines included.

use super::fence::{classify, Line};
use crate::core::error::{MemoryError, Result};
use crate::core::keyword::nfc;

/// The cleaned `text`; `INVALID_INPUT` when nothing but whitespace is left.
pub fn clean(text: &str) -> Result<String> {
    let unified = text.replace("\r\n", "\n").replace('\r', "\n");
    let normalized = nfc(&unified);
    let trimmed = normalized.trim();
    if trimmed.is_empty() {
        return Err(MemoryError::InvalidInput("text must contain more than whitespace".into()));
    }
    let mut lines: Vec<&str> = Vec::new();
    let mut after_blank = false;
    for (line, kind) in classify(trimmed) {
        if kind == Line::Blank {
            after_blank = true;
            continue;
        }
        if after_blank {
            lines.push("");
            after_blank = false;
        }
        lines.push(line);
    }
    Ok(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_normalises_and_collapses_blank_runs() {
        assert_eq!(clean("  \n\n Hello\tworld.  \n\n").unwrap(), "Hello\tworld.");
        assert_eq!(clean("Cafe\u{301} au lait").unwrap(), "Café au lait", "NFC");
        assert_eq!(clean("a\n\n\n\nb\n \t\n\nc\nd").unwrap(), "a\n\nb\n\nc\nd");
        assert_eq!(clean("a\r\n\r\n\r\nb\rc").unwrap(), "a\n\nb\nc", "CRLF and CR");
        assert_eq!(clean("**bold**\n\n\n- item\n# Title").unwrap(), "**bold**\n\n- item\n# Title", "markers stay");
    }

    #[test]
    fn code_blocks_are_kept_byte_for_byte() {
        let code = "```py\ndef f():\n\n\n\n    return 1  \n \n```";
        let text = format!("Intro.\n\n\n{code}\n\n\n\nOutro.");
        assert_eq!(clean(&text).unwrap(), format!("Intro.\n\n{code}\n\nOutro."));
    }

    #[test]
    fn empty_input_is_invalid() {
        for blank in ["", "   ", "\n\n\t\r\n", "\u{a0}\u{3000}"] {
            let error = clean(blank).unwrap_err();
            assert_eq!(error.code(), "INVALID_INPUT", "{blank:?}");
        }
    }
}
