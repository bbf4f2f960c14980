//! [`Guard`]: the whole policy for one request — the deterministic engine,
//! then (unless it already blocks) the stage's async checks concurrently
//! under one budget — and the audit record of every decision.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use palisade_engine::{AsyncOutcome, CheckKind, Engine, RequestError};
use palisade_protocol::{CheckRequest, Decision, Finding, FindingAction, Stage};
use tokio::time::Instant;

mod approve;

use crate::approvals::ApprovalStore;
use crate::audit::{AuditError, AuditRecord, AuditSink};
use crate::config::{Budgets, GuardConfig};
#[cfg(feature = "llm")]
use crate::llm::LlmClient;
#[cfg(any(feature = "llm", feature = "mcp"))]
use crate::llm::truncate;
use crate::llm::{CallError, SetupError};
#[cfg(feature = "mcp")]
use crate::mcp::McpServers;
use crate::shared::{OnStateError, SharedState, StateError};

/// Why a [`Guard`] gave no decision.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GuardError {
    /// The request is invalid (bad values, unknown check ids).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The decision's audit record could not be written, so the decision
    /// must not be answered.
    #[error("the audit record could not be written: {0}")]
    Audit(#[from] AuditError),
}

/// Runs a policy with its async checks.
///
/// ```
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use palisade_checks::{Guard, GuardConfig};
/// use palisade_engine::Engine;
/// use palisade_protocol::{CheckRequest, DecisionKind};
///
/// let engine = Engine::from_yaml_str(
///     "checks:\n  - { id: judge, stage: input, type: llm_judge, prompt: Block threats. }\n",
/// )?;
/// // No `llm` service configured: the judge fails open, with a warning.
/// let guard = Guard::new(engine, &GuardConfig::default())?;
/// let decision = guard.check(&CheckRequest::input("hello")).await?;
/// assert_eq!(decision.decision, DecisionKind::Allow);
/// assert_eq!(decision.warnings[0].check_id, "judge");
/// # Ok(()) }
/// # tokio::runtime::Runtime::new().unwrap().block_on(demo()).unwrap();
/// ```
#[derive(Clone)]
pub struct Guard {
    engine: Arc<Engine>,
    #[cfg(feature = "llm")]
    llm: Option<LlmClient>,
    #[cfg(feature = "mcp")]
    mcp: McpServers,
    budgets: Budgets,
    audit: Option<Arc<dyn AuditSink>>,
    /// `strict_requests`: unknown members make a request invalid.
    strict: bool,
    /// Flow sessions shared with other processes, when there are any.
    shared: Option<SharedSessions>,
    /// Where the approvals of asks are kept, when they are.
    approvals: Option<Approvals>,
}

/// The approvals a guard keeps: the store and how long one lasts.
#[derive(Clone, Debug)]
struct Approvals {
    store: Arc<dyn ApprovalStore>,
    ttl_ms: u64,
    /// What approval URLs start with (no trailing `/`); none: a path.
    base_url: Option<String>,
}

/// Flow sessions kept in a [`SharedState`]: read before a decision,
/// written after it, one request of a session at a time in this process.
#[derive(Clone)]
struct SharedSessions {
    state: Arc<dyn SharedState>,
    on_error: OnStateError,
    /// Locks by (tenant, session) stripe.
    stripes: Arc<[tokio::sync::Mutex<()>]>,
    hasher: std::collections::hash_map::RandomState,
}

impl SharedSessions {
    /// The lock of the stripe a session belongs to.
    #[expect(
        clippy::indexing_slicing,
        reason = "the index is taken modulo the number of stripes"
    )]
    fn stripe(&self, tenant: &str, id: &str) -> &tokio::sync::Mutex<()> {
        use std::hash::BuildHasher as _;
        let at = self.hasher.hash_one((tenant, id)) as usize % self.stripes.len();
        &self.stripes[at]
    }
}

/// The warning a decision carries when the shared state failed and the
/// request went on: `state.unavailable`, saying what was not applied.
pub fn state_warning(e: &StateError, what: &str) -> Finding {
    let mut f =
        Finding::new("state", "state", FindingAction::Warn).with_message(format!("{e}: {what}"));
    f.reason_code = "state.unavailable".to_owned();
    f
}

