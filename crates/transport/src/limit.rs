//! Per-(tenant, agent) token buckets: `requests` tokens, refilled evenly
//! over `per_secs`; a request takes one token or is refused with the time
//! until the next one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use palisade_engine::{Clock, SystemClock};

use crate::service::RateLimited;

/// Most buckets kept; beyond it, full buckets (idle keys) are dropped.
const MAX_BUCKETS: usize = 100_000;

/// The buckets of every (tenant, agent), as a generic cell rate algorithm:
/// each key keeps the theoretical arrival time of its next request, in units
/// of 1/`capacity` ms so that every step is exact.
#[derive(Debug)]
pub(crate) struct Limiter {
    capacity: u64,
    /// Milliseconds to refill the whole bucket (= units per token).
    per_ms: u64,
    clock: Arc<dyn Clock>,
    tats: Mutex<HashMap<(String, String), u64>>,
}

impl Limiter {
    pub(crate) fn new(requests: u32, per_secs: u64) -> Self {
        Limiter {
            capacity: u64::from(requests.max(1)),
            per_ms: per_secs.max(1).saturating_mul(1000),
            clock: Arc::new(SystemClock),
            tats: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn set_clock(&mut self, clock: Arc<dyn Clock>) {
        self.clock = clock;
    }

    pub(crate) fn take(&self, tenant: &str, agent: &str) -> Result<(), RateLimited> {
        let now = self.clock.now_millis().saturating_mul(self.capacity);
        let interval = self.per_ms;
        let tolerance = interval.saturating_mul(self.capacity - 1);
        let mut tats = self
            .tats
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if tats.len() >= MAX_BUCKETS {
            // Keys whose bucket is full again need no memory.
            tats.retain(|_, tat| *tat > now);
        }
        let tat = tats
            .entry((tenant.to_owned(), agent.to_owned()))
            .or_insert(now);
        let start = (*tat).max(now);
        if start - now > tolerance {
            let wait_units = start - now - tolerance;
            let wait_ms = wait_units.div_ceil(self.capacity);
            return Err(RateLimited {
                retry_after_secs: wait_ms.div_ceil(1000).max(1),
            });
        }
        *tat = start.saturating_add(interval);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[derive(Debug, Default)]
    struct Manual(AtomicU64);
    impl Clock for Manual {
        fn now_millis(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
    }

    #[test]
    fn a_bucket_empties_and_refills_evenly() {
        let clock = Arc::new(Manual::default());
        let mut l = Limiter::new(3, 60);
        l.set_clock(clock.clone());
        for _ in 0..3 {
            assert_eq!(l.take("t", "a"), Ok(()));
        }
        assert_eq!(
            l.take("t", "a"),
            Err(RateLimited {
                retry_after_secs: 20
            })
        );
        // Another agent, another tenant: their own buckets.
        assert_eq!(l.take("t", "b"), Ok(()));
        assert_eq!(l.take("u", "a"), Ok(()));
        // One token every 20 s.
        clock.0.store(19_999, Ordering::SeqCst);
        assert_eq!(
            l.take("t", "a"),
            Err(RateLimited {
                retry_after_secs: 1
            })
        );
        clock.0.store(20_000, Ordering::SeqCst);
        assert_eq!(l.take("t", "a"), Ok(()));
        assert!(l.take("t", "a").is_err());
        // Never more than the capacity, however long it waits.
        clock.0.store(10_000_000, Ordering::SeqCst);
        for _ in 0..3 {
            assert_eq!(l.take("t", "a"), Ok(()));
        }
        assert!(l.take("t", "a").is_err());
    }
}
