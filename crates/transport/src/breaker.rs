//! The circuit breaker (SPEC §7): per tenant, when the share of blocked
//! decisions in a rolling window exceeds a threshold (with a minimum
//! number of decisions) it opens, and every request is blocked with
//! `guardrail.circuit_open` for a cool-down; then it is half-open: requests
//! are decided again as probes, and the first probe that is not blocked
//! closes it (a blocked one opens it again).

use std::sync::{Arc, Mutex};

use crate::config::CircuitBreaker as Config;
use palisade_engine::{Clock, SystemClock};

/// The breaker's state, as reported to callers and in metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum State {
    /// Requests are decided normally.
    Closed,
    /// Every request is blocked until the cool-down ends.
    Open,
    /// The cool-down ended: requests are decided as probes.
    HalfOpen,
}

impl State {
    /// `closed`, `open` or `half_open`.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Closed => "closed",
            State::Open => "open",
            State::HalfOpen => "half_open",
        }
    }
}

/// One second of the rolling window.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    second: u64,
    total: u32,
    blocked: u32,
}

#[derive(Debug)]
struct Inner {
    slots: Vec<Slot>,
    /// When the breaker opened (ms), while open.
    opened_at: Option<u64>,
    half_open: bool,
}

/// One tenant's breaker.
#[derive(Debug)]
pub struct Breaker {
    config: Config,
    clock: Arc<dyn Clock>,
    inner: Mutex<Inner>,
}

impl Breaker {
    /// A closed breaker.
    pub fn new(config: Config) -> Self {
        let slots = config.window_secs.clamp(1, 3600) as usize;
        Breaker {
            config,
            clock: Arc::new(SystemClock),
            inner: Mutex::new(Inner {
                slots: vec![Slot::default(); slots],
                opened_at: None,
                half_open: false,
            }),
        }
    }

    /// Uses `clock` instead of the system clock.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The state now (an open breaker whose cool-down has ended is half-open).
    pub fn state(&self) -> State {
        let now = self.clock.now_millis();
        let mut inner = self.lock();
        self.advance(&mut inner, now)
    }

    fn advance(&self, inner: &mut Inner, now: u64) -> State {
        if let Some(at) = inner.opened_at {
            if now.saturating_sub(at) < self.config.cooldown_secs.saturating_mul(1000) {
                return State::Open;
            }
            inner.opened_at = None;
            inner.half_open = true;
        }
        if inner.half_open {
            State::HalfOpen
        } else {
            State::Closed
        }
    }

    /// Whether a request may be decided (closed or half-open); when open,
    /// the seconds left of the cool-down.
    pub fn admit(&self) -> Result<State, u64> {
        let now = self.clock.now_millis();
        let mut inner = self.lock();
        match self.advance(&mut inner, now) {
            State::Open => {
                let at = inner.opened_at.unwrap_or(now);
                let left = (at + self.config.cooldown_secs * 1000).saturating_sub(now);
                Err(left.div_ceil(1000).max(1))
            }
            s => Ok(s),
        }
    }

    /// Counts a decision; opens or closes the breaker as the rate says.
    /// Returns the state after it.
    pub fn record(&self, blocked: bool) -> State {
        let now = self.clock.now_millis();
        let second = now / 1000;
        let mut inner = self.lock();
        let state = self.advance(&mut inner, now);
        if state == State::Open {
            return state;
        }
        if state == State::HalfOpen {
            inner.half_open = false;
            for s in inner.slots.iter_mut() {
                *s = Slot::default();
            }
            if blocked {
                inner.opened_at = Some(now);
                return State::Open;
            }
            return State::Closed;
        }
        let n = inner.slots.len() as u64;
        let slot = &mut inner.slots[(second % n) as usize];
        if slot.second != second {
            *slot = Slot {
                second,
                total: 0,
                blocked: 0,
            };
        }
        slot.total += 1;
        slot.blocked += u32::from(blocked);
        let (total, blocked_n) = inner
            .slots
            .iter()
            .filter(|s| second.saturating_sub(s.second) < n && s.total > 0)
            .fold((0u64, 0u64), |(t, b), s| {
                (t + u64::from(s.total), b + u64::from(s.blocked))
            });
        let rate = if total == 0 {
            0.0
        } else {
            blocked_n as f64 / total as f64
        };
        if total >= u64::from(self.config.min_requests) && rate > self.config.threshold {
            inner.opened_at = Some(now);
            return State::Open;
        }
        State::Closed
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

    fn config() -> Config {
        serde_json::from_value(serde_json::json!({
            "window_secs": 60, "min_requests": 10, "threshold": 0.5, "cooldown_secs": 30
        }))
        .unwrap()
    }

    #[test]
    fn closed_open_half_open_closed() {
        let clock = Arc::new(Manual::default());
        let b = Breaker::new(config()).with_clock(clock.clone());
        // Blocks below the minimum count do not open it.
        for _ in 0..9 {
            assert_eq!(b.record(true), State::Closed);
        }
        // The tenth decision reaches the minimum at a 100% block rate.
        assert_eq!(b.record(true), State::Open);
        assert_eq!(b.admit(), Err(30));
        clock.0.store(29_000, Ordering::SeqCst);
        assert_eq!(b.admit(), Err(1));
        // After the cool-down: half-open; an allowed probe closes it.
        clock.0.store(30_000, Ordering::SeqCst);
        assert_eq!(b.admit(), Ok(State::HalfOpen));
        assert_eq!(b.record(false), State::Closed);
        assert_eq!(b.state(), State::Closed);
    }

    #[test]
    fn a_blocked_probe_opens_it_again_and_the_window_rolls() {
        let clock = Arc::new(Manual::default());
        let b = Breaker::new(config()).with_clock(clock.clone());
        for _ in 0..10 {
            b.record(true);
        }
        clock.0.store(31_000, Ordering::SeqCst);
        assert_eq!(b.state(), State::HalfOpen);
        assert_eq!(b.record(true), State::Open);
        clock.0.store(62_000, Ordering::SeqCst);
        assert_eq!(b.record(false), State::Closed);
        // Half blocked is not more than the threshold.
        for i in 0..20 {
            assert_eq!(b.record(i % 2 == 1), State::Closed);
        }
        // Blocks older than the window no longer count.
        let clock2 = Arc::new(Manual::default());
        let b = Breaker::new(config()).with_clock(clock2.clone());
        for _ in 0..9 {
            b.record(true);
        }
        clock2.0.store(61_000, Ordering::SeqCst);
        assert_eq!(b.record(true), State::Closed, "nine old blocks fell out");
    }
}