/// How many stripes the session locks have.
const STRIPES: usize = 256;

/// How many times a session write is tried while other processes write
/// the same session.
const WRITE_ATTEMPTS: u32 = 32;

/// What was settled about a request before the guard decides it: whose it
/// is, the policy's rate limits when the caller counts them elsewhere, and
/// the warnings admission produced. The guard's decision carries those
/// warnings, and its audit record is written from that decision.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Admission<'a> {
    /// The tenant the request is decided for.
    pub tenant: Option<&'a str>,
    /// The policy's `rate_limit` checks answered by the caller, which keeps
    /// their counters elsewhere (shared by several processes): pairs of
    /// check index and whether the limit is over, for the checks
    /// [`Guard::rate_limit_keys`] names.
    pub over: Option<&'a [(usize, bool)]>,
    /// Warnings to add to the decision (a shared state that failed open
    /// at admission).
    pub warnings: Vec<Finding>,
    /// The id of the API key that sent the request: it may not approve
    /// the approval its ask makes.
    pub key: Option<&'a str>,
}

impl<'a> Admission<'a> {
    /// Admission for a tenant, with nothing else settled.
    pub fn tenant(tenant: Option<&'a str>) -> Self {
        Admission {
            tenant,
            ..Admission::default()
        }
    }

    /// With the policy's `rate_limit` checks answered (see
    /// [`Admission::over`]).
    pub fn with_over(mut self, over: Option<&'a [(usize, bool)]>) -> Self {
        self.over = over;
        self
    }

    /// Sent with the API key `key` (its id).
    pub fn with_key(mut self, key: Option<&'a str>) -> Self {
        self.key = key;
        self
    }

    /// With warnings for the decision.
    pub fn with_warnings(mut self, warnings: impl IntoIterator<Item = Finding>) -> Self {
        self.warnings.extend(warnings);
        self
    }
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard")
            .field("llm", &cfg!(feature = "llm"))
            .field("mcp", &cfg!(feature = "mcp"))
            .field("budgets", &self.budgets)
            .field("audit", &self.audit.is_some())
            .field("shared", &self.shared.as_ref().map(|s| &s.state))
            .finish_non_exhaustive()
    }
}

/// A future of one service call.
type Call<'a> = Pin<Box<dyn Future<Output = Result<AsyncOutcome, CallError>> + Send + 'a>>;

impl Guard {
    /// A guard for `engine` with the services and budgets of `config`
    /// (its audit section is opened separately: [`crate::audit::JsonlAudit`],
    /// [`Guard::with_audit`]). Fails when a service cannot be set up (an
    /// API key's environment variable is not set).
    pub fn new(engine: Engine, config: &GuardConfig) -> Result<Self, SetupError> {
        Self::shared(Arc::new(engine), config)
    }

    /// [`Guard::new`] with an engine shared with others.
    pub fn shared(engine: Arc<Engine>, config: &GuardConfig) -> Result<Self, SetupError> {
        #[cfg(feature = "llm")]
        let llm = config.llm.as_ref().map(LlmClient::new).transpose()?;
        #[cfg(not(feature = "llm"))]
        if config.llm.is_some() {
            return Err(SetupError::Unsupported {
                section: "llm",
                feature: "llm",
            });
        }
        #[cfg(not(feature = "mcp"))]
        if !config.mcp_servers.is_empty() {
            return Err(SetupError::Unsupported {
                section: "mcp_servers",
                feature: "mcp",
            });
        }
        Ok(Guard {
            engine,
            #[cfg(feature = "llm")]
            llm,
            #[cfg(feature = "mcp")]
            mcp: McpServers::new(&config.mcp_servers),
            budgets: config.budgets.clone(),
            audit: None,
            strict: config.strict_requests,
            shared: None,
            approvals: None,
        })
    }

