//! Rate limits: more than `max` requests in a sliding window of `window`
//! for one key is a hit. Time comes from a [`Clock`](super::Clock) so tests
//! control it.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// Most keys one rate-limit check remembers; the least recently seen are
/// forgotten first (after the expired ones).
pub(crate) const MAX_KEYS: usize = 100_000;

/// Most timestamps one key keeps. With a `max` up to this, every request is
/// kept at its own millisecond and the window is exact; above it, requests
/// are counted in this many slots of the window, each request at the end of
/// its slot, so it leaves the window at most one slot late, never early.
pub(crate) const SLOTS: u64 = 64;

/// The sliding-window counters of one check.
#[derive(Debug)]
pub(crate) struct Limiter {
    max: u32,
    window_ms: u64,
    /// The width of a slot, in milliseconds (1 when the window is exact).
    slot_ms: u64,
    keys: Mutex<HashMap<String, Counts>>,
}

/// One key's requests in the window: (time, how many) in time order, and
/// their total.
#[derive(Debug, Default)]
struct Counts {
    runs: VecDeque<(u64, u32)>,
    total: u64,
}

impl Counts {
    fn last(&self) -> Option<u64> {
        self.runs.back().map(|&(t, _)| t)
    }
}

impl Limiter {
    pub(crate) fn new(max: u32, window_secs: u64) -> Self {
        let window_ms = window_secs.saturating_mul(1000);
        let slot_ms = if u64::from(max) <= SLOTS {
            1
        } else {
            window_ms.div_ceil(SLOTS).max(1)
        };
        Self {
            max,
            window_ms,
            slot_ms,
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
        let counts = keys.entry(key.to_owned()).or_default();
        while let Some(&(t, n)) = counts.runs.front() {
            if now.saturating_sub(t) < self.window_ms {
                break;
            }
            counts.runs.pop_front();
            counts.total -= u64::from(n);
        }
        if counts.total >= u64::from(self.max) {
            return true;
        }
        // The end of the request's slot (the request's own time when exact).
        let at = now.div_ceil(self.slot_ms).saturating_mul(self.slot_ms);
        match counts.runs.back_mut() {
            Some((t, n)) if *t == at => *n += 1,
            _ => counts.runs.push_back((at, 1)),
        }
        counts.total += 1;
        false
    }

    #[expect(clippy::indexing_slicing, reason = "the sample is not empty here")]
    fn evict(keys: &mut HashMap<String, Counts>, now: u64, window_ms: u64) {
        keys.retain(|_, c| {
            c.last()
                .is_some_and(|last| now.saturating_sub(last) < window_ms)
        });
        if keys.len() >= MAX_KEYS {
            // Still full of live keys: forget the quarter seen least recently.
            let mut last: Vec<u64> = keys.values().map(|c| c.last().unwrap_or(0)).collect();
            last.sort_unstable();
            let cut = last[last.len() / 4];
            keys.retain(|_, c| c.last().is_some_and(|l| l > cut));
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.lock().map(|k| k.len()).unwrap_or(0)
    }

    #[cfg(test)]
    fn runs(&self, key: &str) -> usize {
        self.keys
            .lock()
            .map(|k| k.get(key).map_or(0, |c| c.runs.len()))
            .unwrap_or(0)
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
    fn a_large_limit_keeps_bounded_state_and_never_lets_more_through() {
        let (max, window_ms) = (100_000u32, 60_000u64);
        let l = Limiter::new(max, window_ms / 1000);
        // Three requests a millisecond for three windows.
        let mut allowed: VecDeque<u64> = VecDeque::new();
        for now in 0..3 * window_ms {
            for _ in 0..3 {
                if !l.over("k", now) {
                    allowed.push_back(now);
                }
            }
            while allowed.front().is_some_and(|&t| now - t >= window_ms) {
                allowed.pop_front();
            }
            assert!(allowed.len() <= max as usize, "at {now}");
            assert!(l.runs("k") <= SLOTS as usize + 1, "at {now}");
        }
        // Quiet for a window, then the whole limit again.
        let later = 5 * window_ms;
        assert!((0..max).all(|_| !l.over("k", later)));
        assert!(l.over("k", later));
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
