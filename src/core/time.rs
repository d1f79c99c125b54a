//! Time: ISO 8601 timestamps (formatted like JS `toISOString`, parsed from RFC 3339), and the clock the
//! engine reads, which an app or a test can replace (TTL, decay and limits never need a sleep to test).

use std::cell::Cell;
use std::rc::Rc;

use web_time::{SystemTime, UNIX_EPOCH};

/// How far ahead of the clock a stored memory's creation time may be and still be followed by the next turns
/// (turns are stamped a millisecond apart, so a lead is as long as the turns of the last calls in ms).
const MAX_LEAD_MS: i64 = 60_000;

/// Where the engine reads the time, in milliseconds since the Unix epoch; the first millisecond not yet
/// handed out for turns (see `turn_stamps`), and the latest creation time among the memories loaded (see
/// `loaded_up_to`), both shared by the clock's clones.
#[derive(Clone)]
pub struct Clock {
    now: Option<Rc<dyn Fn() -> i64>>,
    next_turn: Rc<Cell<i64>>,
    loaded: Rc<Cell<i64>>,
}

impl Default for Clock {
    /// The system clock.
    fn default() -> Self {
        Self { now: None, next_turn: Rc::default(), loaded: Rc::default() }
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.now.is_some() { "Clock(injected)" } else { "Clock(system)" })
    }
}

impl Clock {
    /// A clock that asks `now` (e.g. a test's movable time, or a JS `() => Date.now()`).
    pub fn from_fn(now: impl Fn() -> i64 + 'static) -> Self {
        Self { now: Some(Rc::new(now)), next_turn: Rc::default(), loaded: Rc::default() }
    }

    /// This clock, reading the time from `other` from now on: the turns it stamped and the memories it
    /// loaded are kept.
    pub fn replaced_by(&self, other: Clock) -> Clock {
        other.next_turn.set(other.next_turn.get().max(self.next_turn.get()));
        other.loaded.set(other.loaded.get().max(self.loaded.get()));
        other
    }

    /// The first of `count` successive milliseconds for the turns of one call, so the order they were said
    /// in survives: now, or later when the turns of an earlier call were stamped ahead of the clock, so that a
    /// call's turns never land among those of the call before, nor among the stored ones an engine before a
    /// restart stamped ahead (see `loaded_up_to`).
    pub fn turn_stamps(&self, count: usize) -> i64 {
        let now = self.now_ms();
        let loaded = self.loaded.get();
        let after_loaded = if loaded <= now.saturating_add(MAX_LEAD_MS) { loaded.saturating_add(1) } else { now };
        let first = now.max(self.next_turn.get()).max(after_loaded);
        self.next_turn.set(first.saturating_add(count as i64));
        first
    }

    /// The time a write is stamped with: now, or the last turn stamped or the latest creation time loaded
    /// when either is ahead of the clock by at most `MAX_LEAD_MS`, so that every memory is created no earlier
    /// than those before it (storage lists a scope in creation order, and an open image's journal must
    /// follow it).
    pub fn stamp_ms(&self) -> i64 {
        let now = self.now_ms();
        let ahead = |at: i64| if at <= now.saturating_add(MAX_LEAD_MS) { at } else { now };
        now.max(ahead(self.next_turn.get().saturating_sub(1))).max(ahead(self.loaded.get()))
    }

    /// Notes the latest creation time (`createdAt`) among memories just loaded from storage: the next turns
    /// come after it when it is at most a minute ahead of the clock (the turns an engine stamped ahead before
    /// a restart), not when a memory is dated further in the future.
    pub fn loaded_up_to<'a>(&self, created: impl Iterator<Item = &'a str>) {
        // ISO 8601 times in UTC sort as text: only the latest is parsed.
        if let Some(latest) = created.max().and_then(millis_from_iso) {
            self.loaded.set(self.loaded.get().max(latest));
        }
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match &self.now {
            Some(now) => now(),
            None => SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0),
        }
    }

    /// Now, as an ISO 8601 UTC timestamp with milliseconds.
    pub fn now_iso(&self) -> String {
        iso_from_millis(self.now_ms())
    }
}

/// Now by the system clock, as an ISO 8601 UTC timestamp with milliseconds (like JS `toISOString`).
pub fn now_iso() -> String {
    Clock::default().now_iso()
}

