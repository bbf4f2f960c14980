//! The clock: where the engine gets the time (a [`Clock`], which tests
//! control), wall-clock timestamps and fresh identifiers.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where the engine gets the time for rate limits.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Milliseconds since some fixed point; must not go backwards.
    fn now_millis(&self) -> u64;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_millis(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }
}

/// Formats a time as RFC 3339 in UTC with milliseconds, such as
/// `2026-02-04T21:00:00.000Z`.
pub(crate) fn rfc3339(time: SystemTime) -> String {
    humantime::format_rfc3339_millis(time).to_string()
}

/// A fresh UUID version 7: 48 bits of Unix milliseconds (so ids sort by
/// time) and random bits.
pub(crate) fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_770_238_800_123);
        assert_eq!(rfc3339(t), "2026-02-04T21:00:00.123Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(rfc3339(leap), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn ids_are_uuid_v7_and_distinct() {
        let a = new_id();
        let b = new_id();
        assert_ne!(a, b);
        let parsed = uuid::Uuid::parse_str(&a).unwrap_or_default();
        assert_eq!(parsed.get_version_num(), 7, "{a}");
    }
}
