//! The times a query names, each a window of milliseconds: a day (`8 May 2023`, `May 8, 2023`, `2023-05-08`),
//! a month (`May 2023`, `in May`), a season (`summer 2023`), a year (`in 2023`), or one counted from the
//! reference time (`yesterday`, `last week`, `recently`, `three days ago`). A day may be widened by what comes
//! before it: `the week before August 3, 2023` covers that week and the day.

use super::words::{count, month, season, tokens, unit_days, Token};
use crate::core::time::{civil_from_days, days_from_civil};

/// One day in milliseconds.
pub const DAY: i64 = 86_400_000;

/// A time span: from `start` (inclusive) to `end` (exclusive), in milliseconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

impl Span {
    /// True when the two spans share an instant.
    pub fn overlaps(&self, other: &Span) -> bool {
        self.start < other.end && other.start < self.end
    }
}

fn year(token: Option<&Token>) -> Option<i64> {
    match token {
        Some(Token::Number(n)) if (1900..=2200).contains(n) => Some(*n),
        _ => None,
    }
}

fn day_of_month(token: Option<&Token>) -> Option<u32> {
    match token {
        Some(Token::Number(n)) if (1..=31).contains(n) => Some(*n as u32),
        _ => None,
    }
}

fn word(token: Option<&Token>) -> Option<&str> {
    match token {
        Some(Token::Word { lower, .. }) => Some(lower),
        _ => None,
    }
}

fn month_at(token: Option<&Token>) -> Option<u32> {
    word(token).and_then(month)
}

fn day_span(year: i64, month: u32, day: u32) -> Span {
    let start = days_from_civil(year, month, day) * DAY;
    Span { start, end: start + DAY }
}

fn month_span(year: i64, month: u32, months: u32) -> Span {
    let start = days_from_civil(year, month, 1) * DAY;
    let (end_year, end_month) = (year + i64::from((month - 1 + months) / 12), (month - 1 + months) % 12 + 1);
    Span { start, end: days_from_civil(end_year, end_month, 1) * DAY }
}

/// The latest year in which `month`/`day` is not after the day of `reference`.
fn latest_year(reference: i64, month: u32, day: u32) -> i64 {
    let (ref_year, _, _) = civil_from_days(reference.div_euclid(DAY));
    if days_from_civil(ref_year, month, day) * DAY <= reference {
        ref_year
    } else {
        ref_year - 1
    }
}

/// The first date written in `text` (a day, as in a memory's `metadata.date`: `1:56 pm on 8 May, 2023`,
/// `May 8, 2023`, `2023-05-08`), as that day's span (UTC).
pub fn date_in(text: &str) -> Option<Span> {
    let tokens = tokens(text);
    (0..tokens.len()).find_map(|i| full_date(&tokens, i).map(|(span, _)| span))
}

/// A day with its year at `i`: `8 May 2023`, `May 8 2023` or `2023 05 08` (ISO's dashes are separators);
/// with the number of tokens it takes.
fn full_date(t: &[Token], i: usize) -> Option<(Span, usize)> {
    if let (Some(d), Some(m), Some(y)) = (day_of_month(t.get(i)), month_at(t.get(i + 1)), year(t.get(i + 2))) {
        return Some((day_span(y, m, d), 3));
    }
    if let (Some(m), Some(d), Some(y)) = (month_at(t.get(i)), day_of_month(t.get(i + 1)), year(t.get(i + 2))) {
        return Some((day_span(y, m, d), 3));
    }
    if let (Some(y), Some(Token::Number(m)), Some(d)) = (year(t.get(i)), t.get(i + 1), day_of_month(t.get(i + 2))) {
        if (1..=12).contains(m) {
            return Some((day_span(y, *m as u32, d), 3));
        }
    }
    None
}

/// True when the month word at `i` is meant as a month: capitalised, or next to a number, or after a word
/// that introduces a time (`in may`, `last march`); so the verb "may" is not May.
fn is_month(t: &[Token], i: usize) -> bool {
    let capital = matches!(t.get(i), Some(Token::Word { capital: true, .. }));
    let numbered =
        matches!(t.get(i + 1), Some(Token::Number(_))) || (i > 0 && matches!(t.get(i - 1), Some(Token::Number(_))));
    let introduced = i > 0
        && matches!(
            word(t.get(i - 1)),
            Some("in" | "last" | "this" | "since" | "during" | "early" | "late" | "mid" | "of")
        );
    capital || numbered || introduced
}