/// Formats milliseconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn iso_from_millis(millis: i64) -> String {
    let days = millis.div_euclid(86_400_000);
    let ms_of_day = millis.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (hours, minutes) = (ms_of_day / 3_600_000, ms_of_day / 60_000 % 60);
    let (seconds, ms) = (ms_of_day / 1000 % 60, ms_of_day % 1000);
    format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{ms:03}Z")
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Days since 1970-01-01 of a Gregorian date (the inverse of `civil_from_days`).
pub(crate) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = i64::from((month + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Milliseconds since the Unix epoch of an RFC 3339 timestamp with a time zone (`Z` or `±HH:MM`), e.g.
/// `2025-01-31T09:30:00Z` or `2025-01-31T10:30:00.250+01:00`; `None` for anything else (a date alone, a
/// time without a zone, an impossible date).
pub fn millis_from_iso(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let number = |from: usize, len: usize| -> Option<i64> {
        let part = text.get(from..from + len)?;
        part.bytes().all(|b| b.is_ascii_digit()).then(|| part.parse().ok())?
    };
    let at = |index: usize, byte: u8| bytes.get(index) == Some(&byte);
    if !(at(4, b'-') && at(7, b'-') && (at(10, b'T') || at(10, b't') || at(10, b' ')) && at(13, b':') && at(16, b':')) {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 2)? as u32, number(8, 2)? as u32);
    let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days_in_month || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &text[19..];
    let mut millis = 0i64;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        // The first three digits, padded with zeros: no allocation, as this runs once per memory read by time.
        let first = fraction.bytes().take(digits.min(3)).chain(std::iter::repeat(b'0')).take(3);
        millis = first.fold(0, |sum, digit| sum * 10 + i64::from(digit - b'0'));
        rest = &fraction[digits..];
    }
    let offset_minutes = match rest {
        "Z" | "z" => 0,
        // `get`, not indexing: a zone of 6 bytes may hold a multi-byte character (found by fuzzing).
        zone if zone.len() == 6 && (zone.starts_with('+') || zone.starts_with('-')) && zone.get(3..4) == Some(":") => {
            let (hours, minutes) = (zone.get(1..3)?.parse::<i64>().ok()?, zone.get(4..6)?.parse::<i64>().ok()?);
            if hours > 23 || minutes > 59 {
                return None;
            }
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            sign * (hours * 60 + minutes)
        }
        _ => return None,
    };
    let seconds = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second.min(59);
    Some((seconds - offset_minutes * 60) * 1000 + millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_timestamps_match_js_to_iso_string() {
        assert_eq!(iso_from_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_from_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_from_millis(1_710_498_030_123), "2024-03-15T10:20:30.123Z");
        assert_eq!(iso_from_millis(-1), "1969-12-31T23:59:59.999Z");
        assert!(now_iso().starts_with("20"));
    }

    #[test]
    fn rfc_3339_parses_with_zones_and_fractions() {
        assert_eq!(millis_from_iso("2024-03-15T10:20:30.123Z"), Some(1_710_498_030_123));
        assert_eq!(millis_from_iso("2024-03-15T11:20:30.123+01:00"), Some(1_710_498_030_123));
        assert_eq!(millis_from_iso("2024-03-15T05:20:30.1234-05:00"), Some(1_710_498_030_123));
        assert_eq!(millis_from_iso("2000-02-29T00:00:00Z"), Some(951_782_400_000));
        assert_eq!(millis_from_iso("1969-12-31T23:59:59.999Z"), Some(-1));
        for millis in [0, 1, 86_399_999, 1_710_498_030_123, -62_135_596_800_000] {
            assert_eq!(millis_from_iso(&iso_from_millis(millis)), Some(millis));
        }
    }

    #[test]
    fn malformed_or_zoneless_timestamps_are_refused() {
        for text in [
            "",
            "2024-03-15",
            "2024-03-15T10:20:30",
            "2024-03-15T10:20:30.Z",
            "2024-02-30T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-03-15T24:00:00Z",
            "2024-03-15T10:20:30+1:00",
            "2024-03-15T10:20:30Zjunk",
            "2005-01-15T10:01:00+4\u{3bd}00", // a multi-byte character in the zone (a fuzzing find: it panicked)
            "2005-01-15T10:01:00+\u{3bd}:00",
            "2005-01-15T10:01:00+00:\u{3bd}",
            "tomorrow",
            "2024-03-15T10:20:30+24:00",
        ] {
            assert_eq!(millis_from_iso(text), None, "{text:?}");
        }
    }

    #[test]
    fn an_injected_clock_is_read_each_time() {
        let now = std::rc::Rc::new(std::cell::Cell::new(1_000i64));
        let clock = Clock::from_fn({
            let now = now.clone();
            move || now.get()
        });
        assert_eq!(clock.now_iso(), "1970-01-01T00:00:01.000Z");
        now.set(86_400_000);
        assert_eq!(clock.now_ms(), 86_400_000);
    }
}
