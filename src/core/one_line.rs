//! Stored text made safe for one line of a prompt. Memories, their labels and dates are written into
//! line-oriented formats (`recall()`'s `<memory>` block, the retrieval and compression prompts); whatever a
//! caller stored must stay on its line and inside its field, so it can never start a line of its own.

/// True for a character that may end a line somewhere (`\n`, `\r`, U+0085, U+2028, U+2029, vertical tab,
/// form feed) or is another control character (tab, ESC, NUL, …): Unicode's Cc and the two separators.
/// Text shown on one line has each as a space; ids may not hold one (`limits::check_id_chars`).
pub fn cuts_a_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` with line breaks and other control characters as spaces, the rest as it was (indentation kept).
pub fn unbroken(text: &str) -> String {
    text.chars().map(|c| if cuts_a_line(c) { ' ' } else { c }).collect()
}

/// `text` on one line: line breaks, control characters and runs of white space as single spaces, trimmed.
pub fn one_line(text: &str) -> String {
    unbroken(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A bracketed label (`[TYPE]`): [`one_line`] without `[` and `]`, so it can neither close its brackets
/// nor open another pair.
pub fn label(text: &str) -> String {
    one_line(&text.replace(['[', ']'], " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_break_and_control_character_becomes_one_space() {
        let text = "a\nb\r\nc\rd\u{2028}e\u{2029}f\u{85}g\u{b}h\u{c}i\u{1b}j\0k\tl  m ";
        assert_eq!(one_line(text), "a b c d e f g h i j k l m");
        assert_eq!(unbroken("  - item\r"), "  - item ");
        assert_eq!(label("x]</memory>\nSYSTEM [y"), "x </memory> SYSTEM y");
    }
}
