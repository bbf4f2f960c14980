//! Rate limits: more than `max` requests in a sliding window of `window`
//! for one key is a hit. Time comes from a [`Clock`] so tests control it.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::Mutex;
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

/// Most keys one rate-limit check remembers; the least recently seen are
/// forgotten first (after the expired ones).
pub(crate) const MAX_KEYS: usize = 100_000;

/// The sliding-window counters of one check.
#[derive(Debug)]
pub(crate) struct Limiter {
    max: u32,
    window_ms: u64,
    keys: Mutex<HashMap<String, VecDeque<u64>>>,
}

impl Limiter {
    pub(crate) fn new(max: u32, window_secs: u64) -> Self {
        Self {
            max,
            window_ms: window_secs.saturating_mul(1000),
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request for `key` at `now`; true when it is over the limit
    /// (requests over the limit are not counted).
    pub(crate) fn over(&self, key: &str, now: u64) -> bool {
        let Ok(mut keys) = self.keys.lock() else {
            // A poisoned lock means a panic elsewhere; fail closed.
            return true;
        };
        if !keys.contains_key(key) && keys.len() >= MAX_KEYS {
            Self::evict(&mut keys, now, self.window_ms);
        }
        let times = keys.entry(key.to_owned()).or_default();
        while times
            .front()
            .is_some_and(|&t| now.saturating_sub(t) >= self.window_ms)
        {
            times.pop_front();
        }
        if times.len() >= self.max as usize {
            return true;
        }
        times.push_back(now);
        false
    }

    fn evict(keys: &mut HashMap<String, VecDeque<u64>>, now: u64, window_ms: u64) {
        keys.retain(|_, t| {
            t.back()
                .is_some_and(|&last| now.saturating_sub(last) < window_ms)
        });
        if keys.len() >= MAX_KEYS {
            // Still full of live keys: forget the quarter seen least recently.
            let mut last: Vec<u64> = keys
                .values()
                .map(|t| t.back().copied().unwrap_or(0))
                .collect();
            last.sort_unstable();
            let cut = last[last.len() / 4];
            keys.retain(|_, t| t.back().is_some_and(|&l| l > cut));
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.lock().map(|k| k.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_a_sliding_window_with_exact_edges() {
        let l = Limiter::new(2, 10);
        assert!(!l.over("a", 0));
        assert!(!l.over("a", 5_000));
        assert!(l.over("a", 9_999), "third request inside the window");
        assert!(!l.over("b", 9_999), "keys are separate");
        assert!(
            !l.over("a", 10_000),
            "the first request left the window at exactly 10 s"
        );
        assert!(l.over("a", 10_001));
        assert!(!l.over("a", 15_000));
    }

    #[test]
    fn over_limit_requests_are_not_counted() {
        let l = Limiter::new(1, 1);
        assert!(!l.over("k", 0));
        for t in 1..999 {
            assert!(l.over("k", t));
        }
        assert!(!l.over("k", 1_000));
    }

    #[test]
    fn state_is_bounded() {
        let l = Limiter::new(5, 60);
        for i in 0..(MAX_KEYS + 10) {
            l.over(&format!("k{i}"), i as u64);
        }
        assert!(l.len() <= MAX_KEYS);
        // Expired keys go first.
        let l = Limiter::new(5, 1);
        for i in 0..MAX_KEYS {
            l.over(&format!("k{i}"), 0);
        }
        l.over("late", 5_000);
        assert_eq!(l.len(), 1);
    }

    #[test]
    fn concurrent_use_counts_every_request_once() {
        let l = std::sync::Arc::new(Limiter::new(1_000, 60));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let l = l.clone();
                std::thread::spawn(move || (0..500).filter(|_| !l.over("shared", 1)).count())
            })
            .collect();
        let allowed: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert_eq!(allowed, 1_000);
    }
}