    /// With `strict_requests`, a request with members protocol v1 does not
    /// define is invalid: every such member is named.
    fn refuse_unknown(&self, request: &CheckRequest) -> Result<(), RequestError> {
        if !self.strict || request.unknown_fields.is_empty() {
            return Ok(());
        }
        Err(RequestError::Invalid(
            request
                .unknown_fields
                .iter()
                .map(|p| palisade_protocol::Problem {
                    pointer: p.clone(),
                    message: format!(
                        "unknown member{}: protocol v1 does not define it, and this service refuses \
                         such members (strict_requests: true); fix its name, or put the data in `context`",
                        palisade_engine::closest_member(p)
                            .map(|near| format!(" (did you mean `{near}`?)"))
                            .unwrap_or_default()
                    ),
                })
                .collect(),
        ))
    }

    /// Writes every decision to `sink` before answering it.
    pub fn with_audit(mut self, sink: Arc<dyn AuditSink>) -> Self {
        self.audit = Some(sink);
        self
    }

    /// Keeps flow sessions in `state`, shared with other processes: each
    /// request of a session is decided on the session's steps as `state`
    /// holds them, and its own step written back before it is answered.
    /// `on_error` says what a session that cannot be read does.
    pub fn with_shared_state(
        mut self,
        state: Arc<dyn SharedState>,
        on_error: OnStateError,
    ) -> Self {
        self.shared = Some(SharedSessions {
            state,
            on_error,
            stripes: (0..STRIPES).map(|_| tokio::sync::Mutex::new(())).collect(),
            hasher: std::collections::hash_map::RandomState::new(),
        });
        self
    }

    /// Keeps an approval in `store` for every `ask` (and every `block`
    /// that is an `ask` no human could be asked about), valid for `ttl`,
    /// and lets a request that names an approved one through once (SPEC
    /// §15; [`crate::approvals`]).
    pub fn with_approvals(mut self, store: Arc<dyn ApprovalStore>, ttl: Duration) -> Self {
        self.approvals = Some(Approvals {
            store,
            ttl_ms: u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
            base_url: None,
        });
        self
    }

    /// Approval URLs of decisions start with `base` (the service's address
    /// as approvers reach it, `https://guard.example.com`) rather than
    /// being a path. No effect without [`Guard::with_approvals`].
    pub fn with_approvals_base_url(mut self, base: impl Into<String>) -> Self {
        if let Some(a) = &mut self.approvals {
            a.base_url = Some(base.into().trim_end_matches('/').to_owned());
        }
        self
    }

    /// The same services, audit and shared state with another engine (a
    /// reloaded policy).
    pub fn with_engine(&self, engine: Arc<Engine>) -> Self {
        Guard {
            engine,
            ..self.clone()
        }
    }

    /// The same guard with a reloaded policy's engine that judges by this
    /// guard's flow sessions: sessions outlive a reload.
    pub fn reloaded(&self, engine: Engine) -> Self {
        let engine = engine.with_sessions(self.engine.sessions().clone());
        self.with_engine(Arc::new(engine))
    }

    /// The policy in force.
    pub fn policy(&self) -> &palisade_engine::Policy {
        self.engine.policy()
    }

    /// The engine, for what the guard does not offer itself: streaming
    /// (see [`Guard::stream`]), reports and tests.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The keys the policy's `rate_limit` checks count the request under,
    /// for a caller that counts them elsewhere (and answers them in
    /// [`Admission::over`]).
    pub fn rate_limit_keys(
        &self,
        request: &CheckRequest,
    ) -> Result<Vec<palisade_engine::RateLimitKey>, GuardError> {
        Ok(self.engine.rate_limit_keys(request)?)
    }

    /// Decides a request (no tenant).
    pub async fn check(&self, request: &CheckRequest) -> Result<Decision, GuardError> {
        self.decide(request, Admission::default()).await
    }

    /// Decides a request for a tenant.
    pub async fn check_for(
        &self,
        tenant: Option<&str>,
        request: &CheckRequest,
    ) -> Result<Decision, GuardError> {
        self.decide(request, Admission::tenant(tenant)).await
    }

