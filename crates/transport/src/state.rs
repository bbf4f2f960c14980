//! State shared by replicas (`state: { redis: … }`): the per-agent rate
//! limits and each tenant's circuit breaker kept in Redis, so that several
//! `palisade serve` processes behind one load balancer enforce one limit and
//! one breaker. Each operation is one server-side script, atomic, one round
//! trip, on Redis's own clock (replicas' clocks may differ). A decision's
//! outcome is not a round trip of its own: it is counted in its tenant's
//! breaker by the script that admits the tenant's next request on this
//! replica, or by [`Shared::flush`] when none comes.
//!
//! When Redis cannot be reached in `timeout_ms`, the operation fails with
//! [`StateError`]; the service applies `on_error` and reports it. The
//! connection is made on first use and remade by itself after a failure.

mod approvals;

pub(crate) use approvals::Approvals;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use redis::Script;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use crate::breaker::State;
use crate::config::{CircuitBreaker, RedisState};
use crate::limit::RateLimited;

/// What Redis answered for a request's admission.
#[derive(Debug)]
pub(crate) struct Admission {
    /// Over its rate limit (nothing else was looked at).
    pub(crate) limited: Option<RateLimited>,
    /// The breaker: its state, or the seconds it stays open.
    pub(crate) breaker: Result<State, u64>,
    /// For each policy `rate_limit` window: the check, and whether over.
    pub(crate) over: Vec<(usize, bool)>,
}

/// Redis could not answer: unreachable, too slow, or an error reply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shared state unavailable: {0}")]
pub struct StateError(pub String);

/// Lua shared by the scripts: Redis's clock; a breaker's state (0 closed,
/// 1 open, 2 half-open) and the ms it stays open, an ended cool-down
/// turning open into half-open; and the counting of decisions into a
/// breaker's window (per-second fields of two hashes, totals and blocked),
/// which opens it past its threshold, or — half-open — closes it on a first
/// decision not blocked and opens it again on a blocked one.
const BREAKER_LUA: &str = r"
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function breaker_state(k_opened, k_half, now, cooldown)
  local opened = redis.call('GET', k_opened)
  if opened then
    local since = now - tonumber(opened)
    if since < cooldown then return 1, cooldown - since end
    redis.call('DEL', k_opened)
    redis.call('SET', k_half, '1')
  end
  if redis.call('EXISTS', k_half) == 1 then return 2, 0 end
  return 0, 0
end
local function count(k_opened, k_half, k_total, k_bad, now, cooldown, window, min_requests, threshold, n, b, first)
  if n <= 0 then return end
  local state = breaker_state(k_opened, k_half, now, cooldown)
  if state == 1 then return end
  if state == 2 then
    redis.call('DEL', k_half, k_total, k_bad)
    if first == 1 then
      redis.call('SET', k_opened, now)
      return
    end
    n = n - 1
    if n <= 0 then return end
  end
  local second = math.floor(now / 1000)
  redis.call('HINCRBY', k_total, second, n)
  if b > 0 then redis.call('HINCRBY', k_bad, second, b) end
  local total, bad = 0, 0
  local fields = redis.call('HGETALL', k_total)
  for i = 1, #fields, 2 do
    local s = tonumber(fields[i])
    if s <= second - window then
      redis.call('HDEL', k_total, fields[i])
      redis.call('HDEL', k_bad, fields[i])
    else
      total = total + tonumber(fields[i + 1])
      bad = bad + tonumber(redis.call('HGET', k_bad, fields[i]) or '0')
    end
  end
  redis.call('PEXPIRE', k_total, window * 1000 + 1000)
  redis.call('PEXPIRE', k_bad, window * 1000 + 1000)
  if total >= min_requests and bad / total > threshold then
    redis.call('SET', k_opened, now)
    redis.call('DEL', k_total, k_bad)
  end
end
";

