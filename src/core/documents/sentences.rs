//! Sentence boundaries inside a paragraph: after `.`, `!` or `?` followed by whitespace
//! and a capital letter. Closing quotes and brackets right after the mark stay with the sentence
//! (`…done." Then`). A period after a title (`Mr.`, `Dr.`, …) or a single capital (`J. Smith`) ends no
//! sentence. Chinese and Japanese have no capitals and no spaces, so `。`, `！` and `？` end a sentence
//! wherever text follows them.

/// Closing marks that belong to the sentence before them.
const CLOSERS: &[char] = &['"', '\'', ')', ']', '}', '”', '’', '»', '」', '』', '）', '】'];

/// Words whose period is an abbreviation, not the end of a sentence.
const TITLES: &[&str] = &["Mr", "Mrs", "Ms", "Dr", "Prof", "Sr", "Jr", "St", "Mt", "vs"];

/// Full-width sentence ends (CJK).
const WIDE_ENDS: &[char] = &['。', '！', '？'];

/// True when the word ending at byte `end` of `text` (just before a period) is an abbreviation.
fn abbreviation(text: &str, end: usize) -> bool {
    let word = text[..end].rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or_default();
    let single_capital = word.chars().count() == 1 && word.chars().all(char::is_uppercase);
    single_capital || TITLES.contains(&word)
}

/// The byte ranges of the sentences of `text`, trimmed, in order (the whole text when it has no boundary).
pub fn sentences(text: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, mark)) = chars.next() {
        let wide = WIDE_ENDS.contains(&mark);
        if !wide && !matches!(mark, '.' | '!' | '?') {
            continue;
        }
        let mut end = at + mark.len_utf8();
        while let Some(&(next, c)) = chars.peek() {
            if !CLOSERS.contains(&c) {
                break;
            }
            end = next + c.len_utf8();
            chars.next();
        }
        let rest = &text[end..];
        let gap = rest.len() - rest.trim_start().len();
        let next = rest[gap..].chars().next();
        let boundary = match next {
            None => false,
            Some(_) if wide => true,
            Some(c) => gap > 0 && c.is_uppercase() && !(mark == '.' && abbreviation(text, at)),
        };
        if boundary {
            found.push((start, end));
            start = end + gap;
        }
    }
    found.push((start, text.len()));
    found
        .into_iter()
        .map(|(a, b)| {
            let piece = &text[a..b];
            let lead = piece.len() - piece.trim_start().len();
            (a + lead, a + piece.trim_end().len())
        })
        .filter(|(a, b)| a < b)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        sentences(text).into_iter().map(|(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn ends_at_a_mark_followed_by_space_and_a_capital() {
        assert_eq!(split("One two. Three four! Five? Six"), ["One two.", "Three four!", "Five?", "Six"]);
        assert_eq!(split("He said \"go.\" Then left.\nNext line."), ["He said \"go.\"", "Then left.", "Next line."]);
        assert_eq!(split("Version 2.5 is out. it stays. why? because"), ["Version 2.5 is out. it stays. why? because"]);
        assert_eq!(split("See node.js. Also"), ["See node.js.", "Also"]);
        assert_eq!(split("Ask Dr. Smith and J. Doe. Done."), ["Ask Dr. Smith and J. Doe.", "Done."]);
        assert_eq!(split("Émile est là. Élodie aussi."), ["Émile est là.", "Élodie aussi."], "non-ASCII capitals");
        assert_eq!(split("  only one  "), ["only one"]);
    }

    #[test]
    fn cjk_sentences_end_at_full_width_marks() {
        assert_eq!(split("今天下雨。我们在家！你呢？"), ["今天下雨。", "我们在家！", "你呢？"]);
        assert_eq!(split("他说：「好。」然后走了。"), ["他说：「好。」", "然后走了。"]);
        assert_eq!(split("🎉 Party time! 🎉 again"), ["🎉 Party time! 🎉 again"], "an emoji is no capital");
    }
}