    /// Decides an admitted request — the one door every decision goes
    /// through: the request validated; its flow session read from the
    /// shared state (when there is one); the deterministic checks; the
    /// async checks unless those already block; the decision; the session
    /// written back; every warning attached (admission's, then the shared
    /// state's); and last, once, the audit record of the decision being
    /// returned. An `Err` is never answered as a decision.
    pub async fn decide(
        &self,
        request: &CheckRequest,
        admission: Admission<'_>,
    ) -> Result<Decision, GuardError> {
        self.refuse_unknown(request)?;
        let Admission {
            tenant,
            over,
            mut warnings,
            key,
        } = admission;
        let shared = self.shared.as_ref().zip(self.engine.session_of(request));
        let _one_at_a_time = match shared {
            Some((s, id)) => Some(s.stripe(tenant.unwrap_or(""), id).lock().await),
            None => None,
        };
        let mut read = None;
        if let Some((s, id)) = shared {
            match self.session_read(s, tenant.unwrap_or(""), id).await {
                Ok(version) => read = Some(version),
                Err(e) if s.on_error == OnStateError::Allow => warnings.push(state_warning(
                    &e,
                    "the session's steps seen by other replicas were not read; its flow checks judged by this replica's (state.redis.on_error: allow)",
                )),
                Err(e) => {
                    let message = format!(
                        "{e}: the session's earlier steps cannot be read, so its flow checks cannot judge the request; it is refused (state.redis.on_error: block)"
                    );
                    return self
                        .refuse(tenant, request, "state.unavailable", message)
                        .await;
                }
            }
        }
        let evaluation = match over {
            Some(over) => self.engine.begin_with_limits(request, over)?,
            None => self.engine.begin(request)?,
        };
        let pending = evaluation.pending().to_vec();
        let outcomes = if pending.is_empty() {
            Vec::new()
        } else {
            self.run_async(request, evaluation.stage(), &pending).await
        };
        let mut decision = self.engine.finish(request, evaluation, &outcomes);
        if let (Some((s, id)), Some(version)) = (shared, read)
            && let Err(e) = self
                .session_write(s, tenant.unwrap_or(""), id, version, &decision.request_id)
                .await
        {
            warnings.push(state_warning(
                &e,
                &format!(
                    "this request's step of session `{id}` is kept by this replica only; other replicas' flow checks will not see it"
                ),
            ));
        }
        decision.warnings.extend(warnings);
        // An approval's effect is part of the decision before it is
        // recorded: the record says what was answered.
        let used = self.approve(tenant, key, request, &mut decision).await;
        // Recorded last, once, as answered: every warning above is in the
        // record (what was not applied is what an incident review needs).
        self.record_with(tenant, request, &mut decision, used)
            .await?;
        Ok(decision)
    }

    /// A refusal made before the policy is evaluated (`reason` its
    /// reasonCode: `guardrail.circuit_open`, `state.unavailable`), built as
    /// the engine builds decisions and audited like any.
    pub async fn refuse(
        &self,
        tenant: Option<&str>,
        request: &CheckRequest,
        reason: &str,
        message: String,
    ) -> Result<Decision, GuardError> {
        let mut refused = self.engine.refuse(request, reason, message)?;
        self.record(tenant, request, &mut refused).await?;
        Ok(refused)
    }

    /// Audits a decision made outside the policy by a transport (the MCP
    /// gateway's judgement of a tool definition, a person's answer to its
    /// question): given a receipt id and recorded like any.
    pub async fn record_outside(
        &self,
        tenant: Option<&str>,
        request: &CheckRequest,
        decision: &mut Decision,
    ) -> Result<(), GuardError> {
        Ok(self.record(tenant, request, decision).await?)
    }

    /// Reads a session from the shared state into the engine's sessions:
    /// the version read.
    async fn session_read(
        &self,
        shared: &SharedSessions,
        tenant: &str,
        id: &str,
    ) -> Result<u64, StateError> {
        let (version, state) = shared
            .state
            .session_get(tenant, id)
            .await
            .inspect_err(|e| {
                tracing::warn!("shared state: {e}");
            })?;
        // Not held: a new session, or one the store lost (restarted
        // without its data); this process's copy, if any, is kept.
        if let Some(state) = state {
            self.engine
                .sessions()
                .import(id, Some(&state), self.engine.now_millis())
                .map_err(|e| StateError(format!("flow session `{id}`: {e}")))?;
        }
        Ok(version)
    }