/// Everything a request is admitted by, in one round trip on Redis's
/// clock. KEYS: the rate-limit bucket (GCRA: its theoretical arrival time,
/// ms), the breaker's opened-at, half-open, totals and blocked keys, then
/// one sorted set of request times per policy `rate_limit` window. ARGV:
/// the bucket's interval (ms; 0: no rate limit) and burst, the breaker's
/// cool-down (ms; -1: no breaker), the request's unique id, the breaker's
/// window (s), minimum and threshold, this replica's decisions not yet
/// counted (how many, how many blocked, whether the first was), then each
/// window's max and length (ms). The decisions are counted first, then
/// `{ms to wait, breaker state, ms the breaker stays open, over?…}`: a
/// request over the rate limit stops there, uncounted.
fn admit_script() -> String {
    format!(
        "{BREAKER_LUA}
local now = now_ms()
local cooldown = tonumber(ARGV[3])
if cooldown >= 0 then
  count(KEYS[2], KEYS[3], KEYS[4], KEYS[5], now, cooldown, tonumber(ARGV[5]), tonumber(ARGV[6]),
    tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]))
end
local interval = tonumber(ARGV[1])
if interval > 0 then
  local burst = tonumber(ARGV[2])
  local tat = tonumber(redis.call('GET', KEYS[1]) or now)
  if tat < now then tat = now end
  local tolerance = interval * (burst - 1)
  if tat - now > tolerance then
    return {{tat - tolerance - now, 0, 0}}
  end
  local next = tat + interval
  redis.call('SET', KEYS[1], next, 'PX', next - now + 1000)
end
local state, left = 0, 0
if cooldown >= 0 then
  state, left = breaker_state(KEYS[2], KEYS[3], now, cooldown)
  if state == 1 then return {{0, 1, left}} end
end
local out = {{0, state, 0}}
local id = ARGV[4]
for i = 6, #KEYS do
  local j = 11 + (i - 6) * 2
  local max = tonumber(ARGV[j])
  local window = tonumber(ARGV[j + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  if redis.call('ZCARD', KEYS[i]) >= max then
    out[#out + 1] = 1
  else
    redis.call('ZADD', KEYS[i], now, id)
    redis.call('PEXPIRE', KEYS[i], window)
    out[#out + 1] = 0
  end
end
return out"
    )
}

/// Counts decisions in a tenant's breaker when no request came to carry
/// them (KEYS: opened-at, half-open, totals, blocked; ARGV: cool-down ms,
/// window s, minimum, threshold, how many, how many blocked, whether the
/// first was); the state after it.
fn record_script() -> String {
    format!(
        "{BREAKER_LUA}
local now = now_ms()
local cooldown = tonumber(ARGV[1])
count(KEYS[1], KEYS[2], KEYS[3], KEYS[4], now, cooldown, tonumber(ARGV[2]), tonumber(ARGV[3]),
  tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]))
local state = breaker_state(KEYS[1], KEYS[2], now, cooldown)
return state"
    )
}

/// Writes a flow session's state if no other replica wrote it since it was
/// read (KEYS: the session's hash, fields `v` its version and `s` the
/// state; ARGV: the version read, the state, the session's TTL in ms): the
/// new version, or -1 when another write came first.
const SESSION_PUT: &str = r"
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'v', v + 1, 's', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return v + 1
";

/// Writes a document (`v`, its version; `s`, its text) if it is still at
/// the version read (`ARGV[1]`): the new version, or -1. Never expires.
const DOC_PUT: &str = r"
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'v', v + 1, 's', ARGV[2])
return v + 1
";

/// A replica's decisions of one tenant not yet counted in its breaker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pending {
    total: u64,
    blocked: u64,
    first_blocked: bool,
}

impl Pending {
    fn add(&mut self, blocked: bool) {
        if self.total == 0 {
            self.first_blocked = blocked;
        }
        self.total += 1;
        self.blocked += u64::from(blocked);
    }

    /// These, then `later`.
    fn then(mut self, later: Pending) -> Pending {
        if self.total == 0 {
            return later;
        }
        self.total += later.total;
        self.blocked += later.blocked;
        self
    }
}

