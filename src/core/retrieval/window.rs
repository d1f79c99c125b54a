//! What the conversation read options narrow a read to (the conversation API's `GET /memories`, `/memories/search`): a
//! time range the memory's time span must overlap, the "current time" at which foresight that has run out
//! is dropped, and whether the originals of a compression are shown.
//!
//! A memory's time span is `metadata.startTime` to `metadata.endTime` (what conversation memories carry: the
//! first and last message of their episode); either alone is a span of one instant; a memory with neither
//! (or with unreadable times) spans its `createdAt`.

use serde_json::Value;

use crate::core::error::{MemoryError, Result};
use crate::core::model::types::MemoryItem;
use crate::core::model::MemoryType;
use crate::core::time::millis_from_iso;

/// One day in milliseconds: a foresight valid until a date is valid through that whole day (UTC).
const DAY_MS: i64 = 86_400_000;

/// The time options of a read, checked; the default narrows nothing (but hides compressed originals).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Window {
    /// `startTime`: the span must end at or after it (milliseconds since the epoch).
    pub start: Option<i64>,
    /// `endTime`: the span must start at or before it.
    pub end: Option<i64>,
    /// `currentTime`: foresight whose `validUntil` is before it is dropped.
    pub current: Option<i64>,
    /// Show memories a compression replaced (`metadata.compressed: true`).
    pub include_compressed: bool,
    /// `asOf`: read the memories as they were at this time (from history).
    pub as_of: Option<i64>,
    /// `referenceDate`: the "now" that relative times in a query count from.
    pub reference: Option<i64>,
}

/// An ISO 8601 time with a zone, as milliseconds; `INVALID_INPUT` naming `name` otherwise.
pub(crate) fn instant(name: &str, text: Option<&str>) -> Result<Option<i64>> {
    let Some(text) = text else { return Ok(None) };
    match millis_from_iso(text.trim()) {
        Some(millis) => Ok(Some(millis)),
        None => Err(MemoryError::InvalidInput(format!(
            "{name} must be an ISO 8601 time with a time zone (e.g. 2025-01-15T10:00:00Z), got {text:?}"
        ))),
    }
}

/// The first millisecond (UTC) of a date `YYYY-MM-DD`; `None` for anything else.
fn day_start(text: &str) -> Option<i64> {
    (text.len() == 10).then(|| millis_from_iso(&format!("{text}T00:00:00Z"))).flatten()
}

/// An ISO 8601 time with a zone, or a date `YYYY-MM-DD` (its midnight, UTC), as milliseconds.
pub(crate) fn time_or_day(text: &str) -> Option<i64> {
    let text = text.trim();
    millis_from_iso(text).or_else(|| day_start(text))
}

/// `referenceDate`: an ISO 8601 time with a zone, or a date `YYYY-MM-DD` (its midnight, UTC).
pub(crate) fn reference_date(text: Option<&str>) -> Result<Option<i64>> {
    match text.and_then(time_or_day) {
        Some(millis) => Ok(Some(millis)),
        None => instant("referenceDate", text),
    }
}

impl Window {
    /// Checks the options: every time has a zone, and `startTime` is not after `endTime`.
    pub fn parse(
        start: Option<&str>,
        end: Option<&str>,
        current: Option<&str>,
        include_compressed: bool,
    ) -> Result<Self> {
        let (start, end) = (instant("startTime", start)?, instant("endTime", end)?);
        if let (Some(from), Some(to)) = (start, end) {
            if from > to {
                return Err(MemoryError::InvalidInput("startTime must not be after endTime".into()));
            }
        }
        Ok(Self { start, end, current: instant("currentTime", current)?, include_compressed, ..Self::default() })
    }

    /// True when `item` overlaps the range, is not foresight that ran out, and is shown whether compressed.
    pub fn keeps(&self, item: &MemoryItem) -> bool {
        if !self.include_compressed && is_compressed(item) {
            return false;
        }
        if self.start.is_some() || self.end.is_some() {
            let (from, to) = span(item);
            if self.start.is_some_and(|start| to < start) || self.end.is_some_and(|end| from > end) {
                return false;
            }
        }
        self.current.is_none_or(|now| !foresight_over(item, now))
    }
}

/// True for an original a compression summarised: `metadata.compressed: true`.
pub fn is_compressed(item: &MemoryItem) -> bool {
    item.is_compressed()
}

fn metadata_time(item: &MemoryItem, key: &str) -> Option<i64> {
    item.metadata.get(key).and_then(Value::as_str).and_then(millis_from_iso)
}