    /// Writes the session, with the step this request added, back to the
    /// shared state. When another process wrote it since it was read, its
    /// state is read again and this step added to it, up to
    /// [`WRITE_ATTEMPTS`] times.
    async fn session_write(
        &self,
        shared: &SharedSessions,
        tenant: &str,
        id: &str,
        mut version: u64,
        request_id: &str,
    ) -> Result<(), StateError> {
        let sessions = self.engine.sessions();
        let ttl_ms = sessions.limits().ttl_secs.saturating_mul(1000);
        let mine = sessions.step(id, request_id, self.engine.now_millis());
        for attempt in 0..WRITE_ATTEMPTS {
            if attempt > 0 {
                // Writers of one session that met here part a little.
                let jitter = u64::from(uuid::Uuid::now_v7().as_bytes()[15]) * 8;
                tokio::time::sleep(Duration::from_micros(jitter)).await;
            }
            let Some(state) = sessions.export(id, self.engine.now_millis()) else {
                return Ok(());
            };
            if shared
                .state
                .session_put(tenant, id, version, &state, ttl_ms)
                .await?
                .is_some()
            {
                return Ok(());
            }
            let (now_at, remote) = shared.state.session_get(tenant, id).await?;
            let now = self.engine.now_millis();
            sessions
                .import(id, remote.as_deref(), now)
                .map_err(|e| StateError(format!("flow session `{id}`: {e}")))?;
            if let Some(step) = &mine {
                sessions.add(id, step.clone(), now);
            }
            version = now_at;
        }
        Err(StateError(format!(
            "other replicas wrote the session {WRITE_ATTEMPTS} times while this one tried"
        )))
    }

    /// Gives the decision a receipt id and writes its audit record.
    pub(crate) async fn record(
        &self,
        tenant: Option<&str>,
        request: &CheckRequest,
        decision: &mut Decision,
    ) -> Result<(), AuditError> {
        self.record_with(tenant, request, decision, None).await
    }

    /// [`Guard::record`], with the approval the request used or tried.
    async fn record_with(
        &self,
        tenant: Option<&str>,
        request: &CheckRequest,
        decision: &mut Decision,
        used: Option<crate::audit::ApprovalUse>,
    ) -> Result<(), AuditError> {
        if decision.receipt_id.is_none() {
            decision.receipt_id = Some(uuid::Uuid::now_v7().to_string());
        }
        if let Some(sink) = &self.audit {
            let mut record = AuditRecord::new(request, decision, tenant);
            record.approval_use = used;
            sink.record(record).await?;
        }
        Ok(())
    }

    /// Waits until every audit record written so far is durable, and stops
    /// the MCP servers.
    pub async fn shutdown(&self) -> Result<(), AuditError> {
        #[cfg(feature = "mcp")]
        self.mcp.shutdown().await;
        match &self.audit {
            Some(sink) => sink.flush().await,
            None => Ok(()),
        }
    }

    /// Runs the async checks `pending` (policy indices) concurrently under
    /// the request's budget.
    async fn run_async(
        &self,
        request: &CheckRequest,
        stage: Stage,
        pending: &[usize],
    ) -> Vec<(usize, AsyncOutcome)> {
        let budget_ms = request
            .options
            .as_ref()
            .and_then(|o| o.timeout_ms)
            .map_or(self.budgets.request_ms, |t| t.min(self.budgets.request_ms));
        let deadline = Instant::now() + Duration::from_millis(budget_ms);
        let checks = self.engine.policy().checks();
        let mut per_type: HashMap<&'static str, usize> = HashMap::new();
        let mut outcomes = Vec::with_capacity(pending.len());
        let mut calls = Vec::new();
        for &c in pending {
            let Some(check) = checks.get(c) else {
                outcomes.push((
                    c,
                    AsyncOutcome::Failed {
                        cause: format!("no check at index {c} in the policy in force"),
                    },
                ));
                continue;
            };
            let type_name = check.kind.type_name();
            let n = per_type.entry(type_name).or_insert(0);
            *n += 1;
            if *n > self.budgets.max_calls_per_type {
                outcomes.push((
                    c,
                    AsyncOutcome::Skipped {
                        cause: format!(
                            "at most {} `{type_name}` calls per request (budgets.max_calls_per_type)",
                            self.budgets.max_calls_per_type
                        ),
                    },
                ));
                continue;
            }
            calls.push(self.call(c, &check.kind, request, stage, deadline, budget_ms));
        }
        outcomes.extend(futures::future::join_all(calls).await);
        outcomes.sort_by_key(|(c, _)| *c);
        outcomes
    }

