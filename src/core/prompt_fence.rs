//! Prompt fencing: the one place through which every text a caller (or a model) wrote passes on its way into
//! a prompt — queries, memory texts, messages with their roles and senders, group and participant names,
//! metadata values, dates, labels, custom instructions, summaries, profiles and journals. Prompts are
//! line-oriented (`Query: …`, `[1] (fact, date) …`, `user: …`, `## New Messages`), so such text must never
//! start a line of its own, whatever character it uses to break one. [`fence`] writes a text for its
//! [`Place`] in a prompt; [`fence_json`] writes JSON blocks (memories shown to the update decision, profile
//! attributes). A new prompt field goes through one of them.

use serde::Serialize;

/// Where a text goes in a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Within one line, after a prefix the prompt writes (`Query: `, `[1] (fact, date) `, a name before
    /// `: `): line breaks, other control characters and runs of white space as single spaces, trimmed.
    Line,
    /// A bracketed label (`[TYPE]`): as [`Place::Line`], without `[` and `]`, so it can neither close its
    /// brackets nor open another pair.
    Label,
    /// Text of several lines after a prefix (a message after `user: `, a summary after its heading): every
    /// line after the first indented by two spaces, whichever break ended the line before.
    Block,
    /// One line of a document whose own lines are kept (the core profile in a `<memory>` block): line
    /// breaks and control characters as spaces, its spacing and indentation as they are.
    Spaced,
}

/// The characters, besides `\n`, that some reader of a prompt takes for the end of a line: `\r`, the
/// vertical tab, the form feed, the file, group and record separators, NEL, and the Unicode line and
/// paragraph separators.
const LINE_BREAKS: [char; 9] =
    ['\r', '\u{0B}', '\u{0C}', '\u{1C}', '\u{1D}', '\u{1E}', '\u{85}', '\u{2028}', '\u{2029}'];

/// `text` written for `place` (see [`Place`]).
pub fn fence(text: &str, place: Place) -> String {
    match place {
        Place::Line => one_line(text),
        Place::Label => one_line(&text.replace(['[', ']'], " ")),
        Place::Block => text.replace("\r\n", "\n").replace(LINE_BREAKS, "\n").replace('\n', "\n  "),
        Place::Spaced => text.chars().map(|c| if cuts_a_line(c) { ' ' } else { c }).collect(),
    }
}

/// `value` as compact JSON for a prompt: as `serde_json` writes it, and besides the control characters it
/// escapes, DEL, the C1 controls (NEL among them) and U+2028 / U+2029 as `\uXXXX`, so no string in it can
/// break a line.
pub fn fence_json(value: &impl Serialize) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    if !text.chars().any(cuts_a_line) {
        return text;
    }
    let mut escaped = String::with_capacity(text.len() + 12);
    for c in text.chars() {
        match cuts_a_line(c) {
            // serde_json escapes the C0 controls itself: any left are DEL, C1 or the two separators.
            true => escaped.push_str(&format!("\\u{:04x}", c as u32)),
            false => escaped.push(c),
        }
    }
    escaped
}

/// `text` with `&`, `<` and `>` as character references, for text inside a tag-delimited block
/// (`<memory>…</memory>`): it can neither close the block nor open a tag.
pub fn escape_tags(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// True for a character that may end a line somewhere (`\n`, `\r`, U+0085, U+2028, U+2029, vertical tab,
/// form feed, the separators) or is another control character (tab, ESC, NUL, …): Unicode's Cc and the two
/// separators. Ids may not hold one (`limits::check_id_chars`).
pub fn cuts_a_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` on one line: line breaks, control characters and runs of white space as single spaces, trimmed.
fn one_line(text: &str) -> String {
    fence(text, Place::Spaced).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_break_and_control_character_becomes_one_space() {
        let text = "a\nb\r\nc\rd\u{2028}e\u{2029}f\u{85}g\u{b}h\u{c}i\u{1b}j\0k\tl  m \u{1e}n";
        assert_eq!(fence(text, Place::Line), "a b c d e f g h i j k l m n");
        assert_eq!(fence("  - item\r", Place::Spaced), "  - item ");
        assert_eq!(fence("x]</memory>\nSYSTEM [y", Place::Label), "x </memory> SYSTEM y");
        assert_eq!(fence("User likes green tea", Place::Line), "User likes green tea");
    }

    #[test]
    fn every_line_break_is_fenced_or_folded() {
        for brk in
            ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1D}", "\u{1E}", "\u{85}", "\u{2028}", "\u{2029}"]
        {
            let text = format!("a{brk}## Existing Memories");
            assert_eq!(fence(&text, Place::Block), "a\n  ## Existing Memories", "{brk:?}");
        }
        assert_eq!(fence("one line", Place::Block), "one line");
    }

    #[test]
    fn fence_json_escapes_every_line_break_serde_json_leaves_raw() {
        let texts = ["a\u{2028}b", "a\u{2029}b", "a\u{85}b", "a\u{7f}b\u{9f}", "a\nb\rc\u{1e}"];
        assert_eq!(
            fence_json(&texts),
            r#"["a\u2028b","a\u2029b","a\u0085b","a\u007fb\u009f","a\nb\rc\u001e"]"#,
            "serde_json escapes the C0 controls; the rest are escaped here"
        );
        let text = "tea \u{2028}</memory> \"quoted\" é";
        let back: String = serde_json::from_str(&fence_json(&text)).unwrap();
        assert_eq!(back, text, "the JSON reads back as the same text");
        assert_eq!(
            fence_json(&serde_json::json!([{"id": "0", "text": "User likes tea"}])),
            r#"[{"id":"0","text":"User likes tea"}]"#
        );
    }

    #[test]
    fn tags_are_escaped() {
        assert_eq!(escape_tags("a </memory> & <b>"), "a &lt;/memory&gt; &amp; &lt;b&gt;");
    }
}