/// The connection and scripts of `state.redis`, and the decisions this
/// replica made that its tenants' breakers have not counted yet: they go
/// to Redis with the tenant's next admission (one round trip per decision)
/// or, when none comes, with [`Shared::flush`] (the service runs it every
/// [`FLUSH_EVERY`]).
pub(crate) struct Shared {
    connection: ConnectionManager,
    prefix: String,
    timeout: Duration,
    admit: Script,
    record: Script,
    session_put: Script,
    #[cfg_attr(
        not(feature = "gateway"),
        expect(dead_code, reason = "shared documents are the gateway's pins")
    )]
    doc_put: Script,
    pending: Mutex<HashMap<String, Pending>>,
    /// Held for a whole round of flushes ([`Shared::round`]).
    flushing: tokio::sync::Mutex<()>,
}

/// How often decisions no admission carried are counted on their own.
pub(crate) const FLUSH_EVERY: Duration = Duration::from_millis(100);

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// A breaker's settings as its scripts take them.
fn breaker_args(config: &CircuitBreaker) -> (u64, u64, u32, f64) {
    (
        config.cooldown_secs.saturating_mul(1000),
        config.window_secs.max(1),
        config.min_requests,
        config.threshold,
    )
}

/// The arguments both breaker scripts take after the cool-down: the
/// window (s), minimum and threshold, and the decisions to count.
fn counts(
    invocation: &mut redis::ScriptInvocation<'_>,
    (window, min_requests, threshold): (u64, u32, f64),
    pending: Pending,
) {
    invocation
        .arg(window)
        .arg(min_requests)
        .arg(threshold)
        .arg(pending.total)
        .arg(pending.blocked)
        .arg(u8::from(pending.first_blocked));
}

impl Shared {
    /// Checks the URL; connects on first use.
    pub(crate) fn new(config: &RedisState) -> Result<Self, StateError> {
        let client = redis::Client::open(config.url.as_str())
            .map_err(|e| StateError(format!("state.redis.url: {e}")))?;
        let timeout = Duration::from_millis(config.timeout_ms.max(1));
        let manager_config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_lazy_with_config(client, manager_config)
            .map_err(|e| StateError(e.to_string()))?;
        Ok(Shared {
            connection,
            prefix: config.prefix.clone(),
            timeout,
            admit: Script::new(&admit_script()),
            record: Script::new(&record_script()),
            session_put: Script::new(SESSION_PUT),
            doc_put: Script::new(DOC_PUT),
            pending: Mutex::new(HashMap::new()),
            flushing: tokio::sync::Mutex::new(()),
        })
    }

    /// A key of this service's: the prefix, then length-prefixed parts (no
    /// choice of tenant or agent names can make two keys equal).
    fn key(&self, kind: &str, parts: &[&str]) -> String {
        let mut key = format!("{}{kind}", self.prefix);
        for p in parts {
            key.push_str(&format!(":{}:{p}", p.len()));
        }
        key
    }

