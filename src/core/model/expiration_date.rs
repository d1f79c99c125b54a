//! mem0's `expirationDate`: a calendar day (`YYYY-MM-DD`, UTC) kept in `metadata.expiration_date`. After
//! that day the memory is hidden from `getAll` and `search` unless `showExpired`, but it is kept (`get`
//! still returns it, and clearing the date brings it back). `ttl` / `expiresAt` delete instead.

use serde_json::Value;

use crate::core::error::{MemoryError, Result};
use crate::core::model::types::MemoryItem;

/// The metadata key mem0 keeps the date under.
pub const KEY: &str = crate::core::model::types::EXPIRATION_DATE_KEY;

/// `value` when it is a real `YYYY-MM-DD` day, else `INVALID_INPUT` (the message mem0 gives).
pub fn normalized(value: &str) -> Result<String> {
    let invalid = || MemoryError::InvalidInput("expirationDate must be a valid date in YYYY-MM-DD format.".into());
    let bytes = value.as_bytes();
    let shaped = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes.iter().enumerate().all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
    if !shaped {
        return Err(invalid());
    }
    let number = |range: std::ops::Range<usize>| value[range].parse::<u32>().unwrap_or(0);
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(invalid()),
    };
    if day == 0 || day > days {
        return Err(invalid());
    }
    Ok(value.to_owned())
}

/// True when `item`'s expiration day is before the day of `now` (ISO 8601, UTC). A date that does not
/// parse never expires anything, as in mem0.
pub fn is_past(item: &MemoryItem, now: &str) -> bool {
    let today = now.get(..10).unwrap_or(now);
    match item.metadata.get(KEY) {
        Some(Value::String(date)) => normalized(date).is_ok_and(|date| date.as_str() < today),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_real_days_in_iso_form_pass() {
        for good in ["2099-12-31", "2096-02-29", "2000-02-29", "2024-01-01"] {
            assert_eq!(normalized(good).unwrap(), good);
        }
        for bad in ["12/31/2099", "2099-12-31T23:00:00", "2099-02-30", "2100-02-29", "2099-13-01", "2099-1-01", ""] {
            let error = normalized(bad).unwrap_err();
            assert!(error.to_string().contains("YYYY-MM-DD"), "{bad}: {error}");
            assert_eq!(error.code(), "INVALID_INPUT");
        }
    }

    #[test]
    fn a_day_is_past_once_it_is_over() {
        let mut item: MemoryItem = serde_json::from_value(serde_json::json!({
            "id": "1", "memory": "x", "hash": "h", "createdAt": "t", "updatedAt": "t"
        }))
        .unwrap();
        item.metadata.insert(KEY.into(), "2024-05-01".into());
        assert!(!is_past(&item, "2024-05-01T23:59:59.000Z"));
        assert!(is_past(&item, "2024-05-02T00:00:00.000Z"));
        item.metadata.insert(KEY.into(), "someday".into());
        assert!(!is_past(&item, "2999-01-01T00:00:00.000Z"));
    }
}
