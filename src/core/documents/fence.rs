//! Fenced code blocks (CommonMark style): a line of three or more backticks or tildes, indented by at most
//! three spaces, opens a block; a line of at least as many of the same character, with nothing after it
//! but spaces, closes it. A block left open runs to the end of the text. Everything between, the fences
//! included, is code: cleaning leaves it as it is and chunking never cuts it.

/// What a line of a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// Empty or only whitespace, outside a code block: a paragraph boundary.
    Blank,
    /// Prose.
    Text,
    /// Part of a fenced code block (its fences included).
    Code,
}

/// The fence a line opens or closes: its character and length.
fn fence(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let mark = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = rest.chars().take_while(|c| *c == mark).count();
    (indent <= 3 && length >= 3).then_some((mark, length))
}

/// Whether `line` closes a block opened by `open`.
fn closes(line: &str, open: (char, usize)) -> bool {
    fence(line).is_some_and(|(mark, length)| {
        let after = line.trim_start_matches(' ').trim_start_matches(mark);
        mark == open.0 && length >= open.1 && after.trim().is_empty()
    })
}

/// Each line of `text` (split on `\n`) with its kind.
pub fn classify(text: &str) -> Vec<(&str, Line)> {
    let mut open: Option<(char, usize)> = None;
    text.split('\n')
        .map(|line| {
            let kind = match open {
                Some(fence) => {
                    if closes(line, fence) {
                        open = None;
                    }
                    Line::Code
                }
                None => match fence(line) {
                    Some(opened) => {
                        open = Some(opened);
                        Line::Code
                    }
                    None if line.trim().is_empty() => Line::Blank,
                    None => Line::Text,
                },
            };
            (line, kind)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Line::{Blank, Code, Text};

    fn kinds(text: &str) -> Vec<Line> {
        classify(text).into_iter().map(|(_, kind)| kind).collect()
    }

    #[test]
    fn fences_open_and_close_with_the_same_mark() {
        assert_eq!(kinds("a\n```rust\nx\n\ny\n```\n\nb"), [Text, Code, Code, Code, Code, Code, Blank, Text]);
        assert_eq!(
            kinds("~~~~\n```\n\n~~~\n~~~~~\nc"),
            [Code, Code, Code, Code, Code, Text],
            "``` and ~~~ inside ~~~~"
        );
        assert_eq!(kinds("```\nx\n``` not a close\n```"), [Code, Code, Code, Code]);
        assert_eq!(kinds("``\n    ```\nx"), [Text, Text, Text], "two backticks, or four spaces of indent");
        assert_eq!(kinds("```\nnever closed\n\nstill code"), [Code, Code, Code, Code]);
        assert_eq!(kinds(" \t \nx"), [Blank, Text]);
    }
}
