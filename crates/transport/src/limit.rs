//! Per-(tenant, agent) rate limits: `requests` requests, refilled evenly
//! over `per_secs` (a generic cell rate algorithm, `governor`'s keyed
//! limiter); a request over the limit is refused with the time until the
//! next one is let through.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::Clock as GovernorClock;
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};
use palisade_engine::{Clock, SystemClock};

/// A request over its (tenant, agent) rate limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rate limited: try again in {retry_after_secs} s")]
pub struct RateLimited {
    /// Whole seconds until a request would be let through (at least 1).
    pub retry_after_secs: u64,
}

/// Most keys kept; beyond it, keys whose bucket is full again (idle ones)
/// are dropped.
const MAX_BUCKETS: usize = 100_000;

/// The service's clock as governor's: milliseconds of the engine's clock.
#[derive(Clone, Debug)]
struct ServiceClock(Arc<dyn Clock>);

impl GovernorClock for ServiceClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        Duration::from_millis(self.0.now_millis())
    }
}

type Keyed = RateLimiter<
    (String, String),
    DashMapStateStore<(String, String)>,
    ServiceClock,
    NoOpMiddleware<Duration>,
>;

/// The buckets of every (tenant, agent).
#[derive(Debug)]
pub(crate) struct Limiter {
    quota: Quota,
    clock: ServiceClock,
    limiter: Keyed,
}

impl Limiter {
    pub(crate) fn new(requests: u32, per_secs: u64) -> Self {
        let burst = NonZeroU32::new(requests).unwrap_or(NonZeroU32::MIN);
        let per = Duration::from_secs(per_secs.max(1));
        // One request every `per / requests`, at most `requests` at once.
        let quota = Quota::with_period(per / burst.get())
            .unwrap_or_else(|| Quota::per_second(burst))
            .allow_burst(burst);
        let clock = ServiceClock(Arc::new(SystemClock));
        Limiter {
            quota,
            limiter: RateLimiter::dashmap_with_clock(quota, clock.clone()),
            clock,
        }
    }

    /// Uses `clock` instead of the system clock (tests); the buckets start
    /// afresh.
    pub(crate) fn set_clock(&mut self, clock: Arc<dyn Clock>) {
        self.clock = ServiceClock(clock);
        self.limiter = RateLimiter::dashmap_with_clock(self.quota, self.clock.clone());
    }

    pub(crate) fn take(&self, tenant: &str, agent: &str) -> Result<(), RateLimited> {
        if self.limiter.len() >= MAX_BUCKETS {
            self.limiter.retain_recent();
        }
        let key = (tenant.to_owned(), agent.to_owned());
        self.limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(self.clock.now());
            RateLimited {
                retry_after_secs: wait.as_millis().div_ceil(1000).max(1) as u64,
            }
        })
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