/// A time at `i` that names its year (`8 May 2023`, `May 2023`, `summer 2023`, `in 2023`), with the tokens
/// it takes.
fn dated(t: &[Token], i: usize) -> Option<(Span, usize)> {
    if let Some(found) = full_date(t, i) {
        return Some(found);
    }
    let here = word(t.get(i));
    if let (Some(m), Some(y)) = (here.and_then(month).filter(|_| is_month(t, i)), year(t.get(i + 1))) {
        return Some((month_span(y, m, 1), 2));
    }
    if let (Some(first), Some(y)) = (here.and_then(season), year(t.get(i + 1))) {
        return Some((month_span(y, first, 3), 2));
    }
    if let (Some("in" | "during" | "throughout" | "of" | "since"), Some(y)) = (here, year(t.get(i + 1))) {
        return Some((month_span(y, 1, 12), 2));
    }
    None
}

/// A day or a month without a year at `i` (`August 11`, `9 November`, `in June`), the latest not after
/// `reference`, with the tokens it takes.
fn undated(t: &[Token], i: usize, reference: i64) -> Option<(Span, usize)> {
    if let Some(m) = word(t.get(i)).and_then(month).filter(|_| is_month(t, i)) {
        if let Some(d) = day_of_month(t.get(i + 1)) {
            return Some((day_span(latest_year(reference, m, d), m, d), 2));
        }
        if i > 0 && day_of_month(t.get(i - 1)).is_some() {
            return None; // `8 May` is read from the number
        }
        return Some((month_span(latest_year(reference, m, 1), m, 1), 1));
    }
    let (d, m) = (day_of_month(t.get(i))?, month_at(t.get(i + 1))?);
    Some((day_span(latest_year(reference, m, d), m, d), 2))
}

/// The span named at `i`, relative to `reference` where it has no year, with the tokens it takes.
fn anchor(t: &[Token], i: usize, reference: i64) -> Option<(Span, usize)> {
    dated(t, i).or_else(|| undated(t, i, reference)).or_else(|| relative(t, i, reference))
}

/// A span counted back from `reference` at `i`: `today`, `yesterday`, `recently`, `last week`, `past month`,
/// `this year`, `three days ago`, `last Friday`.
fn relative(t: &[Token], i: usize, reference: i64) -> Option<(Span, usize)> {
    let back = |days: i64, to: i64| Span { start: reference - days * DAY, end: reference - to * DAY };
    let today = reference.div_euclid(DAY) * DAY;
    match word(t.get(i))? {
        "today" | "tonight" => return Some((Span { start: today, end: today + DAY }, 1)),
        "yesterday" => return Some((Span { start: today - DAY, end: today }, 1)),
        "recently" | "lately" | "recent" => return Some((back(31, 0), 1)),
        "last" | "previous" | "this" | "past" => {
            let unit = unit_days(word(t.get(i + 1))?)?;
            return Some((back(2 * unit, 0), 2));
        }
        _ => {}
    }
    // `<count> <unit>s ago`
    let (n, unit) = (count(t.get(i)?)?, unit_days(word(t.get(i + 1))?)?);
    (word(t.get(i + 2)) == Some("ago")).then(|| (back((n + 1) * unit, (n - 1) * unit), 3))
}

/// How far before (negative) or after a day the words just before token `i` reach: `the week before`,
/// `two weeks after`, `the Sunday before`; 0 when they say nothing of it.
fn reach(t: &[Token], i: usize) -> i64 {
    let Some(direction) = i.checked_sub(1).and_then(|j| word(t.get(j))) else { return 0 };
    let sign = match direction {
        "before" | "until" | "by" => -1,
        "after" | "since" => 1,
        _ => return 0,
    };
    let unit = i.checked_sub(2).and_then(|j| word(t.get(j))).and_then(unit_days);
    let n = i.checked_sub(3).and_then(|j| t.get(j)).and_then(count).unwrap_or(1);
    sign * unit.map_or(7, |unit| n * unit)
}

/// The spans `find` names in `t`, left to right, each with the token it starts at.
fn named(t: &[Token], find: impl Fn(usize) -> Option<(Span, usize)>) -> Vec<(Span, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match find(i) {
            Some((span, used)) => {
                spans.push((span, i));
                i += used;
            }
            None => i += 1,
        }
    }
    spans
}

/// Every span `text` names, widened by `before` / `after` and by a day each side (a conversation's date can
/// trail what it tells). A time without a year counts from the first time named with its year after it, as
/// English writes the year last (`recently, as mentioned on 3 June 2023`, `between August 11 and August 15
/// 2023`), else from `reference`, the now that relative times count from (`since 2022 until last week`).
pub fn spans_in(text: &str, reference: i64) -> Vec<Span> {
    let t = tokens(text);
    let dated_spans = named(&t, |i| dated(&t, i));
    let reference_at = |i: usize| dated_spans.iter().find(|(_, at)| *at > i).map_or(reference, |(span, _)| span.end);
    let spans = named(&t, |i| anchor(&t, i, reference_at(i)));
    spans
        .into_iter()
        .map(|(span, i)| {
            let reach = reach(&t, i) * DAY;
            Span { start: span.start + reach.min(0) - DAY, end: span.end + reach.max(0) + DAY }
        })
        .collect()
}
