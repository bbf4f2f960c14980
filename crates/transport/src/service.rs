//! The service's state: a [`Guard`] per tenant, the API keys, the shared
//! audit log — everything a transport needs to answer a request.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use palisade_checks::Guard;
use palisade_checks::GuardError;
use palisade_checks::audit::{AuditError, AuditSink, JsonlAudit};

use crate::config::ServiceConfig;
use palisade_engine::{Engine, PolicyErrors};
use palisade_protocol::{CheckRequest, Decision, DecisionKind, Stage};
use sha2::{Digest, Sha256};

use crate::breaker::{Breaker, State as BreakerState};
pub use crate::limit::RateLimited;

/// The tenant of requests that name none (and of a policy given on the
/// command line).
pub const DEFAULT_TENANT: &str = "default";

/// What a key may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// `guardrails:check`: ask for decisions.
    Check,
    /// `guardrails:admin`: reload policies.
    Admin,
    /// `guardrails:approve`: answer approvals.
    Approve,
}

impl Scope {
    /// The scope's name in the config.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Check => "guardrails:check",
            Scope::Admin => "guardrails:admin",
            Scope::Approve => "guardrails:approve",
        }
    }
}

/// Why a request is not let in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// No key was sent (401).
    #[error("missing API key: send it in `X-API-Key` or `Authorization: Bearer`")]
    Missing,
    /// The key is not one of the service's (401).
    #[error("unknown API key")]
    Unknown,
    /// The key lacks the scope (403).
    #[error("the API key `{key}` does not have the scope `{scope}`")]
    Scope {
        /// The key's id.
        key: String,
        /// The scope needed.
        scope: &'static str,
    },
    /// The key belongs to another tenant than the one asked for (403).
    #[error("the API key `{key}` belongs to tenant `{own}`, not `{asked}`")]
    Tenant {
        /// The key's id.
        key: String,
        /// The key's tenant.
        own: String,
        /// The tenant the request named.
        asked: String,
    },
    /// The request names a tenant the service does not have (403).
    #[error("unknown tenant `{0}`")]
    NoTenant(String),
}

impl AuthError {
    /// The HTTP status the error means.
    pub fn status(&self) -> u16 {
        match self {
            AuthError::Missing | AuthError::Unknown => 401,
            _ => 403,
        }
    }
}

/// A caller let in: its tenant's guard.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The tenant.
    pub tenant: String,
    /// The key's id, when keys are configured.
    pub key: Option<String>,
    /// The tenant's guard (its current policy).
    pub guard: Arc<Guard>,
    /// The text of that policy, as it was loaded.
    pub source: Arc<PolicySource>,
}

/// The text a tenant's policy was loaded from: what `GET /v1/policy` shows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PolicySource {
    /// The policy file, as the config or command line named it; `None`
    /// for the embedded default policy.
    pub path: Option<PathBuf>,
    /// `yaml` or `json`.
    pub format: &'static str,
    /// The file's text, comments included.
    pub text: String,
}

/// A tenant's policy in force: the guard and the text it was built from,
/// swapped together.
#[derive(Clone, Debug)]
struct Current {
    guard: Arc<Guard>,
    source: Arc<PolicySource>,
}

#[derive(Debug)]
struct Key {
    id: String,
    digest: [u8; 32],
    tenant: String,
    scopes: Vec<String>,
}

#[derive(Debug)]
struct Tenant {
    policy: Option<PathBuf>,
    current: RwLock<Current>,
    breaker: Option<Breaker>,
}

/// Why a request got no decision.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DecideError {
    /// Over the (tenant, agent) rate limit.
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
    /// The request is invalid.
    #[error(transparent)]
    Request(#[from] palisade_engine::RequestError),
    /// The audit record could not be written: the decision must not be
    /// answered.
    #[error("the audit record could not be written: {0}")]
    Audit(#[source] AuditError),
    /// The guard gave no decision for another reason.
    #[error(transparent)]
    Guard(GuardError),
}

impl DecideError {
    /// A short name of the error, for a trace's `error.type`.
    pub fn code(&self) -> &'static str {
        match self {
            DecideError::RateLimited(_) => "rate_limited",
            DecideError::Request(_) => "request_invalid",
            DecideError::Audit(_) => "audit_unavailable",
            DecideError::Guard(_) => "internal",
        }
    }

    fn from_guard(e: GuardError) -> Self {
        match e {
            GuardError::Request(r) => DecideError::Request(r),
            GuardError::Audit(a) => DecideError::Audit(a),
            other => DecideError::Guard(other),
        }
    }
}