/// The memory's time span in milliseconds: `metadata.startTime`–`endTime`, else `createdAt`.
pub fn span(item: &MemoryItem) -> (i64, i64) {
    match (metadata_time(item, "startTime"), metadata_time(item, "endTime")) {
        (Some(from), Some(to)) => (from.min(to), from.max(to)),
        (Some(at), None) | (None, Some(at)) => (at, at),
        (None, None) => {
            let at = millis_from_iso(&item.created_at).unwrap_or(0);
            (at, at)
        }
    }
}

/// The end of a foresight's validity: `validUntil` as a time, or a date `YYYY-MM-DD` valid through that day.
pub fn valid_until(item: &MemoryItem) -> Option<i64> {
    let text = item.metadata.get("validUntil").and_then(Value::as_str)?.trim();
    if let Some(at) = millis_from_iso(text) {
        return Some(at);
    }
    Some(day_start(text)? + DAY_MS - 1)
}

/// True for a foresight memory whose validity ended before `now`.
fn foresight_over(item: &MemoryItem, now: i64) -> bool {
    item.lifecycle.memory_type == MemoryType::Foresight && valid_until(item).is_some_and(|until| until < now)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn item(metadata: Value, kind: &str) -> MemoryItem {
        serde_json::from_value(json!({
            "id": "m", "memory": "x", "hash": "h", "createdAt": "2025-01-10T00:00:00.000Z",
            "updatedAt": "2025-01-10T00:00:00.000Z", "memoryType": kind, "metadata": metadata
        }))
        .unwrap()
    }

    fn window(start: Option<&str>, end: Option<&str>, current: Option<&str>) -> Window {
        Window::parse(start, end, current, false).unwrap()
    }

    #[test]
    fn a_span_overlapping_the_range_is_kept() {
        let episode = item(json!({"startTime": "2025-01-15T10:00:00Z", "endTime": "2025-01-15T11:00:00Z"}), "episodic");
        assert_eq!(span(&episode).1 - span(&episode).0, 3_600_000);
        let kept = |start, end| window(start, end, None).keeps(&episode);
        assert!(kept(Some("2025-01-15T10:30:00Z"), None), "starts inside");
        assert!(kept(None, Some("2025-01-15T10:00:00Z")), "ends at its start");
        assert!(kept(Some("2025-01-15T11:00:00+00:00"), Some("2025-01-16T00:00:00Z")), "touches its end");
        assert!(!kept(Some("2025-01-15T11:00:01Z"), None));
        assert!(!kept(None, Some("2025-01-15T09:59:59Z")));
        assert!(kept(Some("2025-01-15T12:00:00+02:00"), Some("2025-01-15T12:00:00+02:00")), "10:00Z in another zone");
        // Without metadata times: createdAt.
        let plain = item(json!({}), "semantic");
        assert!(window(Some("2025-01-09T00:00:00Z"), Some("2025-01-11T00:00:00Z"), None).keeps(&plain));
        assert!(!window(Some("2025-01-11T00:00:00Z"), None, None).keeps(&plain));
    }

    #[test]
    fn foresight_past_its_validity_is_dropped_at_the_current_time() {
        let dated = item(json!({"validUntil": "2025-01-24"}), "foresight");
        let timed = item(json!({"validUntil": "2025-01-24T12:00:00.000Z"}), "foresight");
        let open = item(json!({"validFrom": "2025-03-01"}), "foresight");
        let fact = item(json!({"validUntil": "2025-01-01"}), "semantic");
        let at = |now| window(None, None, Some(now));
        assert!(at("2025-01-24T23:59:59Z").keeps(&dated), "a date is valid through its day");
        assert!(!at("2025-01-25T00:00:00Z").keeps(&dated));
        assert!(!at("2025-01-24T12:00:01Z").keeps(&timed));
        assert!(at("2030-01-01T00:00:00Z").keeps(&open), "no validUntil: never over");
        assert!(at("2030-01-01T00:00:00Z").keeps(&fact), "only foresight");
    }

    #[test]
    fn compressed_originals_are_hidden_unless_asked_for() {
        let original = item(json!({"compressed": true}), "episodic");
        assert!(!Window::default().keeps(&original));
        assert!(Window { include_compressed: true, ..Window::default() }.keeps(&original));
        assert!(Window::default().keeps(&item(json!({"compressed": "yes"}), "episodic")));
    }

    #[test]
    fn times_need_a_zone_and_an_order() {
        for (start, end, current) in [
            (Some("2025-01-15T10:00:00"), None, None),
            (None, Some("2025-01-15"), None),
            (None, None, Some("now")),
            (Some("2025-01-16T00:00:00Z"), Some("2025-01-15T00:00:00Z"), None),
        ] {
            assert_eq!(Window::parse(start, end, current, false).unwrap_err().code(), "INVALID_INPUT");
        }
    }
}