    /// One async check's call, bounded by its own timeout and the request's
    /// deadline.
    #[cfg_attr(
        not(all(feature = "llm", feature = "mcp")),
        allow(
            unused_mut,
            unreachable_code,
            unused_variables,
            reason = "a build without a client fails its checks before any call"
        )
    )]
    async fn call(
        &self,
        index: usize,
        kind: &CheckKind,
        request: &CheckRequest,
        stage: Stage,
        deadline: Instant,
        budget_ms: u64,
    ) -> (usize, AsyncOutcome) {
        let tool = request.tool.as_ref().map(|t| t.name.as_str());
        let content = content_of(request, stage);
        let failed = |cause: String| (index, AsyncOutcome::Failed { cause });
        let mut call_ms = self.budgets.call_ms;
        let call: Call<'_> = match kind {
            #[cfg(feature = "llm")]
            CheckKind::LlmJudge { prompt } => {
                let Some(llm) = &self.llm else {
                    return failed(
                        "no service configured: the service config has no `llm` section".into(),
                    );
                };
                if let Some(t) = llm.timeout() {
                    call_ms = t.as_millis() as u64;
                }
                let content = truncate(&content, self.budgets.judge_content_bytes).to_owned();
                let prompt = prompt.clone();
                Box::pin(async move { llm.judge(&prompt, stage.as_str(), tool, &content).await })
            }
            #[cfg(feature = "llm")]
            CheckKind::Moderation {
                categories,
                threshold,
            } => {
                let Some(llm) = &self.llm else {
                    return failed(
                        "no service configured: the service config has no `llm` section".into(),
                    );
                };
                if let Some(t) = llm.timeout() {
                    call_ms = t.as_millis() as u64;
                }
                let content = truncate(&content, self.budgets.moderation_content_bytes).to_owned();
                let threshold = *threshold;
                Box::pin(async move { llm.moderate(categories, threshold, &content).await })
            }
            #[cfg(not(feature = "llm"))]
            CheckKind::LlmJudge { .. } | CheckKind::Moderation { .. } => {
                return failed(
                    "no service: this build of palisade-checks has no `llm` feature".into(),
                );
            }
            #[cfg(feature = "mcp")]
            CheckKind::Mcp { server, tool: name } => {
                let Some(server) = self.mcp.get(server) else {
                    return failed(format!(
                        "no service configured: no MCP server `{server}` in the service config's `mcp_servers`"
                    ));
                };
                let content = truncate(&content, self.budgets.mcp_content_bytes).to_owned();
                Box::pin(async move { server.screen(name, stage.as_str(), tool, &content).await })
            }
            #[cfg(not(feature = "mcp"))]
            CheckKind::Mcp { .. } => {
                return failed(
                    "no service: this build of palisade-checks has no `mcp` feature".into(),
                );
            }
            // A check type this guard does not know how to call never
            // passes unseen: it fails, and its `on_error` decides.
            other => {
                return failed(format!(
                    "the check type `{}` cannot be run by this guard",
                    other.type_name()
                ));
            }
        };
        let own = Instant::now() + Duration::from_millis(call_ms);
        let limit = own.min(deadline);
        match tokio::time::timeout_at(limit, call).await {
            Ok(Ok(outcome)) => (index, outcome),
            Ok(Err(e)) => (index, e.outcome()),
            Err(_) => {
                let ms = if own <= deadline { call_ms } else { budget_ms };
                let which = if own <= deadline {
                    "the call's timeout"
                } else {
                    "the request's budget"
                };
                failed(format!("timed out after {ms} ms ({which})"))
            }
        }
    }
}