/// The service: tenants with their guards, keys, audit log.
#[derive(Debug)]
pub struct Service {
    tenants: BTreeMap<String, Tenant>,
    keys: Vec<Key>,
    config: ServiceConfig,
    limiter: Option<crate::limit::Limiter>,
    /// Rate limits and breakers kept in Redis (`state.redis`), with what a
    /// failure means; the breakers' states last seen there, per tenant.
    shared: Option<(Arc<crate::state::Shared>, crate::config::StateOnError)>,
    shared_breakers: Arc<std::sync::Mutex<BTreeMap<String, BreakerState>>>,
    metrics: Arc<crate::metrics::Metrics>,
    /// The ends of streamed answers checked a piece at a time by hooks.
    #[cfg(all(feature = "hooks", feature = "http"))]
    streams: crate::hooks::StreamTails,
}

/// Why the service could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// A policy file is missing or invalid (every problem listed).
    #[error("{}", policy_message(.path.as_deref(), .errors))]
    Policy {
        /// The policy file; `None` for the embedded default policy.
        path: Option<PathBuf>,
        /// Every problem.
        #[source]
        errors: PolicyErrors,
    },
    /// The audit log could not be opened.
    #[error(transparent)]
    Audit(#[from] AuditError),
    /// A service of the config (the LLM) could not be set up.
    #[error(transparent)]
    Setup(#[from] palisade_checks::SetupError),
    /// An API key of the config has no usable secret.
    #[error("key `{id}`: {reason}")]
    Key {
        /// The key's id.
        id: String,
        /// What is wrong with its secret.
        reason: String,
    },
    /// The shared state (`state.redis`) cannot be set up.
    #[error(transparent)]
    State(#[from] crate::state::StateError),
    /// The approvals file cannot be read or written.
    #[error(transparent)]
    Approvals(palisade_checks::approvals::ApprovalError),
}

/// A policy's problems, as one message: a file that cannot be read is its
/// one problem; otherwise the path and every problem.
fn policy_message(path: Option<&Path>, errors: &PolicyErrors) -> String {
    match path {
        None => format!("the embedded default policy: {errors}"),
        Some(p) => match errors.errors.as_slice() {
            [only] if only.pointer.is_empty() && !errors.is_placed() => only.message.clone(),
            // Each problem names its file.
            _ if errors.is_placed() => errors.to_string(),
            _ => format!("{}: {errors}", p.display()),
        },
    }
}

impl Service {
    /// Loads every tenant's policy, opens the audit log and reads the keys.
    /// `policy` (the command line's) overrides the config's default policy;
    /// without either the default tenant gets the embedded default policy.
    pub async fn start(config: ServiceConfig, policy: Option<PathBuf>) -> Result<Self, StartError> {
        Self::start_with(config, policy, true).await
    }

    /// [`Service::start`] for a transport over a process's own pipes
    /// (`palisade events`, MCP over stdio), where nobody could answer an
    /// approval kept in this process: approvals only with `state.redis`,
    /// shared with (and answered through) the HTTP service.
    pub async fn start_local(
        config: ServiceConfig,
        policy: Option<PathBuf>,
    ) -> Result<Self, StartError> {
        Self::start_with(config, policy, false).await
    }

    async fn start_with(
        config: ServiceConfig,
        policy: Option<PathBuf>,
        http: bool,
    ) -> Result<Self, StartError> {
        let audit: Option<Arc<dyn AuditSink>> = match &config.guard.audit {
            Some(a) => Some(Arc::new(JsonlAudit::open(&a.path, a.durability).await?)),
            None => None,
        };
        let shared = match &config.state {
            Some(state) => Some((
                Arc::new(crate::state::Shared::new(&state.redis)?),
                state.redis.on_error,
            )),
            None => None,
        };
        let metrics = Arc::new(crate::metrics::Metrics::new(shared.is_some()));
        let file = config
            .approvals
            .file(config.guard.audit.as_ref().map(|a| a.path.as_path()));
        let approvals: Option<Arc<dyn palisade_checks::approvals::ApprovalStore>> =
            match (&shared, file) {
                (Some((shared, _)), _) => Some(Arc::new(crate::state::Approvals::new(
                    shared.clone(),
                    metrics.clone(),
                ))),
                (None, _) if !http => None,
                (None, Some(path)) => Some(Arc::new(
                    palisade_checks::approvals::LocalApprovals::open(
                        path,
                        palisade_checks::approvals::now_ms(),
                    )
                    .await
                    .map_err(StartError::Approvals)?,
                )),
                (None, None) => Some(Arc::new(
                    palisade_checks::approvals::LocalApprovals::in_memory(),
                )),
            };
        let approvals_ttl = std::time::Duration::from_secs(config.approvals.ttl_secs);
        let mut tenants = BTreeMap::new();
        let default_policy = policy.or_else(|| config.policy.clone());
        let mut wanted: Vec<(String, Option<PathBuf>)> =
            vec![(DEFAULT_TENANT.to_owned(), default_policy)];
        for (name, t) in &config.tenants {
            if name != DEFAULT_TENANT {
                wanted.push((name.clone(), Some(t.policy.clone())));
            } else {
                wanted[0].1 = Some(t.policy.clone());
            }
        }
        for (name, path) in wanted {
            let (engine, source) =
                load_engine(path.as_deref()).map_err(|errors| StartError::Policy {
                    path: path.clone(),
                    errors,
                })?;
            let mut guard = Guard::new(engine, &config.guard)?;
            if let Some(store) = &approvals {
                guard = guard.with_approvals(store.clone(), approvals_ttl);
                if let Some(base) = &config.approvals.base_url {
                    guard = guard.with_approvals_base_url(base.clone());
                }
            }
            if let Some(sink) = &audit {
                guard = guard.with_audit(sink.clone());
            }
            if let Some((shared, on_error)) = &shared {
                let sessions = crate::state::Sessions::new(shared.clone(), metrics.clone());
                guard = guard.with_shared_state(Arc::new(sessions), on_error.for_sessions());
            }
            tenants.insert(
                name,
                Tenant {
                    policy: path,
                    current: RwLock::new(Current {
                        guard: Arc::new(guard),
                        source: Arc::new(source),
                    }),
                    breaker: config.circuit_breaker.clone().map(Breaker::new),
                },
            );
        }
        let mut keys = Vec::new();
        for k in &config.keys {
            let digest = match (&k.sha256, &k.env) {
                (Some(hex_digest), _) => {
                    let mut d = [0u8; 32];
                    hex::decode_to_slice(hex_digest, &mut d).map_err(|e| StartError::Key {
                        id: k.id.clone(),
                        reason: format!("sha256: {e}"),
                    })?;
                    d
                }
                (None, Some(var)) => match std::env::var(var) {
                    Ok(v) if !v.is_empty() => digest(&v),
                    _ => {
                        return Err(StartError::Key {
                            id: k.id.clone(),
                            reason: format!("the environment variable `{var}` is not set"),
                        });
                    }
                },
                (None, None) => {
                    return Err(StartError::Key {
                        id: k.id.clone(),
                        reason: "no secret (`sha256` or `env`)".to_owned(),
                    });
                }
            };
            keys.push(Key {
                id: k.id.clone(),
                digest,
                tenant: k.tenant.clone(),
                scopes: k.scopes.clone(),
            });
        }
        let limiter = config
            .rate_limits
            .as_ref()
            .map(|r| crate::limit::Limiter::new(r.per_agent.requests, r.per_agent.per_secs));
        let shared_breakers = Arc::new(std::sync::Mutex::new(BTreeMap::new()));
        if let (Some((shared, _)), Some(breaker)) = (&shared, &config.circuit_breaker) {
            spawn_flusher(
                Arc::downgrade(shared),
                breaker.clone(),
                metrics.clone(),
                shared_breakers.clone(),
            );
        }
        Ok(Service {
            tenants,
            keys,
            config,
            limiter,
            shared,
            shared_breakers,
            metrics,
            #[cfg(all(feature = "hooks", feature = "http"))]
            streams: crate::hooks::StreamTails::default(),
        })
    }

    /// The ends of streamed answers that hooks check a piece at a time.
    #[cfg(all(feature = "hooks", feature = "http"))]
    pub(crate) fn stream_tails(&self) -> &crate::hooks::StreamTails {
        &self.streams
    }

    /// Uses `clock` for rate limits and circuit breakers instead of the
    /// system clock (tests).
    pub fn with_clock(mut self, clock: Arc<dyn palisade_engine::Clock>) -> Self {
        if let Some(l) = &mut self.limiter {
            l.set_clock(clock.clone());
        }
        for t in self.tenants.values_mut() {
            if let Some(b) = t.breaker.take() {
                t.breaker = Some(b.with_clock(clock.clone()));
            }
        }
        self
    }

    /// The last `limit` audit records of `tenant` (oldest first), parsed
    /// (their members come back in alphabetical order: check the chain with
    /// `palisade audit verify` on the file); `None` when the service has no
    /// audit log. Reads the whole log: an operator's view, not a hot path.
    pub async fn audit_records(
        &self,
        tenant: &str,
        limit: usize,
    ) -> Option<Result<Vec<serde_json::Map<String, serde_json::Value>>, String>> {
        let path = self.config.guard.audit.as_ref()?.path.clone();
        let tenant = tenant.to_owned();
        let read = tokio::task::spawn_blocking(
            move || -> Result<Vec<serde_json::Map<String, serde_json::Value>>, String> {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read the audit log `{}`: {e}", path.display()))?;
                let mut out: std::collections::VecDeque<
                    serde_json::Map<String, serde_json::Value>,
                > = std::collections::VecDeque::new();
                for line in text.lines() {
                    let Ok(record) =
                        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line)
                    else {
                        continue;
                    };
                    if record.get("tenant").and_then(serde_json::Value::as_str)
                        == Some(tenant.as_str())
                    {
                        if out.len() == limit {
                            out.pop_front();
                        }
                        out.push_back(record);
                    }
                }
                Ok(out.into())
            },
        )
        .await;
        Some(read.unwrap_or_else(|e| Err(e.to_string())))
    }

    /// The metrics in the OpenMetrics text format: every tenant's, or with
    /// `Some(tenant)` only that tenant's series.
    pub fn metrics_text(&self, only: Option<&str>) -> String {
        let breakers: Vec<(String, u8)> = self
            .tenants
            .iter()
            .filter(|(name, _)| only.is_none_or(|o| o == name.as_str()))
            .filter_map(|(name, t)| {
                let state = self.tenant_breaker_state(name, t)?;
                let n = match state {
                    BreakerState::Open => 1,
                    BreakerState::HalfOpen => 2,
                    _ => 0,
                };
                Some((name.clone(), n))
            })
            .collect();
        self.metrics.render(&breakers, only)
    }

    /// The circuit breaker state of a tenant (`closed` without a breaker;
    /// with shared state, as last seen in Redis).
    pub fn breaker_state(&self, tenant: &str) -> BreakerState {
        self.tenants
            .get(tenant)
            .and_then(|t| self.tenant_breaker_state(tenant, t))
            .unwrap_or(BreakerState::Closed)
    }

    fn tenant_breaker_state(&self, name: &str, t: &Tenant) -> Option<BreakerState> {
        let breaker = t.breaker.as_ref()?;
        if self.shared.is_some() {
            let seen = self
                .shared_breakers
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            return Some(seen.get(name).copied().unwrap_or(BreakerState::Closed));
        }
        Some(breaker.state())
    }

    fn saw_breaker(&self, tenant: &str, state: BreakerState) {
        self.shared_breakers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(tenant.to_owned(), state);
    }

    /// The service's metrics.
    #[cfg(feature = "gateway")]
    pub(crate) fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// Counts a decision made outside [`Service::decide`] (a streamed
    /// answer's final one) in the metrics and the tenant's circuit breaker.
    pub(crate) async fn count_decision(
        &self,
        tenant: &str,
        stage: Stage,
        decision: &Decision,
        took: std::time::Duration,
    ) {
        self.metrics.decision(tenant, stage, decision, took);
        let blocked = decision.decision == DecisionKind::Block;
        let Some(b) = self.breaker(tenant) else {
            return;
        };
        match &self.shared {
            // Counted in Redis with the tenant's next admission, or within
            // `FLUSH_EVERY` when none comes: no round trip of its own.
            Some((shared, _)) => shared.count(tenant, blocked),
            None => {
                b.record(blocked);
            }
        }
    }

    fn breaker(&self, tenant: &str) -> Option<&Breaker> {
        self.tenants.get(tenant).and_then(|t| t.breaker.as_ref())
    }

    /// Decides a request for a caller: its rate limit, its tenant's
    /// circuit breaker, then its guard; every decision is audited.
    pub async fn decide(
        &self,
        caller: &Caller,
        request: &CheckRequest,
    ) -> Result<Decision, DecideError> {
        use tracing::Instrument as _;
        let started = std::time::Instant::now();
        let span = crate::telemetry::decision_span(&caller.tenant, request, None);
        let result = self
            .decide_traced(caller, request, started)
            .instrument(span.clone())
            .await;
        match &result {
            Ok(d) => crate::telemetry::record_decision(&span, d, started.elapsed()),
            Err(e) => crate::telemetry::record_error(&span, e.code()),
        }
        result
    }

    async fn decide_traced(
        &self,
        caller: &Caller,
        request: &CheckRequest,
        started: std::time::Instant,
    ) -> Result<Decision, DecideError> {
        let admitted = self.admission(caller, request, true).await?;
        if let Some(refused) = admitted.refused {
            return Ok(refused);
        }
        let admission = palisade_checks::Admission::tenant(Some(&caller.tenant))
            .with_over(admitted.over.as_deref())
            .with_key(caller.key.as_deref())
            .with_warnings(admitted.warning);
        let decision = caller
            .guard
            .decide(request, admission)
            .await
            .map_err(DecideError::from_guard)?;
        self.count_decision(
            &caller.tenant,
            request.effective_stage(),
            &decision,
            started.elapsed(),
        )
        .await;
        Ok(decision)
    }

    /// The admission sequence every decision goes through, streamed ones
    /// included: the (tenant, agent) rate limit, then the tenant's circuit
    /// breaker — in Redis when `state.redis` is configured. `refused` when
    /// the breaker is open or the shared state failed closed: the refusal,
    /// built by the engine and audited; else the guard may decide, with
    /// `warning` added to its decision when the shared state failed open.
    /// `windows`: whether the policy's `rate_limit` checks are counted in
    /// the shared state (not for a streamed answer, whose checks run in the
    /// guard's stream).
    pub(crate) async fn admission(
        &self,
        caller: &Caller,
        request: &CheckRequest,
        windows: bool,
    ) -> Result<Admitted, DecideError> {
        let started = std::time::Instant::now();
        let agent = request.agent.as_ref().and_then(|a| a.id.as_deref());
        let bucket = bucket(agent, caller.key.as_deref());
        let mut warning = None;
        let mut over = None;
        let refusal: Option<(&str, String)> = match &self.shared {
            None => {
                self.admit(&caller.tenant, &bucket)?;
                match self.breaker(&caller.tenant).map(Breaker::admit) {
                    Some(Err(left)) => {
                        Some(("guardrail.circuit_open", open_message(&caller.tenant, left)))
                    }
                    _ => None,
                }
            }
            Some((shared, on_error)) => {
                let windows = if windows {
                    caller
                        .guard
                        .rate_limit_keys(request)
                        .map_err(DecideError::from_guard)?
                } else {
                    Vec::new()
                };
                match self
                    .shared_admit(shared, &caller.tenant, &bucket, &windows)
                    .await
                {
                    Ok(Ok((None, answered))) => {
                        over = Some(answered);
                        None
                    }
                    Ok(Ok((Some(left), _))) => {
                        Some(("guardrail.circuit_open", open_message(&caller.tenant, left)))
                    }
                    Ok(Err(limited)) => {
                        self.metrics.rate_limited(&caller.tenant);
                        return Err(limited.into());
                    }
                    Err(e) => {
                        self.metrics.state_result(false);
                        tracing::warn!("shared state: {e}");
                        match on_error {
                            crate::config::StateOnError::Allow => {
                                warning = Some(state_warning(&e));
                                None
                            }
                            _ => Some((
                                "state.unavailable",
                                format!(
                                    "{e}: the rate limits and circuit breaker cannot be applied, so the request is refused (state.redis.on_error: block)"
                                ),
                            )),
                        }
                    }
                }
            }
        };
        let Some((reason, message)) = refusal else {
            return Ok(Admitted {
                refused: None,
                warning,
                over,
            });
        };
        let refused = self
            .refuse(caller, request, reason, message, started)
            .await?;
        Ok(Admitted {
            refused: Some(refused),
            warning: None,
            over: None,
        })
    }

    /// A refusal built by the engine (`reason` its reasonCode), audited and
    /// counted like any decision.
    async fn refuse(
        &self,
        caller: &Caller,
        request: &CheckRequest,
        reason: &str,
        message: String,
        started: std::time::Instant,
    ) -> Result<Decision, DecideError> {
        let refused = caller
            .guard
            .refuse(Some(&caller.tenant), request, reason, message)
            .await
            .map_err(DecideError::from_guard)?;
        self.metrics.decision(
            &caller.tenant,
            request.effective_stage(),
            &refused,
            started.elapsed(),
        );
        Ok(refused)
    }

    /// The rate limit, the breaker and the policy's `rate_limit` windows in
    /// Redis, in one round trip (none when nothing is configured):
    /// `Ok(Ok((Some(seconds), _)))` while the breaker is open, else the
    /// windows' answers.
    async fn shared_admit(
        &self,
        shared: &crate::state::Shared,
        tenant: &str,
        bucket: &str,
        windows: &[palisade_engine::RateLimitKey],
    ) -> Result<Result<(Option<u64>, Vec<(usize, bool)>), RateLimited>, crate::state::StateError>
    {
        let rate = self
            .config
            .rate_limits
            .as_ref()
            .map(|r| (r.per_agent.requests, r.per_agent.per_secs));
        let breaker = self
            .config
            .circuit_breaker
            .as_ref()
            .filter(|_| self.breaker(tenant).is_some());
        if rate.is_none() && breaker.is_none() && windows.is_empty() {
            return Ok(Ok((None, Vec::new())));
        }
        let answer = shared.admit(tenant, bucket, rate, breaker, windows).await?;
        self.metrics.state_result(true);
        if let Some(limited) = answer.limited {
            return Ok(Err(limited));
        }
        let left = match answer.breaker {
            Ok(state) => {
                if breaker.is_some() {
                    self.saw_breaker(tenant, state);
                }
                None
            }
            Err(secs) => {
                self.saw_breaker(tenant, BreakerState::Open);
                Some(secs)
            }
        };
        Ok(Ok((left, answer.over)))
    }

    /// Takes one request from the bucket of `rate_limits` the request
    /// counts against: its (tenant, agent); without an agent id, its API
    /// key's; without either (no keys configured), the tenant's one
    /// anonymous bucket. The kinds never share a bucket.
    fn admit(&self, tenant: &str, bucket: &str) -> Result<(), RateLimited> {
        let Some(l) = &self.limiter else {
            return Ok(());
        };
        l.take(tenant, bucket).inspect_err(|_| {
            self.metrics.rate_limited(tenant);
        })
    }

    /// The service config.
    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// Whether callers must send an API key.
    pub fn requires_keys(&self) -> bool {
        !self.keys.is_empty()
    }

    /// Lets a caller in: its key (if keys are configured), the scope needed,
    /// and the tenant it names (`X-Tenant-ID`), which must be the key's.
    pub fn authorize(
        &self,
        key: Option<&str>,
        tenant: Option<&str>,
        scope: Scope,
    ) -> Result<Caller, AuthError> {
        let (tenant, key_id) = if self.keys.is_empty() {
            (tenant.unwrap_or(DEFAULT_TENANT).to_owned(), None)
        } else {
            let key = key.filter(|k| !k.is_empty()).ok_or(AuthError::Missing)?;
            let d = digest(key);
            // Compare every key's digest in full (no early exit on a byte).
            let found = self
                .keys
                .iter()
                .find(|k| {
                    k.digest
                        .iter()
                        .zip(d.iter())
                        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                        == 0
                })
                .ok_or(AuthError::Unknown)?;
            if !found.scopes.iter().any(|s| s == scope.as_str()) {
                return Err(AuthError::Scope {
                    key: found.id.clone(),
                    scope: scope.as_str(),
                });
            }
            if let Some(asked) = tenant
                && asked != found.tenant
            {
                return Err(AuthError::Tenant {
                    key: found.id.clone(),
                    own: found.tenant.clone(),
                    asked: asked.to_owned(),
                });
            }
            (found.tenant.clone(), Some(found.id.clone()))
        };
        let t = self
            .tenants
            .get(&tenant)
            .ok_or_else(|| AuthError::NoTenant(tenant.clone()))?;
        let Current { guard, source } = t.current();
        Ok(Caller {
            tenant,
            key: key_id,
            guard,
            source,
        })
    }

    /// The guard of `tenant` (the default tenant when `None`): its current
    /// policy, for a transport that serves one tenant in-process (the
    /// event stream of `palisade events`). `None` for an unknown tenant.
    pub fn guard(&self, tenant: Option<&str>) -> Option<Arc<Guard>> {
        self.local(tenant).ok().map(|caller| caller.guard)
    }

    /// The caller of a local transport (`palisade events`, MCP over stdio):
    /// the process on the other end of the pipes started the service, so no
    /// key is asked for; it speaks for `tenant` (the default tenant when
    /// `None`).
    pub(crate) fn local(&self, tenant: Option<&str>) -> Result<Caller, AuthError> {
        let tenant = tenant.unwrap_or(DEFAULT_TENANT);
        let t = self
            .tenants
            .get(tenant)
            .ok_or_else(|| AuthError::NoTenant(tenant.to_owned()))?;
        let Current { guard, source } = t.current();
        Ok(Caller {
            tenant: tenant.to_owned(),
            key: None,
            guard,
            source,
        })
    }

    /// Re-reads every tenant's policy. All are loaded first; only when every
    /// one is valid do they replace the running ones (an invalid policy never
    /// replaces a valid one). The errors name the file and every problem.
    pub fn reload(&self) -> Result<usize, Vec<String>> {
        self.reload_only(None)
    }

    /// Re-reads one tenant's policy (an admin key's own), as
    /// [`Service::reload`] does for all.
    pub fn reload_tenant(&self, tenant: &str) -> Result<usize, Vec<String>> {
        self.reload_only(Some(tenant))
    }

    fn reload_only(&self, only: Option<&str>) -> Result<usize, Vec<String>> {
        let mut loaded = Vec::new();
        let mut errors = Vec::new();
        for (name, t) in &self.tenants {
            if only.is_some_and(|o| o != name) {
                continue;
            }
            match load_engine(t.policy.as_deref()) {
                Ok(engine) => loaded.push((name, engine)),
                Err(e) => errors.push(format!(
                    "tenant `{name}`: {}",
                    policy_message(t.policy.as_deref(), &e)
                )),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let n = loaded.len();
        for (name, (engine, source)) in loaded {
            if let Some(t) = self.tenants.get(name) {
                let mut slot = t
                    .current
                    .write()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                // Sessions outlive a reload: the new policy judges by what
                // the sessions of the tenant have seen so far.
                let next = slot.guard.reloaded(engine);
                *slot = Current {
                    guard: Arc::new(next),
                    source: Arc::new(source),
                };
            }
        }
        Ok(n)
    }

    /// Counts the last decisions in the shared breakers, flushes the audit
    /// log and stops the MCP servers.
    pub async fn shutdown(&self) -> Result<(), AuditError> {
        if let (Some((shared, _)), Some(config)) = (&self.shared, &self.config.circuit_breaker) {
            flush_breakers(
                shared,
                config,
                &self.metrics,
                &self.shared_breakers,
                &mut false,
            )
            .await;
        }
        let mut result = Ok(());
        for t in self.tenants.values() {
            let guard = t.current().guard;
            if let Err(e) = guard.shutdown().await {
                result = Err(e);
            }
        }
        result
    }
}

/// Counts in Redis, every [`FLUSH_EVERY`](crate::state::FLUSH_EVERY), the
/// decisions no admission carried there; ends with the service.
fn spawn_flusher(
    shared: std::sync::Weak<crate::state::Shared>,
    config: crate::config::CircuitBreaker,
    metrics: Arc<crate::metrics::Metrics>,
    seen: Arc<std::sync::Mutex<BTreeMap<String, BreakerState>>>,
) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(crate::state::FLUSH_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut failing = false;
        loop {
            every.tick().await;
            let Some(shared) = shared.upgrade() else {
                return;
            };
            flush_breakers(&shared, &config, &metrics, &seen, &mut failing).await;
        }
    });
}

/// Counts every tenant's decisions not yet counted in its breaker. A
/// failure keeps them for the next try and is reported in the metrics (and
/// logged once until Redis answers again): the decisions were already
/// answered.
async fn flush_breakers(
    shared: &crate::state::Shared,
    config: &crate::config::CircuitBreaker,
    metrics: &crate::metrics::Metrics,
    seen: &std::sync::Mutex<BTreeMap<String, BreakerState>>,
    failing: &mut bool,
) {
    let _round = shared.round().await;
    for tenant in shared.pending_tenants() {
        match shared.flush(&tenant, config).await {
            Ok(state) => {
                metrics.state_result(true);
                *failing = false;
                if let Some(state) = state {
                    seen.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .insert(tenant, state);
                }
            }
            Err(e) => {
                metrics.state_result(false);
                if !*failing {
                    tracing::warn!(
                        "circuit breaker of tenant `{tenant}`: decisions not yet counted, kept for the next try: {e}"
                    );
                }
                *failing = true;
            }
        }
    }
}

/// What admission lets through: a refusal, or the go-ahead with a warning
/// to add to the decision.
#[derive(Debug)]
pub(crate) struct Admitted {
    pub(crate) refused: Option<Decision>,
    pub(crate) warning: Option<palisade_protocol::Finding>,
    /// The policy's `rate_limit` checks as the shared state answered them.
    pub(crate) over: Option<Vec<(usize, bool)>>,
}

/// The rate-limit bucket a request counts against: its agent's; without an
/// agent id, its API key's; without either, the tenant's anonymous one.
/// The kinds never share a bucket.
fn bucket(agent: Option<&str>, key: Option<&str>) -> String {
    match (agent, key) {
        (Some(agent), _) => format!("agent:{agent}"),
        (None, Some(key)) => format!("key:{key}"),
        (None, None) => "anonymous".to_owned(),
    }
}

fn open_message(tenant: &str, left: u64) -> String {
    format!(
        "the circuit breaker of tenant `{tenant}` is open: too many requests were blocked; \
         requests are blocked for {left} s more"
    )
}

/// The warning of a shared state that failed open at admission.
fn state_warning(e: &crate::state::StateError) -> palisade_protocol::Finding {
    palisade_checks::state_warning(
        &palisade_checks::shared::StateError(e.0.clone()),
        "the rate limit and circuit breaker were not applied (state.redis.on_error: allow)",
    )
}

/// SHA-256 of a key.
fn digest(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

impl Tenant {
    /// The policy in force.
    fn current(&self) -> Current {
        self.current
            .read()
            .map(|c| c.clone())
            .unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }
}

/// The policy at `path`, else the embedded default policy, and its text;
/// compiled whole ([`Engine::warm`]), so that no request pays for it.
fn load_engine(path: Option<&Path>) -> Result<(Engine, PolicySource), PolicyErrors> {
    let loaded = load_policy(path)?;
    loaded.0.warm();
    Ok(loaded)
}

fn load_policy(path: Option<&Path>) -> Result<(Engine, PolicySource), PolicyErrors> {
    match path {
        None => Ok((
            Engine::default_policy()?,
            PolicySource {
                path: None,
                format: "yaml",
                text: palisade_engine::DEFAULT_POLICY.to_owned(),
            },
        )),
        Some(p) => {
            let (policy, text) = palisade_engine::Policy::from_path_with_text(p)?;
            let json = p
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json"));
            Ok((
                Engine::new(policy)?,
                PolicySource {
                    path: Some(p.to_owned()),
                    format: if json { "json" } else { "yaml" },
                    text,
                },
            ))
        }
    }
}
