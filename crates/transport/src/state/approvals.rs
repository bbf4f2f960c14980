//! Approvals in Redis (`state.redis`), shared by replicas: an approval
//! asked on one replica is answered on any and used once, on any.
//!
//! Each approval is a hash — `a` (the approval as asked, JSON), `state`,
//! `bound`, `expires` (ms), `answer` (JSON: who, when, the note) and
//! `used` (the receipt that used it) — kept an hour past its expiry so
//! that a late use is told it expired; each tenant's ids are in a sorted
//! set by creation time. Answering and taking are scripts: atomic, so two
//! replicas taking one approval at once, one gets it.

use std::sync::Arc;

use palisade_checks::approvals::{
    Answer, AnswerError, Approval, ApprovalError, ApprovalState, ApprovalStore, Refusal, Taken,
};
use redis::Script;

use super::{Shared, StateError};

/// How long an approval's hash outlives its expiry.
const GRACE_MS: u64 = 3_600_000;

const CREATE: &str = r"
redis.call('HSET', KEYS[1], 'a', ARGV[1], 'state', 'pending', 'bound', ARGV[2], 'expires', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
local keep = redis.call('PTTL', KEYS[2])
if keep < tonumber(ARGV[7]) then redis.call('PEXPIRE', KEYS[2], ARGV[7]) end
return 1
";

const ANSWER: &str = r"
local st = redis.call('HGET', KEYS[1], 'state')
if not st then return {'unknown'} end
if tonumber(redis.call('HGET', KEYS[1], 'expires')) <= tonumber(ARGV[1]) then return {'expired'} end
if st ~= 'pending' then return {st} end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'answer', ARGV[3])
return {'ok', redis.call('HGET', KEYS[1], 'a')}
";

const TAKE: &str = r"
local st = redis.call('HGET', KEYS[1], 'state')
if not st then return {'unknown'} end
if st ~= 'approved' then return {st} end
if tonumber(redis.call('HGET', KEYS[1], 'expires')) <= tonumber(ARGV[1]) then return {'expired'} end
if redis.call('HGET', KEYS[1], 'bound') ~= ARGV[2] then return {'mismatch'} end
redis.call('HSET', KEYS[1], 'state', 'used', 'used', ARGV[3])
return {'ok', redis.call('HGET', KEYS[1], 'a'), redis.call('HGET', KEYS[1], 'answer')}
";

/// Who answered, when, and the note.
#[derive(serde::Serialize, serde::Deserialize, Default)]
struct Answered {
    by: Option<String>,
    at: Option<u64>,
    note: Option<String>,
}

/// The approvals of every tenant, in Redis.
pub(crate) struct Approvals {
    shared: Arc<Shared>,
    metrics: Arc<crate::metrics::Metrics>,
    create: Script,
    answer: Script,
    take: Script,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approvals")
            .field("shared", &self.shared)
            .finish_non_exhaustive()
    }
}

impl Approvals {
    pub(crate) fn new(shared: Arc<Shared>, metrics: Arc<crate::metrics::Metrics>) -> Self {
        Approvals {
            shared,
            metrics,
            create: Script::new(CREATE),
            answer: Script::new(ANSWER),
            take: Script::new(TAKE),
        }
    }

    fn key(&self, tenant: &str, id: &str) -> String {
        self.shared.key("ap", &[tenant, id])
    }

    fn index(&self, tenant: &str) -> String {
        self.shared.key("aps", &[tenant])
    }

    fn counted<T>(&self, result: Result<T, StateError>) -> Result<T, ApprovalError> {
        self.metrics.state_result(result.is_ok());
        result.map_err(|e| ApprovalError(format!("shared state unavailable: {}", e.0)))
    }

    /// One command with the state's timeout.
    async fn query<T: redis::FromRedisValue>(&self, command: &redis::Cmd) -> Result<T, StateError> {
        let mut connection = self.shared.connection.clone();
        match tokio::time::timeout(self.shared.timeout, command.query_async(&mut connection)).await
        {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(StateError(e.to_string())),
            Err(_) => Err(StateError(format!(
                "no answer from Redis within {} ms",
                self.shared.timeout.as_millis()
            ))),
        }
    }

    /// The approval held in `key`, as it stands.
    async fn read(&self, key: &str) -> Result<Option<Approval>, StateError> {
        let mut command = redis::cmd("HMGET");
        command
            .arg(key)
            .arg("a")
            .arg("state")
            .arg("answer")
            .arg("used");
        let (a, state, answer, used): (
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        ) = self.query(&command).await?;
        let (Some(a), Some(state)) = (a, state) else {
            return Ok(None);
        };
        assemble(&a, &state, answer.as_deref(), used).map(Some)
    }
}

