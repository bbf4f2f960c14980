//! State shared by replicas (`state: { redis: … }`): the per-agent rate
//! limits and each tenant's circuit breaker kept in Redis, so that several
//! `palisade serve` processes behind one load balancer enforce one limit and
//! one breaker. Each operation is one server-side script, atomic, one round
//! trip, on Redis's own clock (replicas' clocks may differ).
//!
//! When Redis cannot be reached in `timeout_ms`, the operation fails with
//! [`StateError`]; the service applies `on_error` and reports it. The
//! connection is made on first use and remade by itself after a failure.

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

/// Everything a request is admitted by, in one round trip on Redis's
/// clock. KEYS: the rate-limit bucket (GCRA: its theoretical arrival time,
/// ms), the breaker's opened-at and half-open keys, then one sorted set of
/// request times per policy `rate_limit` window. ARGV: the bucket's
/// interval (ms; 0: no rate limit) and burst, the breaker's cool-down (ms;
/// -1: no breaker), the request's unique id, then each window's max and
/// length (ms). `{ms to wait, breaker state, ms the breaker stays open,
/// over?…}`: a request over the rate limit stops there, uncounted.
const ADMIT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
if interval > 0 then
  local burst = tonumber(ARGV[2])
  local tat = tonumber(redis.call('GET', KEYS[1]) or now)
  if tat < now then tat = now end
  local tolerance = interval * (burst - 1)
  if tat - now > tolerance then
    return {tat - tolerance - now, 0, 0}
  end
  local next = tat + interval
  redis.call('SET', KEYS[1], next, 'PX', next - now + 1000)
end
local cooldown = tonumber(ARGV[3])
local state = 0
if cooldown >= 0 then
  local opened = redis.call('GET', KEYS[2])
  if opened then
    local since = now - tonumber(opened)
    if since < cooldown then
      return {0, 1, cooldown - since}
    end
    redis.call('DEL', KEYS[2])
    redis.call('SET', KEYS[3], '1')
  end
  if redis.call('EXISTS', KEYS[3]) == 1 then state = 2 end
end
local out = {0, state, 0}
local id = ARGV[4]
for i = 4, #KEYS do
  local j = 5 + (i - 4) * 2
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
return out
";

/// Shared by the breaker's scripts: the time, and the state after an ended
/// cool-down (open → half-open). KEYS: opened-at, half-open flag.
const BREAKER_NOW: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cooldown = tonumber(ARGV[1])
local state = 0
local left = 0
local opened = redis.call('GET', KEYS[1])
if opened then
  local since = now - tonumber(opened)
  if since < cooldown then
    state = 1
    left = cooldown - since
  else
    redis.call('DEL', KEYS[1])
    redis.call('SET', KEYS[2], '1')
  end
end
if state == 0 and redis.call('EXISTS', KEYS[2]) == 1 then state = 2 end
";

/// Counts one decision (ARGV[5]: 1 when blocked) in per-second fields of
/// two hashes (KEYS[3] totals, KEYS[4] blocked) and opens or closes the
/// breaker; the state after it.
fn record_script() -> String {
    format!(
        "{BREAKER_NOW}
local window = tonumber(ARGV[2])
local min_requests = tonumber(ARGV[3])
local threshold = tonumber(ARGV[4])
local blocked = tonumber(ARGV[5])
if state == 1 then return 1 end
if state == 2 then
  redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
  if blocked == 1 then
    redis.call('SET', KEYS[1], now)
    return 1
  end
  return 0
end
local second = math.floor(now / 1000)
redis.call('HINCRBY', KEYS[3], second, 1)
if blocked == 1 then redis.call('HINCRBY', KEYS[4], second, 1) end
local total, bad = 0, 0
local fields = redis.call('HGETALL', KEYS[3])
for i = 1, #fields, 2 do
  local s = tonumber(fields[i])
  if s <= second - window then
    redis.call('HDEL', KEYS[3], fields[i])
    redis.call('HDEL', KEYS[4], fields[i])
  else
    total = total + tonumber(fields[i + 1])
    bad = bad + tonumber(redis.call('HGET', KEYS[4], fields[i]) or '0')
  end
end
redis.call('PEXPIRE', KEYS[3], window * 1000 + 1000)
redis.call('PEXPIRE', KEYS[4], window * 1000 + 1000)
if total >= min_requests and bad / total > threshold then
  redis.call('SET', KEYS[1], now)
  redis.call('DEL', KEYS[3], KEYS[4])
  return 1
end
return 0"
    )
}

/// The connection and scripts of `state.redis`.
pub(crate) struct Shared {
    connection: ConnectionManager,
    prefix: String,
    timeout: Duration,
    admit: Script,
    record: Script,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
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
            admit: Script::new(ADMIT),
            record: Script::new(&record_script()),
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

    /// Admits a request in one round trip: its (tenant, bucket) token
    /// bucket of `rate` (requests per seconds), the tenant's `breaker`, and
    /// the policy's `rate_limit` windows it takes from.
    pub(crate) async fn admit(
        &self,
        tenant: &str,
        bucket: &str,
        rate: Option<(u32, u64)>,
        breaker: Option<&CircuitBreaker>,
        windows: &[palisade_engine::RateLimitKey],
    ) -> Result<Admission, StateError> {
        let [opened, half, _, _] = self.breaker_keys(tenant);
        let mut invocation = self.admit.key(self.key("rl", &[tenant, bucket]));
        invocation.key(opened).key(half);
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
        let cooldown: i64 = breaker.map_or(-1, |b| {
            i64::try_from(b.cooldown_secs.saturating_mul(1000)).unwrap_or(i64::MAX)
        });
        invocation
            .arg(interval)
            .arg(burst)
            .arg(cooldown)
            .arg(uuid::Uuid::now_v7().to_string());
        for w in windows {
            invocation.arg(w.max).arg(w.window_ms.max(1));
        }
        let answer: Vec<i64> = self.run(invocation).await?;
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

    /// Counts a decision in the tenant's breaker; the state after it.
    pub(crate) async fn record(
        &self,
        tenant: &str,
        config: &CircuitBreaker,
        blocked: bool,
    ) -> Result<State, StateError> {
        let [opened, half, total, bad] = self.breaker_keys(tenant);
        let mut invocation = self.record.key(opened);
        invocation
            .key(half)
            .key(total)
            .key(bad)
            .arg(config.cooldown_secs.saturating_mul(1000))
            .arg(config.window_secs.max(1))
            .arg(config.min_requests)
            .arg(config.threshold)
            .arg(u8::from(blocked));
        let state: u8 = self.run(invocation).await?;
        Ok(if state == 1 {
            State::Open
        } else {
            State::Closed
        })
    }
}