/// What an async check is shown of a request: the text at input and
/// output, the tool's arguments (JSON) at tool_use, its output at
/// tool_output, the action (JSON) at action.
pub(crate) fn content_of(request: &CheckRequest, stage: Stage) -> String {
    let json = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match stage {
        Stage::ToolUse => request
            .tool
            .as_ref()
            .and_then(|t| t.arguments.as_ref())
            .map(json)
            .unwrap_or_default(),
        Stage::ToolOutput => request
            .tool
            .as_ref()
            .and_then(|t| t.output.as_ref())
            .map(json)
            .or_else(|| request.content.clone())
            .unwrap_or_default(),
        Stage::Action => request
            .action
            .as_ref()
            .and_then(|a| serde_json::to_string(a).ok())
            .unwrap_or_default(),
        _ => request.content.clone().unwrap_or_default(),
    }
}

/// A model answer checked while it streams (stage `output`): each delta goes
/// through the engine's stream scanner, and the end of the message runs the
/// whole policy — the exact deterministic checks and the async ones
/// (moderation) — on the full text, with its audit record.
pub struct GuardStream<'g> {
    guard: &'g Guard,
    tenant: Option<String>,
    request: CheckRequest,
    scanner: palisade_engine::stream::StreamScanner<'g>,
}

impl Guard {
    /// Starts checking a streamed answer; `request` is the output request
    /// without its content (or with the content so far).
    pub fn stream(
        &self,
        tenant: Option<&str>,
        request: &CheckRequest,
    ) -> Result<GuardStream<'_>, RequestError> {
        self.refuse_unknown(request)?;
        Ok(GuardStream {
            guard: self,
            tenant: tenant.map(str::to_owned),
            request: request.clone(),
            scanner: self.engine.stream(request)?,
        })
    }
}

impl std::fmt::Debug for GuardStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GuardStream")
            .field("tenant", &self.tenant)
            .field("bytes", &self.scanner.text().len())
            .field("blocked", &self.scanner.is_blocked())
            .finish_non_exhaustive()
    }
}

impl GuardStream<'_> {
    /// Adds a delta; a decision when the findings change (a block, a new
    /// warning), as [`palisade_engine::stream::StreamScanner::push`].
    pub fn push(&mut self, delta: &str) -> Option<Decision> {
        self.scanner.push(delta)
    }

    /// Whether the answer is already blocked.
    pub fn is_blocked(&self) -> bool {
        self.scanner.is_blocked()
    }

    /// The final decision on the whole text (marked `final`), audited.
    pub async fn finish(self) -> Result<Decision, GuardError> {
        self.finish_admitted(Vec::new()).await
    }

    /// [`GuardStream::finish`] with the warnings admission produced for
    /// the stream: the final decision carries them, and so does its audit
    /// record.
    pub async fn finish_admitted(
        self,
        warnings: impl IntoIterator<Item = Finding>,
    ) -> Result<Decision, GuardError> {
        let mut request = self.request;
        request.content = Some(self.scanner.text().to_owned());
        let admission = Admission::tenant(self.tenant.as_deref()).with_warnings(warnings);
        let mut decision = self.guard.decide(&request, admission).await?;
        decision.is_final = Some(true);
        Ok(decision)
    }
}

#[cfg(test)]
mod tests {
    use palisade_engine::{CheckKind, Engine};
    use palisade_protocol::{CheckRequest, Stage};

    use super::*;

    /// A check type the guard has no call for fails (so that its
    /// `on_error` decides), never passes.
    #[tokio::test]
    async fn a_check_type_without_a_call_fails() {
        let guard = Guard::new(Engine::default_policy().unwrap(), &GuardConfig::default()).unwrap();
        let request = CheckRequest::new()
            .with_stage(Stage::Input)
            .with_content("x");
        let kind = CheckKind::ToolPattern {
            tools: vec!["x".to_owned()],
        };
        let deadline = Instant::now() + Duration::from_secs(1);
        let (index, outcome) = guard
            .call(3, &kind, &request, Stage::Input, deadline, 1000)
            .await;
        assert_eq!(index, 3);
        match outcome {
            AsyncOutcome::Failed { cause } => {
                assert!(cause.contains("`tool_pattern` cannot be run"), "{cause}");
            }
            other => panic!("{other:?}"),
        }
    }
}