/// An approval from its fields.
fn assemble(
    a: &str,
    state: &str,
    answer: Option<&str>,
    used: Option<String>,
) -> Result<Approval, StateError> {
    let mut approval: Approval = serde_json::from_str(a)
        .map_err(|e| StateError(format!("an approval in Redis cannot be read: {e}")))?;
    approval.state = ApprovalState::from_name(state)
        .ok_or_else(|| StateError(format!("an approval in Redis has the state `{state}`")))?;
    if let Some(answer) = answer {
        let answered: Answered = serde_json::from_str(answer).unwrap_or_default();
        approval.answered_by = answered.by;
        approval.answered_ms = answered.at;
        approval.note = answered.note;
    }
    approval.used_receipt = used;
    Ok(approval)
}

#[async_trait::async_trait]
impl ApprovalStore for Approvals {
    async fn create(&self, approval: &Approval) -> Result<(), ApprovalError> {
        let json = serde_json::to_string(approval).map_err(|e| ApprovalError(e.to_string()))?;
        let mut invocation = self.create.key(self.key(&approval.tenant, &approval.id));
        invocation
            .key(self.index(&approval.tenant))
            .arg(json)
            .arg(approval.bound.as_str())
            .arg(approval.expires_ms)
            .arg(approval.expires_ms.saturating_add(GRACE_MS))
            .arg(approval.created_ms)
            .arg(approval.id.as_str())
            .arg(
                approval
                    .expires_ms
                    .saturating_sub(approval.created_ms)
                    .saturating_add(GRACE_MS),
            );
        let result: Result<i64, StateError> = self.shared.run(invocation).await;
        self.counted(result).map(|_| ())
    }

    async fn get(&self, tenant: &str, id: &str) -> Result<Option<Approval>, ApprovalError> {
        let result = self.read(&self.key(tenant, id)).await;
        self.counted(result)
    }

    async fn answer(
        &self,
        tenant: &str,
        id: &str,
        answer: &Answer,
        now_ms: u64,
    ) -> Result<Approval, AnswerError> {
        let answered = Answered {
            by: answer.by.clone(),
            at: Some(now_ms),
            note: answer.note.clone(),
        };
        let answered_json =
            serde_json::to_string(&answered).map_err(|e| ApprovalError(e.to_string()))?;
        let state = if answer.approve {
            ApprovalState::Approved
        } else {
            ApprovalState::Denied
        };
        let mut invocation = self.answer.key(self.key(tenant, id));
        invocation
            .arg(now_ms)
            .arg(state.as_str())
            .arg(answered_json.as_str());
        let result: Result<Vec<String>, StateError> = self.shared.run(invocation).await;
        let reply = self.counted(result)?;
        match reply.first().map(String::as_str) {
            Some("ok") => {
                let a = reply.get(1).map_or("", String::as_str);
                assemble(a, state.as_str(), Some(&answered_json), None)
                    .map_err(|e| AnswerError::Store(ApprovalError(e.0)))
            }
            Some("unknown") | None => Err(AnswerError::Unknown(id.to_owned())),
            Some(other) => Err(AnswerError::NotPending {
                id: id.to_owned(),
                state: match other {
                    "expired" => "expired",
                    "approved" => "approved",
                    "denied" => "denied",
                    _ => "used",
                },
            }),
        }
    }

    async fn take(
        &self,
        tenant: &str,
        id: &str,
        bound: &str,
        receipt: &str,
        now_ms: u64,
    ) -> Result<Taken, ApprovalError> {
        let mut invocation = self.take.key(self.key(tenant, id));
        invocation.arg(now_ms).arg(bound).arg(receipt);
        let result: Result<Vec<String>, StateError> = self.shared.run(invocation).await;
        let reply = self.counted(result)?;
        let refused = |r| Ok(Taken::Refused(r));
        match reply.first().map(String::as_str) {
            Some("ok") => {
                let a = reply.get(1).map_or("", String::as_str);
                let answer = reply.get(2).map(String::as_str);
                assemble(a, "approved", answer, None)
                    .map(|a| Taken::Used(Box::new(a)))
                    .map_err(|e| ApprovalError(e.0))
            }
            Some("pending") => refused(Refusal::Pending),
            Some("denied") => refused(Refusal::Denied),
            Some("used") => refused(Refusal::Used),
            Some("expired") => refused(Refusal::Expired),
            Some("mismatch") => refused(Refusal::Mismatch),
            _ => refused(Refusal::Unknown),
        }
    }

    async fn list(&self, tenant: &str, now_ms: u64) -> Result<Vec<Approval>, ApprovalError> {
        let mut command = redis::cmd("ZRANGE");
        command.arg(self.index(tenant)).arg(0).arg(-1);
        let ids: Result<Vec<String>, StateError> = self.query(&command).await;
        let ids = self.counted(ids)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let read = self.read(&self.key(tenant, &id)).await;
            if let Some(a) = self.counted(read)?
                && !a.expired(now_ms)
            {
                out.push(a);
            }
        }
        Ok(out)
    }

    async fn find(
        &self,
        tenant: &str,
        bound: &str,
        now_ms: u64,
    ) -> Result<Option<String>, ApprovalError> {
        Ok(self
            .list(tenant, now_ms)
            .await?
            .into_iter()
            .find(|a| a.bound == bound && a.state == ApprovalState::Approved)
            .map(|a| a.id))
    }
}
