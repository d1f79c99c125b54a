//! Time-aware ranking: a query that names a time ("in May 2023", "the week before August 3", "last week")
//! raises the memories whose time falls in it. A memory's time is the time it refers to, not only when it
//! was stored: `metadata.eventTime`, else `metadata.date` (a conversation's session date, in any common
//! form), else its `startTime`–`endTime` span, else `createdAt`. Relative times count from the read's
//! `referenceDate`, else now. A question that asks when raises the memories that say a time ([`answers`]).

mod anchors;
mod answers;
mod words;

use serde_json::Value;

pub use anchors::{date_in, spans_in, Span, DAY};
pub use answers::{asks_when, raise_answers, says_a_time, WHEN_SHARE};
pub use words::{MONTHS, WEEKDAYS};

use crate::core::fusion::Ranking;
use crate::core::model::types::MemoryItem;
use crate::core::retrieval::window::span;
use crate::core::time::millis_from_iso;

/// The metadata key of the time a memory refers to (`add`'s `eventTime`).
pub const EVENT_TIME_KEY: &str = "eventTime";

/// How far a memory in the query's time rises towards the top score: `s + share · (top − s)`.
pub const TIME_SHARE: f64 = 0.3;

/// The time `text` names: the smallest span covering every time it names (`between May 1 and May 9`), or
/// `None` when it names none.
pub fn query_window(text: &str, reference: i64) -> Option<Span> {
    let spans = spans_in(text, reference);
    let start = spans.iter().map(|s| s.start).min()?;
    let end = spans.iter().map(|s| s.end).max()?;
    Some(Span { start, end })
}

/// A metadata value as a time: an ISO 8601 timestamp (that instant) or a text with a date in it (that day).
fn metadata_span(item: &MemoryItem, key: &str) -> Option<Span> {
    let text = item.metadata.get(key).and_then(Value::as_str)?;
    match millis_from_iso(text.trim()) {
        Some(at) => Some(Span { start: at, end: at + 1 }),
        None => date_in(text),
    }
}

/// The time `item` refers to: `metadata.eventTime`, `metadata.date`, its `startTime`–`endTime`, or `createdAt`.
pub fn event_span(item: &MemoryItem) -> Span {
    metadata_span(item, EVENT_TIME_KEY).or_else(|| metadata_span(item, "date")).unwrap_or_else(|| {
        let (start, end) = span(item);
        Span { start, end: end + 1 }
    })
}

/// `ranking` with every memory whose time (`time_of`) overlaps `window` raised: a score `s` becomes
/// `s + share · (top − s)`, so it keeps its place among the raised ones and never passes `top`. No window:
/// `ranking` as it is.
pub fn raise_in<'a>(
    ranking: Ranking<'a>,
    window: Option<Span>,
    time_of: impl Fn(&str) -> Option<Span>,
    share: f64,
    top: f64,
) -> Ranking<'a> {
    let Some(window) = window else { return ranking };
    raise_where(ranking, |id| time_of(id).is_some_and(|time| time.overlaps(&window)), share, top)
}

/// `ranking` with every memory `raised(id)` says raised: a score `s` becomes `s + share · (top − s)`.
pub(crate) fn raise_where<'a>(
    ranking: Ranking<'a>,
    raised: impl Fn(&str) -> bool,
    share: f64,
    top: f64,
) -> Ranking<'a> {
    let mut ranking: Ranking<'a> = ranking
        .into_iter()
        .map(|(score, id)| match raised(id) {
            true => (score + share * (top - score).max(0.0), id),
            false => (score, id),
        })
        .collect();
    crate::core::sort::sort_by(&mut ranking, |a, b| b.0.total_cmp(&a.0));
    ranking
}

/// The memories of `ranking` whose time (`time_of`) overlaps `window`, in their order; none without a window.
pub fn within<'a>(ranking: &Ranking<'a>, window: Option<Span>, time_of: impl Fn(&str) -> Option<Span>) -> Ranking<'a> {
    let Some(window) = window else { return Vec::new() };
    ranking.iter().filter(|(_, id)| time_of(id).is_some_and(|time| time.overlaps(&window))).copied().collect()
}

#[cfg(test)]
#[path = "query_time_tests.rs"]
mod tests;
