//! Key patterns for `share()`: `*` matches any run of characters (none included), `?` exactly one;
//! everything else matches itself. A pattern must be 1–256 characters, without control characters.

use crate::core::error::{MemoryError, Result};

/// A checked key pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob(Vec<char>);

impl Glob {
    /// Checks `pattern`; `INVALID_INPUT` for an empty, over-long or control-character pattern.
    pub fn parse(pattern: &str) -> Result<Self> {
        let invalid = |why: &str| MemoryError::InvalidInput(format!("pattern {pattern:?}: {why}"));
        if pattern.is_empty() {
            return Err(invalid("must not be empty"));
        }
        if pattern.chars().count() > 256 {
            return Err(invalid("must be at most 256 characters"));
        }
        if pattern.chars().any(char::is_control) {
            return Err(invalid("must not contain control characters"));
        }
        Ok(Self(pattern.chars().collect()))
    }

    /// True when `text` matches the whole pattern.
    pub fn matches(&self, text: &str) -> bool {
        let text: Vec<char> = text.chars().collect();
        // Greedy matching with one backtrack point (the last `*`): linear for any pattern.
        let (mut p, mut t) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while t < text.len() {
            match self.0.get(p) {
                Some('*') => {
                    star = Some((p, t));
                    p += 1;
                }
                Some('?') => (p, t) = (p + 1, t + 1),
                Some(c) if *c == text[t] => (p, t) = (p + 1, t + 1),
                _ => match star {
                    Some((star_p, star_t)) => {
                        star = Some((star_p, star_t + 1));
                        (p, t) = (star_p + 1, star_t + 1);
                    }
                    None => return false,
                },
            }
        }
        self.0[p..].iter().all(|c| *c == '*')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(pattern: &str) -> Glob {
        Glob::parse(pattern).unwrap()
    }

    #[test]
    fn stars_and_question_marks() {
        assert!(glob("lesson_*").matches("lesson_42"));
        assert!(glob("lesson_*").matches("lesson_"));
        assert!(!glob("lesson_*").matches("lessons_1"));
        assert!(glob("reflection:*").matches("reflection:session_42"));
        assert!(glob("a?c").matches("abc") && !glob("a?c").matches("ac") && !glob("a?c").matches("abbc"));
        assert!(glob("*").matches("") && glob("*").matches("anything"));
        assert!(glob("*x*y").matches("axbxy") && !glob("*x*y").matches("axbx"));
        assert!(glob("exact").matches("exact") && !glob("exact").matches("exactly"));
        assert!(glob("ü?*").matches("üñ"));
    }

    #[test]
    fn malformed_patterns_are_coded_errors() {
        for pattern in [String::new(), "a\u{0}b".into(), "x".repeat(257)] {
            assert_eq!(Glob::parse(&pattern).unwrap_err().code(), "INVALID_INPUT");
        }
    }
}
