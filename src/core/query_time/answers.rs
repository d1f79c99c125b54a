//! A question that asks when ("When did…", "How long ago…", "What year…") is answered by a memory that says
//! a time ("yesterday", "last week", "two years ago", "in May", "2022"): such memories rise in its fused
//! ranking, as a memory in a time the query names does ([`super::raise_in`]). English words only, as the
//! query's time words are.

use super::words::{tokens, Token, MONTHS, WEEKDAYS};
use crate::core::fusion::Ranking;

/// How far a memory that says a time rises towards the top score for a question that asks when.
pub const WHEN_SHARE: f64 = 0.3;

/// The periods `last` and `next` say a time with: `last week`, `next summer`, `last time`.
const AFTER_LAST_OR_NEXT: [&str; 10] =
    ["week", "month", "year", "weekend", "night", "summer", "winter", "spring", "fall", "time"];
/// The periods `this` says a time with: `this morning`, `this weekend`.
const AFTER_THIS: [&str; 6] = ["morning", "week", "weekend", "month", "year", "summer"];

/// Whether `query` asks when: it starts with `when`, `how long`, `what year` (`month`, `date`, `day`, `time`)
/// or `in which year` (`month`).
pub fn asks_when(query: &str) -> bool {
    let words: Vec<String> = tokens(query)
        .into_iter()
        .take(3)
        .map(|token| match token {
            Token::Word { lower, .. } => lower,
            Token::Number(_) => String::new(),
        })
        .collect();
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    match word(0) {
        "when" => true,
        "how" => word(1) == "long",
        "what" => matches!(word(1), "year" | "month" | "date" | "day" | "time"),
        "in" => word(1) == "which" && matches!(word(2), "year" | "month"),
        _ => false,
    }
}

/// Whether `text` says a time: a day word (`yesterday`, `tonight`, `recently`, a weekday, a month's name), a
/// year (1900–2099), `last` / `next` / `this` and a period, or a count of days, weeks, months or years.
pub fn says_a_time(text: &str) -> bool {
    let tokens = tokens(text);
    let period = |w: &str| matches!(w.strip_suffix('s').unwrap_or(w), "day" | "week" | "month" | "year");
    tokens.iter().enumerate().any(|(i, token)| {
        let next = match tokens.get(i + 1) {
            Some(Token::Word { lower, .. }) => lower.as_str(),
            _ => "",
        };
        match token {
            Token::Number(n) => (1900..=2099).contains(n) || period(next),
            Token::Word { lower, .. } => {
                let w = lower.as_str();
                let day = w.strip_suffix('s').unwrap_or(w);
                matches!(w, "yesterday" | "today" | "tonight" | "tomorrow" | "ago" | "recently" | "lately")
                    || day == "weekend"
                    || WEEKDAYS.contains(&day)
                    || MONTHS.contains(&w)
                    || (matches!(w, "a" | "one" | "two" | "three" | "few") && period(next))
                    || (matches!(w, "last" | "next") && AFTER_LAST_OR_NEXT.contains(&next))
                    || (w == "this" && AFTER_THIS.contains(&next))
            }
        }
    })
}

/// `ranking` with every memory whose text (`text_of`) says a time raised when `query` asks when: a score `s`
/// becomes `s + share · (top − s)`. Otherwise `ranking` as it is.
pub fn raise_answers<'a, 't>(
    ranking: Ranking<'a>,
    query: &str,
    text_of: impl Fn(&str) -> Option<&'t str>,
    share: f64,
    top: f64,
) -> Ranking<'a> {
    if !asks_when(query) {
        return ranking;
    }
    super::raise_where(ranking, |id| text_of(id).is_some_and(says_a_time), share, top)
}
