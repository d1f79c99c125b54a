//! The words of a query that say a time: its tokens (words and numbers), month, season and unit names, and
//! small counts written as words. ASCII only: every time word is.

/// One token of a query: a word (lower case, and whether it was capitalised) or a whole number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    Word { lower: String, capital: bool },
    Number(i64),
}

/// The tokens of `text`: runs of ASCII letters and of digits (`8th` is the number 8); anything else separates.
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_ascii_digit() {
            let mut end = start + 1;
            while let Some(&(i, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                end = i + d.len_utf8();
                chars.next();
            }
            let digits = &text[start..end];
            // An ordinal's suffix belongs to the number.
            let rest = &text[end..];
            if ["st", "nd", "rd", "th"].iter().any(|s| rest.get(..2).is_some_and(|r| r.eq_ignore_ascii_case(s))) {
                chars.next();
                chars.next();
            }
            out.push(Token::Number(if digits.len() > 6 { i64::MAX } else { digits.parse().unwrap_or(i64::MAX) }));
        } else if c.is_ascii_alphabetic() {
            let mut end = start + 1;
            while let Some(&(i, d)) = chars.peek().filter(|(_, d)| d.is_ascii_alphabetic()) {
                end = i + d.len_utf8();
                chars.next();
            }
            let word = &text[start..end];
            out.push(Token::Word { lower: word.to_ascii_lowercase(), capital: c.is_ascii_uppercase() });
        }
    }
    out
}

/// The weekdays' names, Monday first.
pub const WEEKDAYS: [&str; 7] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/// The months' names, January first.
pub const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The month (1–12) `word` names: its full name, or its first three letters (`sept` too).
pub fn month(word: &str) -> Option<u32> {
    let found =
        MONTHS.iter().position(|name| *name == word || (word.len() >= 3 && word.len() <= 4 && name.starts_with(word)));
    found.map(|i| i as u32 + 1)
}

/// The first month (1–12) of the season `word` names (northern hemisphere).
pub fn season(word: &str) -> Option<u32> {
    match word {
        "spring" => Some(3),
        "summer" => Some(6),
        "autumn" | "fall" => Some(9),
        "winter" => Some(12),
        _ => None,
    }
}

/// A length of time `word` names, in days (a month is 31, a year 366: windows are generous).
pub fn unit_days(word: &str) -> Option<i64> {
    match word.strip_suffix('s').unwrap_or(word) {
        "day" | "night" | "evening" | "morning" => Some(1),
        "weekend" => Some(3),
        "week" => Some(7),
        "fortnight" => Some(14),
        "month" => Some(31),
        "year" => Some(366),
        day if WEEKDAYS.contains(&day) => Some(7),
        _ => None,
    }
}

/// A small count written as a word or a number (`a`, `the`, `one` … `ten`, `few`, `couple`).
pub fn count(token: &Token) -> Option<i64> {
    match token {
        Token::Number(n) if (1..=400).contains(n) => Some(*n),
        Token::Number(_) => None,
        Token::Word { lower, .. } => match lower.as_str() {
            "a" | "an" | "the" | "one" | "last" | "past" | "previous" => Some(1),
            "two" | "couple" => Some(2),
            "three" | "few" => Some(3),
            "four" => Some(4),
            "five" => Some(5),
            "six" => Some(6),
            "seven" => Some(7),
            "eight" => Some(8),
            "nine" => Some(9),
            "ten" => Some(10),
            _ => None,
        },
    }
}