    async fn run<T: redis::FromRedisValue>(
        &self,
        invocation: redis::ScriptInvocation<'_>,
    ) -> Result<T, StateError> {
        let mut connection = self.connection.clone();
        match tokio::time::timeout(self.timeout, invocation.invoke_async(&mut connection)).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(StateError(e.to_string())),
            Err(_) => Err(StateError(format!(
                "no answer from Redis within {} ms",
                self.timeout.as_millis()
            ))),
        }
    }

    fn breaker_keys(&self, tenant: &str) -> [String; 4] {
        [
            self.key("cb-opened", &[tenant]),
            self.key("cb-half", &[tenant]),
            self.key("cb-total", &[tenant]),
            self.key("cb-blocked", &[tenant]),
        ]
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Pending>> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps a decision of `tenant` for its breaker, to be counted with the
    /// next round trip.
    pub(crate) fn count(&self, tenant: &str, blocked: bool) {
        self.lock()
            .entry(tenant.to_owned())
            .or_default()
            .add(blocked);
    }

    fn take(&self, tenant: &str) -> Pending {
        self.lock().remove(tenant).unwrap_or_default()
    }

    /// Puts back decisions taken for a round trip that failed (before any
    /// made since).
    fn restore(&self, tenant: &str, taken: Pending) {
        if taken.total == 0 {
            return;
        }
        let mut pending = self.lock();
        let slot = pending.entry(tenant.to_owned()).or_default();
        *slot = taken.then(*slot);
    }

    /// One round of flushes at a time: a round holds this from listing the
    /// tenants to its last answer, so that the round at shutdown waits for
    /// one whose decisions have left [`Shared::pending_tenants`] but not yet
    /// reached Redis.
    pub(crate) async fn round(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.flushing.lock().await
    }

    /// The tenants with decisions not yet counted.
    pub(crate) fn pending_tenants(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Admits a request in one round trip: its (tenant, bucket) token
    /// bucket of `rate` (requests per seconds), the tenant's `breaker` —
    /// counting first the decisions of the tenant not yet counted — and the
    /// policy's `rate_limit` windows it takes from.
    pub(crate) async fn admit(
        &self,
        tenant: &str,
        bucket: &str,
        rate: Option<(u32, u64)>,
        breaker: Option<&CircuitBreaker>,
        windows: &[palisade_engine::RateLimitKey],
    ) -> Result<Admission, StateError> {
        let [opened, half, total, bad] = self.breaker_keys(tenant);
        let mut invocation = self.admit.key(self.key("rl", &[tenant, bucket]));
        invocation.key(opened).key(half).key(total).key(bad);
        for w in windows {
            invocation.key(self.key("rlc", &[tenant, &w.check_id, &w.key]));
        }
        let (interval, burst) = match rate {
            Some((requests, per_secs)) => {
                let burst = u64::from(requests.max(1));
                ((per_secs.max(1) * 1000).div_ceil(burst).max(1), burst)
            }
            None => (0, 1),
        };
        let pending = if breaker.is_some() {
            self.take(tenant)
        } else {
            Pending::default()
        };
        let (cooldown, window, min_requests, threshold) = match breaker {
            Some(b) => {
                let (c, w, m, t) = breaker_args(b);
                (i64::try_from(c).unwrap_or(i64::MAX), w, m, t)
            }
            None => (-1, 1, 0, 1.0),
        };
        invocation
            .arg(interval)
            .arg(burst)
            .arg(cooldown)
            .arg(uuid::Uuid::now_v7().to_string());
        counts(&mut invocation, (window, min_requests, threshold), pending);
        for w in windows {
            invocation.arg(w.max).arg(w.window_ms.max(1));
        }
        let answer: Vec<i64> = match self.run(invocation).await {
            Ok(answer) => answer,
            Err(e) => {
                self.restore(tenant, pending);
                return Err(e);
            }
        };
        let at = |i: usize| answer.get(i).copied().unwrap_or(0);
        let wait = u64::try_from(at(0)).unwrap_or(0);
        let limited = (wait > 0).then(|| RateLimited {
            retry_after_secs: wait.div_ceil(1000).max(1),
        });
        let breaker = match at(1) {
            1 => Err(u64::try_from(at(2)).unwrap_or(0).div_ceil(1000).max(1)),
            2 => Ok(State::HalfOpen),
            _ => Ok(State::Closed),
        };
        let over = windows
            .iter()
            .enumerate()
            .filter_map(|(i, w)| answer.get(3 + i).map(|&o| (w.check, o == 1)))
            .collect();
        Ok(Admission {
            limited,
            breaker,
            over,
        })
    }

    /// A flow session's state as the replicas keep it: its version (0 for
    /// none) and its state.
    pub(crate) async fn session_get(
        &self,
        tenant: &str,
        id: &str,
    ) -> Result<(u64, Option<String>), StateError> {
        self.versioned_get(self.key("sess", &[tenant, id])).await
    }

    /// A document the replicas share (the gateway's pins): its version (0
    /// for none) and its text.
    #[cfg(feature = "gateway")]
    pub(crate) async fn doc_get(&self, name: &str) -> Result<(u64, Option<String>), StateError> {
        self.versioned_get(self.key("doc", &[name])).await
    }

    /// Writes a shared document if it is still at `version`: the new
    /// version, or `None` when another replica wrote it first.
    #[cfg(feature = "gateway")]
    pub(crate) async fn doc_put(
        &self,
        name: &str,
        version: u64,
        text: &str,
    ) -> Result<Option<u64>, StateError> {
        let mut invocation = self.doc_put.key(self.key("doc", &[name]));
        invocation.arg(version).arg(text);
        let v: i64 = self.run(invocation).await?;
        Ok(u64::try_from(v).ok())
    }

    async fn versioned_get(&self, key: String) -> Result<(u64, Option<String>), StateError> {
        let mut connection = self.connection.clone();
        let mut command = redis::cmd("HMGET");
        command.arg(key).arg("v").arg("s");
        let answer: (Option<u64>, Option<String>) =
            match tokio::time::timeout(self.timeout, command.query_async(&mut connection)).await {
                Ok(Ok(v)) => v,
                Ok(Err(e)) => return Err(StateError(e.to_string())),
                Err(_) => {
                    return Err(StateError(format!(
                        "no answer from Redis within {} ms",
                        self.timeout.as_millis()
                    )));
                }
            };
        Ok((answer.0.unwrap_or(0), answer.1))
    }

    /// Writes a flow session's state if it is still at `version`: the new
    /// version, or `None` when another replica wrote it first. The session
    /// expires `ttl_ms` after its last write.
    pub(crate) async fn session_put(
        &self,
        tenant: &str,
        id: &str,
        version: u64,
        state: &str,
        ttl_ms: u64,
    ) -> Result<Option<u64>, StateError> {
        let mut invocation = self.session_put.key(self.key("sess", &[tenant, id]));
        invocation.arg(version).arg(state).arg(ttl_ms.max(1));
        let v: i64 = self.run(invocation).await?;
        Ok(u64::try_from(v).ok())
    }

    /// Counts the tenant's decisions that no admission carried; the
    /// breaker's state after it (`None`: nothing to count).
    pub(crate) async fn flush(
        &self,
        tenant: &str,
        config: &CircuitBreaker,
    ) -> Result<Option<State>, StateError> {
        let pending = self.take(tenant);
        if pending.total == 0 {
            return Ok(None);
        }
        let [opened, half, total, bad] = self.breaker_keys(tenant);
        let (cooldown, window, min_requests, threshold) = breaker_args(config);
        let mut invocation = self.record.key(opened);
        invocation.key(half).key(total).key(bad).arg(cooldown);
        counts(&mut invocation, (window, min_requests, threshold), pending);
        match self.run::<u8>(invocation).await {
            Ok(state) => Ok(Some(match state {
                1 => State::Open,
                2 => State::HalfOpen,
                _ => State::Closed,
            })),
            Err(e) => {
                self.restore(tenant, pending);
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Pending;

    #[test]
    fn pending_decisions_keep_their_first_and_their_counts() {
        let mut a = Pending::default();
        a.add(true);
        a.add(false);
        let mut b = Pending::default();
        b.add(false);
        b.add(true);
        let both = a.then(b);
        assert_eq!((both.total, both.blocked, both.first_blocked), (4, 2, true));
        let only_later = Pending::default().then(b);
        assert_eq!(only_later, b);
        assert!(!only_later.first_blocked);
    }
}

/// The flow sessions a tenant's guard shares with the other replicas, in
/// Redis; every call counted in the state metrics.
#[derive(Debug)]
pub(crate) struct Sessions {
    shared: std::sync::Arc<Shared>,
    metrics: std::sync::Arc<crate::metrics::Metrics>,
}

impl Sessions {
    pub(crate) fn new(
        shared: std::sync::Arc<Shared>,
        metrics: std::sync::Arc<crate::metrics::Metrics>,
    ) -> Self {
        Sessions { shared, metrics }
    }

    fn counted<T>(
        &self,
        result: Result<T, StateError>,
    ) -> Result<T, palisade_checks::shared::StateError> {
        self.metrics.state_result(result.is_ok());
        result.map_err(|e| palisade_checks::shared::StateError(e.0))
    }
}

#[async_trait::async_trait]
impl palisade_checks::shared::SharedState for Sessions {
    async fn session_get(
        &self,
        tenant: &str,
        id: &str,
    ) -> Result<(u64, Option<String>), palisade_checks::shared::StateError> {
        self.counted(self.shared.session_get(tenant, id).await)
    }

    async fn session_put(
        &self,
        tenant: &str,
        id: &str,
        version: u64,
        state: &str,
        ttl_ms: u64,
    ) -> Result<Option<u64>, palisade_checks::shared::StateError> {
        self.counted(
            self.shared
                .session_put(tenant, id, version, state, ttl_ms)
                .await,
        )
    }
}
