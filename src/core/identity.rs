//! Ids, content hashes and timestamps.

use md5::{Digest, Md5};
use web_time::{SystemTime, UNIX_EPOCH};

/// A fresh UUID v4.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// MD5 hex digest of `text`, the dedup key of seed 000 §2.1.
pub fn content_hash(text: &str) -> String {
    Md5::digest(text.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Now, as an ISO 8601 UTC timestamp with milliseconds (like JS `toISOString`).
pub fn now_iso() -> String {
    let millis = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
    iso_from_millis(millis)
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
fn civil_from_days(days: i64) -> (i64, u32, u32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md5_matches_known_digests() {
        assert_eq!(content_hash(""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(content_hash("hello"), "5d41402abc4b2a76b9719d911017c592");
        assert_eq!(content_hash("The quick brown fox jumps over the lazy dog"), "9e107d9d372bb6826bd81d3542a419d6");
    }

    #[test]
    fn ids_are_uuid_v4_and_unique() {
        let (a, b) = (new_id(), new_id());
        assert_ne!(a, b);
        let parsed = uuid::Uuid::parse_str(&a).unwrap();
        assert_eq!(parsed.get_version_num(), 4);
    }

    #[test]
    fn iso_timestamps_match_js_to_iso_string() {
        assert_eq!(iso_from_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_from_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_from_millis(1_710_498_030_123), "2024-03-15T10:20:30.123Z");
        assert_eq!(iso_from_millis(-1), "1969-12-31T23:59:59.999Z");
        assert!(now_iso().starts_with("20"));
    }
}
