//! Evaluation of one request: the strings its stage scans, the hits, the
//! decision algebra and the decision.

mod notes;
mod redact;
pub mod stream;
mod strings;

use std::time::{Instant, SystemTime};

use palisade_protocol::{
    CheckRequest, Decision, DecisionKind, Finding, FindingAction, Location, Provider, Stage,
};

use crate::engine::{Engine, StageData};
use crate::error::RequestError;
use crate::policy::kinds::{Context, Form};
use crate::policy::{Check, CheckKind, OnFail};
use crate::scan::Sink;
pub use notes::closest_member;
pub(crate) use strings::{FieldKind, for_each_string};

/// One hit: a check matched bytes `start..end` of field `field`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub(crate) check: u32,
    pub(crate) field: u32,
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// The built-in detector that found it (`NO_LABEL`: the check's own patterns).
    pub(crate) label: u32,
}

/// A scanned field that had hits.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    /// The pointer shown in findings (matched key parts hidden).
    pub(crate) pointer: String,
    /// The pointer into the request as it is (for redaction).
    pub(crate) raw: String,
    pub(crate) kind: FieldKind,
    /// What the check found there, when it says more than the check's message.
    pub(crate) detail: Option<String>,
    /// Whether `detail` replaces the check's default message (`Found`'s
    /// `own_message`).
    pub(crate) own_message: bool,
    /// A flow check's source step.
    pub(crate) source: Option<palisade_protocol::Source>,
}

impl Field {
    pub(crate) fn new(pointer: &str, kind: FieldKind) -> Self {
        Self {
            pointer: pointer.to_owned(),
            raw: pointer.to_owned(),
            kind,
            detail: None,
            own_message: false,
            source: None,
        }
    }
}

/// Collects hits while the strings of a request are scanned: every hit of a
/// check that redacts (or in an object key, whose pointer must hide it), else
/// the leftmost hit per check and field.
pub(crate) struct Recorder<'a> {
    active: &'a [bool],
    need_all: &'a [bool],
    /// The field each check last hit in (`u32::MAX`: none), and that hit.
    last_field: Vec<u32>,
    last_hit: Vec<usize>,
    pub(crate) field: u32,
    /// Keep every span in the current field.
    pub(crate) all_spans: bool,
    pub(crate) hits: Vec<Hit>,
}

impl<'a> Recorder<'a> {
    pub(crate) fn new(active: &'a [bool], need_all: &'a [bool]) -> Self {
        Self {
            active,
            need_all,
            last_field: vec![u32::MAX; active.len()],
            last_hit: vec![0; active.len()],
            field: 0,
            all_spans: false,
            hits: Vec::new(),
        }
    }
}

impl Sink for Recorder<'_> {
    #[inline]
    #[expect(
        clippy::indexing_slicing,
        reason = "check, hit and field indices come from this evaluation's own tables, which hold one entry per check, hit or field"
    )]
    fn wants(&mut self, check: u32) -> bool {
        self.active[check as usize]
    }

    #[inline]
    #[expect(
        clippy::indexing_slicing,
        reason = "check, hit and field indices come from this evaluation's own tables, which hold one entry per check, hit or field"
    )]
    fn every(&self, check: u32) -> bool {
        self.all_spans || self.need_all[check as usize]
    }

    #[expect(
        clippy::indexing_slicing,
        reason = "check, hit and field indices come from this evaluation's own tables, which hold one entry per check, hit or field"
    )]
    fn hit(&mut self, check: u32, start: usize, end: usize, label: u32) {
        let c = check as usize;
        let hit = Hit {
            check,
            field: self.field,
            start,
            end,
            label,
        };
        if self.every(check) {
            self.hits.push(hit);
        } else if self.last_field[c] == self.field {
            let kept = &mut self.hits[self.last_hit[c]];
            if start < kept.start {
                *kept = hit;
            }
        } else {
            self.last_field[c] = self.field;
            self.last_hit[c] = self.hits.len();
            self.hits.push(hit);
        }
    }
}

pub(crate) fn stage_noun(stage: Stage) -> &'static str {
    match stage {
        Stage::Input => "Input",
        Stage::Output => "Output",
        Stage::ToolUse => "Tool call",
        Stage::ToolOutput => "Tool output",
        Stage::Action => "Action",
        _ => "Request",
    }
}

/// The text shown instead of blocked content when the check sets none.
pub fn default_replacement(stage: Stage) -> &'static str {
    match stage {
        Stage::Input => "This request was blocked by policy.",
        Stage::Output => "This response was withheld by policy.",
        Stage::ToolUse => "This tool call was blocked by policy.",
        Stage::ToolOutput => "This tool output was withheld by policy.",
        Stage::Action => "This action was blocked by policy.",
        _ => "This was blocked by policy.",
    }
}

/// The text shown instead of content that waits for a human's
/// confirmation (`ask`) when the check sets none.
pub fn default_ask_replacement(stage: Stage) -> &'static str {
    match stage {
        Stage::Input => "This request is waiting for a human's confirmation.",
        Stage::Output => "This response is withheld until a human confirms it.",
        Stage::ToolUse => "This tool call is waiting for a human's confirmation.",
        Stage::ToolOutput => "This tool output is withheld until a human confirms it.",
        Stage::Action => "This action is waiting for a human's confirmation.",
        _ => "This is waiting for a human's confirmation.",
    }
}

fn default_message(check: &Check) -> &'static str {
    check.kind.check_type().default_message()
}

/// The reason code of a decision blocked because an async check failed closed.
const CHECK_FAILED: &str = "guardrail.check_failed";
const FAILED_CLOSED: &str = "the check could not run and fails closed";

/// The finding an async check's outcome makes, if any.
fn async_finding(
    check: &Check,
    outcome: &AsyncOutcome,
    mode: palisade_protocol::Mode,
    interactive: bool,
) -> Option<Finding> {
    let finding = |action: FindingAction, reason_code: String, message: String| Finding {
        check_id: check.id.clone(),
        name: check.name.clone(),
        check_type: check.kind.type_name().to_owned(),
        severity: check.severity,
        action,
        reason_code,
        message: Some(message),
        suggestion: check.suggestion.clone(),
        location: None,
        source: None,
    };
    match outcome {
        AsyncOutcome::Pass => None,
        AsyncOutcome::Hit { reason } => {
            let mut action = check.on_fail.effective(mode);
            let mut note = None;
            if action == FindingAction::Ask && !interactive {
                action = FindingAction::Block;
                note = Some(NOT_INTERACTIVE);
            }
            let base = check
                .message
                .as_deref()
                .unwrap_or_else(|| default_message(check));
            let mut message = match reason {
                Some(r) if !r.is_empty() => format!("{base}: {r}"),
                _ => base.to_owned(),
            };
            if let Some(n) = note {
                message = format!("{message} ({n})");
            }
            Some(finding(
                action,
                format!("guardrail.{}", check.kind.type_name()),
                message,
            ))
        }
        AsyncOutcome::Failed { cause } | AsyncOutcome::Skipped { cause } => {
            // A check that could not answer — or was not called at all —
            // fails closed when its `on_error` says so (advisory mode turns
            // that block into `log`), else open.
            let closed = check.on_error == crate::policy::OnError::Block;
            let action = match mode {
                _ if !closed => FindingAction::FailOpen,
                palisade_protocol::Mode::Advisory => FindingAction::Log,
                _ => FindingAction::Block,
            };
            let how = match (outcome, closed) {
                (AsyncOutcome::Skipped { .. }, true) => "was not run and fails closed",
                (AsyncOutcome::Skipped { .. }, false) => "was not run",
                (_, true) => "failed closed",
                (_, false) => "failed open",
            };
            Some(finding(
                action,
                format!("guardrail.{}", check.kind.type_name()),
                format!("check '{}' {how}: {cause}", check.id),
            ))
        }
    }
}

const NOT_INTERACTIVE: &str = "no human could be asked: the request is not interactive";
const CANNOT_REDACT: &str =
    "the matched text is in a field that cannot be redacted, so the request is blocked";

/// The placeholder that replaces text a check redacts: the check's
/// `replacement`, else the detector's typed placeholder, else `[REDACTED:<id>]`.
pub(crate) fn placeholder(check: &Check, label: u32) -> String {
    if let Some(r) = &check.replacement {
        return r.clone();
    }
    match crate::detect::by_label(label) {
        Some(d) if label != crate::scan::NO_LABEL => d.placeholder.to_owned(),
        _ => format!("[REDACTED:{}]", check.id),
    }
}

/// What an async check (`llm_judge`, `mcp`, `moderation`) came to, as the
/// runtime that called its service reports it to [`Engine::finish`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsyncOutcome {
    /// The service says the request breaks the policy; `reason` is its
    /// explanation, if it gave one.
    Hit {
        /// The service's reason.
        reason: Option<String>,
    },
    /// The service says the request is fine.
    Pass,
    /// The check could not get an answer: timeout, transport error,
    /// unparsable reply, no service configured. Fails open (a `fail_open`
    /// warning) unless the check's `on_error` is `block`.
    Failed {
        /// Why, one line (`timed out after 2000 ms`).
        cause: String,
    },
    /// The check was not called (a per-type cap was reached, the budget
    /// ran out): always a `fail_open` warning.
    Skipped {
        /// Why, one line.
        cause: String,
    },
}

/// The deterministic part of an evaluation, waiting for the outcomes of
/// the request's async checks ([`Engine::begin`], [`Engine::finish`]).
#[derive(Clone, Debug)]
pub struct Evaluation {
    stage: Stage,
    hits: Vec<Hit>,
    fields: Vec<Field>,
    evaluated: u32,
    started: Instant,
    decision: Decision,
    pending: Vec<usize>,
    /// Warnings of the conditions that could not be evaluated.
    condition_errors: Vec<Finding>,
}

impl Evaluation {
    /// The decision of the deterministic checks alone (timing filled in).
    pub fn decision(&self) -> &Decision {
        &self.decision
    }

    /// Indices (into [`crate::Policy::checks`]) of the async checks that run
    /// for this request: at its stage, enabled, selected and with their
    /// `when` holding, in policy order. Empty when the deterministic checks
    /// already block: the services are not called then.
    pub fn pending(&self) -> &[usize] {
        if self.decision.decision == DecisionKind::Block {
            &[]
        } else {
            &self.pending
        }
    }

    /// The request's effective stage.
    pub fn stage(&self) -> Stage {
        self.stage
    }
}

/// Evaluates the deterministic checks and lists the async ones.
#[expect(
    clippy::indexing_slicing,
    reason = "check, hit and field indices come from this evaluation's own tables, which hold one entry per check, hit or field"
)]
pub(crate) fn begin(
    engine: &Engine,
    request: &CheckRequest,
    limits: Option<&[(usize, bool)]>,
) -> Result<Evaluation, RequestError> {
    let started = Instant::now();
    request.validate().map_err(RequestError::Invalid)?;
    let stage = request.effective_stage();
    let mut condition_errors = Vec::new();
    let active = engine.active_noting(request, stage, &mut condition_errors)?;
    let data = engine.stage_data(stage)?;
    let evaluated = data.checks.iter().filter(|&&c| active[c as usize]).count() as u32;
    let need_all: Vec<bool> = engine
        .policy
        .checks
        .iter()
        .map(|c| {
            c.on_fail == OnFail::Redact && engine.policy.mode != palisade_protocol::Mode::Advisory
        })
        .collect();

    let mut rec = Recorder::new(&active, &need_all);
    let mut fields: Vec<Field> = Vec::new();
    // Flow checks: the session so far, and what this request brings to it.
    let flows = engine
        .flows
        .as_deref()
        .filter(|_| engine.keep_sessions && request.session_id.is_some());
    let mut sensitive: Vec<String> = Vec::new();
    // Credentials a tool returns re-encoded (base64 of a credentials file,
    // a `.env`, a private key) are looked for in the decoded text too.
    let decodes = stage == Stage::ToolOutput
        && data.checks.iter().any(|&c| {
            active[c as usize]
                && matches!(
                    engine.policy.checks[c as usize].kind,
                    CheckKind::Secrets { .. }
                )
        });
    if let Some(matcher) = &data.matcher {
        for_each_string(request, stage, |ptr, kind, text, name| {
            rec.field = fields.len() as u32;
            rec.all_spans = kind.is_key();
            let before = rec.hits.len();
            matcher.scan(text, &mut rec);
            // A member's name and value, which the patterns see apart:
            // `{"password": "…"}`. A name that is not ASCII is also judged
            // in its normalised view (`pаssword` with a Cyrillic `а`).
            if let Some(name) = name
                && matcher.has_pairs()
            {
                matcher.scan_pair(name, text, &mut rec);
                if let Some(folded) = crate::view::View::of(name).into_iter().next()
                    && name.len() <= crate::view::WINDOW
                {
                    matcher.scan_pair(&folded.text, text, &mut rec);
                }
            }
            // Text that is not ASCII is matched a second time in its
            // normalised view; hits are reported at the original's spans.
            // Only the stretches around changed characters are matched.
            for view in crate::view::View::of(text) {
                let mut second = Recorder::new(&active, &need_all);
                second.field = rec.field;
                second.all_spans = rec.all_spans;
                matcher.scan(&view.text, &mut second);
                for h in second.hits {
                    let Some((start, end)) = view.original(h.start, h.end) else {
                        continue;
                    };
                    let seen = rec.hits[before..]
                        .iter()
                        .any(|k| k.check == h.check && k.start == start && k.end == end);
                    if !seen {
                        rec.hit(h.check, start, end, h.label);
                    }
                }
            }
            if decodes {
                let mut budget = crate::detect::encoded::Budget::default();
                scan_decoded(matcher, text, &active, &need_all, &mut rec, &mut budget, 1);
            }
            if let Some(flows) = flows {
                for h in &rec.hits[before..] {
                    if flows.sensitive.get(h.check as usize) == Some(&true)
                        && let Some(found) = text.get(h.start..h.end)
                    {
                        sensitive.push(crate::flow::values::compact(found));
                    }
                }
            }
            if rec.hits.len() > before {
                fields.push(Field::new(ptr, kind));
            }
        });
    }
    if let (Some(tools), Some(tool)) = (&data.tools, &request.tool) {
        let field = fields.len() as u32;
        let mut hit_any = false;
        tools.matches(&tool.name, |c| {
            if active[c as usize] && !rec.hits.iter().any(|h| h.check == c && h.field == field) {
                rec.hits.push(Hit {
                    check: c,
                    field,
                    start: 0,
                    end: tool.name.len(),
                    label: crate::scan::NO_LABEL,
                });
                hit_any = true;
            }
        });
        if hit_any {
            fields.push(Field::new("/tool/name", FieldKind::ToolName));
        }
    }

    let now = engine.clock.now_millis();
    let mut open = flows
        .and(request.session_id.as_deref())
        .map(|id| engine.sessions.open(id, now));
    structural(
        engine,
        data,
        request,
        stage,
        &active,
        &mut rec.hits,
        &mut fields,
        open.as_ref().and_then(|o| o.session()),
        limits,
        &mut condition_errors,
    );
    hide_matched_keys(engine, request, &rec.hits, &mut fields);
    let mut decision = build(engine, request, stage, &rec.hits, &fields, &[]);
    if let (Some(open), Some(flows)) = (open.as_mut(), flows) {
        let sensitive_any = rec
            .hits
            .iter()
            .any(|h| flows.sensitive.get(h.check as usize) == Some(&true));
        let step = crate::flow::step::step(
            request,
            stage,
            &decision.request_id,
            |tool| flows.trusted.is_match_or(tool, false),
            sensitive,
            sensitive_any,
            flows.instructions,
        );
        if step.is_empty() {
            open.touch();
        } else {
            open.record(step);
        }
    }
    drop(open);
    let condition_errors = notes::condition_errors(engine, &condition_errors);
    decision.warnings.extend(condition_errors.iter().cloned());
    add_notes(request, stage, evaluated, &mut decision);
    decision.evaluated = Some(evaluated);
    decision.evaluated_at = Some(crate::time::clock::rfc3339(SystemTime::now()));
    decision.duration_us = Some(started.elapsed().as_micros() as u64);
    let pending = data
        .checks
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| active[c] && engine.policy.checks[c].kind.is_async())
        .collect();
    Ok(Evaluation {
        stage,
        hits: rec.hits,
        fields,
        evaluated,
        started,
        decision,
        pending,
        condition_errors,
    })
}

/// Scans the base64 runs of `text` that decode to text
/// ([`crate::detect::encoded`]) with the stage's matcher, and records the
/// credential detectors' hits there at the run's span: a credential inside
/// is a credential in the run. Runs within decoded text are decoded too,
/// [`crate::detect::encoded::MAX_DEPTH`] levels deep.
fn scan_decoded(
    matcher: &crate::scan::StageMatcher,
    text: &str,
    active: &[bool],
    need_all: &[bool],
    rec: &mut Recorder<'_>,
    budget: &mut crate::detect::encoded::Budget,
    depth: u32,
) {
    for run in crate::detect::encoded::decode_runs_by(text, budget, crate::scan::base64_block) {
        let mut inner = Recorder::new(active, need_all);
        inner.field = rec.field;
        matcher.scan(&run.text, &mut inner);
        if depth < crate::detect::encoded::MAX_DEPTH {
            scan_decoded(
                matcher,
                &run.text,
                active,
                need_all,
                &mut inner,
                budget,
                depth + 1,
            );
        }
        for h in inner.hits {
            let seen = rec.hits.iter().any(|k| {
                k.field == rec.field
                    && k.check == h.check
                    && k.start == run.start
                    && k.end == run.end
            });
            if crate::detect::is_secret_label(h.label) && !seen {
                rec.hit(h.check, run.start, run.end, h.label);
            }
        }
    }
}

/// The decision with the async checks' outcomes merged in policy order.
pub(crate) fn finish(
    engine: &Engine,
    request: &CheckRequest,
    evaluation: Evaluation,
    outcomes: &[(usize, AsyncOutcome)],
) -> Decision {
    if outcomes.is_empty() {
        let mut decision = evaluation.decision;
        decision.duration_us = Some(evaluation.started.elapsed().as_micros() as u64);
        return decision;
    }
    let mut decision = build(
        engine,
        request,
        evaluation.stage,
        &evaluation.hits,
        &evaluation.fields,
        outcomes,
    );
    decision
        .warnings
        .extend(evaluation.condition_errors.iter().cloned());
    add_notes(
        request,
        evaluation.stage,
        evaluation.evaluated,
        &mut decision,
    );
    decision.request_id = evaluation.decision.request_id;
    decision.evaluated = Some(evaluation.evaluated);
    decision.evaluated_at = evaluation.decision.evaluated_at;
    decision.duration_us = Some(evaluation.started.elapsed().as_micros() as u64);
    decision
}

/// A counter of a policy `rate_limit` check that a request takes from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RateLimitKey {
    /// The check's index in the policy.
    pub check: usize,
    /// The check's id.
    pub check_id: String,
    /// The counter's key within the check (its `per` parts of the request).
    pub key: String,
    /// Requests allowed in the window.
    pub max: u32,
    /// The window, in milliseconds.
    pub window_ms: u64,
}

/// Evaluates a request without a runtime for async checks: each async
/// check that would run fails as "no service configured".
pub(crate) fn evaluate(engine: &Engine, request: &CheckRequest) -> Result<Decision, RequestError> {
    let evaluation = begin(engine, request, None)?;
    let outcomes: Vec<(usize, AsyncOutcome)> = evaluation
        .pending()
        .iter()
        .map(|&c| {
            (
                c,
                AsyncOutcome::Failed {
                    cause: NO_SERVICE.to_owned(),
                },
            )
        })
        .collect();
    Ok(finish(engine, request, evaluation, &outcomes))
}

/// Evaluation, as the engine's API.
impl Engine {
    /// Evaluates a request against the policy.
    ///
    /// Fails when the request has invalid values ([`CheckRequest::validate`])
    /// or names a check id the policy does not have.
    ///
    /// Async checks (`llm_judge`, `mcp`, `moderation`) need a runtime that
    /// calls their services (`palisade-checks`' `Guard`); here each one that
    /// would run fails as "no service configured": a `fail_open` warning, or
    /// a block when its `on_error` is `block`.
    pub fn evaluate(&self, request: &CheckRequest) -> Result<Decision, RequestError> {
        evaluate(self, request)
    }

    /// Evaluates the deterministic checks of a request and lists the async
    /// checks that should run next ([`Evaluation::pending`]); a runtime
    /// calls their services and hands the outcomes to [`Engine::finish`].
    ///
    /// ```
    /// use palisade_engine::{AsyncOutcome, Engine};
    /// use palisade_protocol::{CheckRequest, DecisionKind};
    ///
    /// let engine = Engine::from_yaml_str(
    ///     "checks:\n  - { id: judge, stage: input, type: llm_judge, prompt: Block threats. }\n",
    /// )?;
    /// let request = CheckRequest::input("hello");
    /// let evaluation = engine.begin(&request)?;
    /// assert_eq!(evaluation.pending(), [0]);
    /// let outcome = AsyncOutcome::Hit { reason: Some("a threat".into()) };
    /// let decision = engine.finish(&request, evaluation, &[(0, outcome)]);
    /// assert_eq!(decision.decision, DecisionKind::Block);
    /// assert_eq!(decision.violations[0].check_id, "judge");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin(&self, request: &CheckRequest) -> Result<Evaluation, RequestError> {
        begin(self, request, None)
    }

    /// The counters the policy's `rate_limit` checks would take this
    /// request from (the checks that run for it), for a runtime that keeps
    /// them elsewhere — shared by several processes — and answers with
    /// [`Engine::begin_with_limits`].
    ///
    /// ```
    /// use palisade_engine::Engine;
    /// use palisade_protocol::CheckRequest;
    /// use serde_json::json;
    ///
    /// let engine = Engine::from_yaml_str(
    ///     "checks:\n  - { id: calls, stage: tool_use, type: rate_limit, max: 2, window_secs: 60, per: [agent] }\n",
    /// )?;
    /// let request = CheckRequest::tool_use("bash", json!({})).with_agent_id("a-1");
    /// let keys = engine.rate_limit_keys(&request)?;
    /// assert_eq!((keys[0].check_id.as_str(), keys[0].max, keys[0].window_ms), ("calls", 2, 60_000));
    /// // The runtime's counter says the limit is over: the check fires.
    /// let decision = engine.finish(&request, engine.begin_with_limits(&request, &[(keys[0].check, true)])?, &[]);
    /// assert_eq!(decision.violations[0].check_id, "calls");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rate_limit_keys(
        &self,
        request: &CheckRequest,
    ) -> Result<Vec<RateLimitKey>, RequestError> {
        let stage = request.effective_stage();
        let active = self.active(request, stage)?;
        let data = self.stage_data(stage)?;
        let mut out = Vec::new();
        for &c in &data.checks {
            let c = c as usize;
            if !active.get(c).copied().unwrap_or(false) {
                continue;
            }
            let Some(check) = self.policy.checks.get(c) else {
                continue;
            };
            if let CheckKind::RateLimit {
                max,
                window_secs,
                per,
            } = &check.kind
            {
                out.push(RateLimitKey {
                    check: c,
                    check_id: check.id.clone(),
                    key: crate::policy::kinds::rate_limit::key(request, per),
                    max: *max,
                    window_ms: window_secs.saturating_mul(1000),
                });
            }
        }
        Ok(out)
    }

    /// [`Engine::begin`] with the policy's `rate_limit` checks answered by
    /// the caller (pairs of check index and whether the limit is over, as
    /// [`Engine::rate_limit_keys`] named them) instead of the engine's own
    /// counters; a check without an answer uses the engine's.
    pub fn begin_with_limits(
        &self,
        request: &CheckRequest,
        over: &[(usize, bool)],
    ) -> Result<Evaluation, RequestError> {
        begin(self, request, Some(over))
    }

    /// The decision of an evaluation with its async checks' outcomes
    /// (pairs of check index and outcome) merged in policy order. Checks of
    /// [`Evaluation::pending`] without an outcome are left out.
    pub fn finish(
        &self,
        request: &CheckRequest,
        evaluation: Evaluation,
        outcomes: &[(usize, AsyncOutcome)],
    ) -> Decision {
        finish(self, request, evaluation, outcomes)
    }

    /// A block decided without evaluating the checks, for a reason outside
    /// the policy (a runtime's open circuit breaker, say): `reason_code`
    /// and `message` say why. Like every decision it carries the request id
    /// (or a new one), the stage's replacement text, the policy's mode and
    /// the time; `evaluated` is 0. Fails as [`Engine::evaluate`] does on an
    /// invalid request.
    ///
    /// ```
    /// use palisade_engine::Engine;
    /// use palisade_protocol::{CheckRequest, DecisionKind};
    ///
    /// let engine = Engine::default_policy()?;
    /// let d = engine.refuse(&CheckRequest::input("hi"), "guardrail.circuit_open", "too many blocks")?;
    /// assert_eq!(d.decision, DecisionKind::Block);
    /// assert_eq!(d.evaluated, Some(0));
    /// assert!(d.violations.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn refuse(
        &self,
        request: &CheckRequest,
        reason_code: &str,
        message: impl Into<String>,
    ) -> Result<Decision, RequestError> {
        refuse(self, request, reason_code, message.into())
    }
}

/// A block without evaluation ([`Engine::refuse`]).
pub(crate) fn refuse(
    engine: &Engine,
    request: &CheckRequest,
    reason_code: &str,
    message: String,
) -> Result<Decision, RequestError> {
    let started = Instant::now();
    request.validate().map_err(RequestError::Invalid)?;
    let id = request
        .request_id
        .clone()
        .unwrap_or_else(crate::time::clock::new_id);
    let mut decision = Decision::block(id, reason_code, message);
    decision.replacement = Some(default_replacement(request.effective_stage()).to_owned());
    decision.evaluated = Some(0);
    decision.mode = Some(engine.policy.mode);
    decision.provider = Some(Provider::palisade());
    decision.evaluated_at = Some(crate::time::clock::rfc3339(SystemTime::now()));
    decision.duration_us = Some(started.elapsed().as_micros() as u64);
    Ok(decision)
}

/// What the decision says about the request itself ([`notes`]).
fn add_notes(request: &CheckRequest, stage: Stage, evaluated: u32, decision: &mut Decision) {
    decision.warnings.extend(notes::unknown_fields(request));
    notes::unchecked(request, stage, evaluated, decision);
}

/// The cause of an async check's failure when nothing can call its service.
pub(crate) const NO_SERVICE: &str =
    "no service configured for this check (async checks run in a Guard with a service config)";

/// The checks that look at the request as a whole rather than at strings:
/// conditions, rate limits, argument schemas, files and commands.
#[expect(
    clippy::indexing_slicing,
    reason = "check, hit and field indices come from this evaluation's own tables, which hold one entry per check, hit or field"
)]
#[expect(
    clippy::too_many_arguments,
    reason = "the parts of one evaluation, passed apart so that each is borrowed as it needs"
)]
fn structural(
    engine: &Engine,
    data: &StageData,
    request: &CheckRequest,
    stage: Stage,
    active: &[bool],
    hits: &mut Vec<Hit>,
    fields: &mut Vec<Field>,
    session: Option<&crate::flow::session::Session>,
    limits: Option<&[(usize, bool)]>,
    condition_errors: &mut Vec<(usize, String, String)>,
) {
    let mut cx = Context::new(request, stage, engine.clock.now_millis());
    cx.session = session;
    for &c in &data.checks {
        if !active[c as usize] {
            continue;
        }
        let Form::Whole(check) = &engine.policy.compiled[c as usize].form else {
            continue;
        };
        cx.limiter = engine.limiters[c as usize].as_deref();
        cx.limit_over = limits.and_then(|l| {
            l.iter()
                .find(|(check, _)| *check == c as usize)
                .map(|&(_, over)| over)
        });
        let found = check.first_hit(&mut cx);
        for (expr, e) in cx.condition_errors.drain(..) {
            condition_errors.push((c as usize, expr, e));
        }
        let Some(found) = found else {
            continue;
        };
        let mut field = if found.pointer.is_empty() {
            Field::new("", FieldKind::Request)
        } else {
            Field::new(&found.pointer, FieldKind::Argument)
        };
        field.detail = found.detail;
        field.own_message = found.own_message;
        field.source = found.source;
        hits.push(Hit {
            check: c,
            field: fields.len() as u32,
            start: 0,
            end: 0,
            label: crate::scan::NO_LABEL,
        });
        fields.push(field);
    }
}

/// A hit in an object key would show in every pointer through that key: the
/// matched parts of the key are replaced by their placeholders there (which
/// is also the key's name in `modified` when the check redacts).
#[expect(
    clippy::indexing_slicing,
    reason = "check, hit and field indices come from this evaluation's own tables, which hold one entry per check, hit or field"
)]
fn hide_matched_keys(engine: &Engine, request: &CheckRequest, hits: &[Hit], fields: &mut [Field]) {
    let _ = request;
    for k in 0..fields.len() {
        if !fields[k].kind.is_key() {
            continue;
        }
        let mut spans: Vec<(usize, usize, String)> = hits
            .iter()
            .filter(|h| h.field as usize == k)
            .map(|h| {
                (
                    h.start,
                    h.end,
                    placeholder(&engine.policy.checks[h.check as usize], h.label),
                )
            })
            .collect();
        // Keys are hidden from the inside out, so an outer key sees pointers
        // that already hide the inner ones.
        let original = fields[k].pointer.clone();
        let Some(cut) = original.rfind('/') else {
            continue;
        };
        let key = palisade_protocol::pointer::unescape(&original[cut + 1..]);
        let hidden = redact::redact_text(&key, &mut spans);
        let mut replaced = original[..cut].to_owned();
        palisade_protocol::pointer::push(&mut replaced, &hidden);
        for f in fields.iter_mut() {
            if f.pointer == original {
                f.pointer.clone_from(&replaced);
            } else if let Some(rest) = f.pointer.strip_prefix(&original)
                && rest.starts_with('/')
            {
                f.pointer = format!("{replaced}{rest}");
            }
        }
    }
}

/// Turns hits into a decision (everything but timing).
#[expect(
    clippy::indexing_slicing,
    reason = "check, hit and field indices come from this evaluation's own tables, which hold one entry per check, hit or field"
)]
pub(crate) fn build(
    engine: &Engine,
    request: &CheckRequest,
    stage: Stage,
    hits: &[Hit],
    fields: &[Field],
    outcomes: &[(usize, AsyncOutcome)],
) -> Decision {
    let policy = &engine.policy;
    let mode = policy.mode;
    let interactive = request.is_interactive();
    let request_id = request
        .request_id
        .clone()
        .unwrap_or_else(crate::time::clock::new_id);
    let mut decision = Decision::allow(request_id);
    decision.mode = Some(mode);
    decision.provider = Some(Provider::palisade());

    // One finding per (check, field), in policy order then scan order.
    let mut order: Vec<usize> = (0..hits.len()).collect();
    order.sort_by_key(|&i| (hits[i].check, hits[i].field, hits[i].start));
    let mut redactions: Vec<Hit> = Vec::new();
    let mut first_redaction: Option<u32> = None;
    // One finding per check, field and detector (a `pii` check reports an
    // e-mail address and a card number in the same answer separately).
    let mut seen: std::collections::HashSet<(u32, u32, u32)> = std::collections::HashSet::new();
    for &i in &order {
        let hit = hits[i];
        let check = &policy.checks[hit.check as usize];
        let field = &fields[hit.field as usize];
        let mut action = check.on_fail.effective(mode);
        let mut note: Option<&str> = None;
        if action == FindingAction::Redact {
            if field.kind.redactable() {
                redactions.push(hit);
            } else {
                action = FindingAction::Block;
                note = Some(CANNOT_REDACT);
            }
        }
        if action == FindingAction::Ask && !interactive {
            action = FindingAction::Block;
            note = Some(NOT_INTERACTIVE);
        }
        if !seen.insert((hit.check, hit.field, hit.label)) {
            continue;
        }
        let base = check
            .message
            .as_deref()
            .unwrap_or_else(|| default_message(check));
        let labelled;
        let base = match crate::detect::by_label(hit.label) {
            Some(d) if hit.label != crate::scan::NO_LABEL => {
                labelled = format!("{base} ({})", d.id);
                labelled.as_str()
            }
            _ => base,
        };
        let base = match &field.detail {
            Some(d) if field.own_message && check.message.is_none() => d.clone(),
            Some(d) => format!("{base}: {d}"),
            None => base.to_owned(),
        };
        let message = match note {
            Some(n) => format!("{base} ({n})"),
            None => base,
        };
        let location = match field.kind {
            FieldKind::Request => None,
            FieldKind::ToolName | FieldKind::Argument => {
                Some(Location::field(field.pointer.clone()))
            }
            _ => Some(Location::span(field.pointer.clone(), hit.start, hit.end)),
        };
        let finding = Finding {
            check_id: check.id.clone(),
            name: check.name.clone(),
            check_type: check.kind.type_name().to_owned(),
            severity: check.severity,
            action,
            reason_code: format!("guardrail.{}", check.kind.type_name()),
            message: Some(message),
            suggestion: check.suggestion.clone(),
            location,
            source: field.source.clone(),
        };
        if action.is_violation() {
            decision.violations.push(finding);
        } else {
            if action == FindingAction::Redact && first_redaction.is_none() {
                first_redaction = Some(hit.check);
            }
            decision.warnings.push(finding);
        }
    }

    // Async checks that failed closed: the decision's reason is then
    // `guardrail.check_failed`.
    let mut failed_closed: Vec<String> = Vec::new();
    if !outcomes.is_empty() {
        for (c, outcome) in outcomes {
            let Some(check) = policy.checks.get(*c) else {
                continue;
            };
            if let Some(finding) = async_finding(check, outcome, mode, interactive) {
                if matches!(
                    outcome,
                    AsyncOutcome::Failed { .. } | AsyncOutcome::Skipped { .. }
                ) && finding.action.is_violation()
                {
                    failed_closed.push(finding.check_id.clone());
                }
                if finding.action.is_violation() {
                    decision.violations.push(finding);
                } else {
                    decision.warnings.push(finding);
                }
            }
        }
        // Policy order, scan order within a check (the sort is stable).
        let at = |f: &Finding| engine.ids.get(&f.check_id).copied().unwrap_or(u32::MAX);
        decision.violations.sort_by_key(at);
        decision.warnings.sort_by_key(at);
    }

    let any = |a: FindingAction| decision.violations.iter().any(|f| f.action == a);
    let kind = if any(FindingAction::Block) {
        DecisionKind::Block
    } else if any(FindingAction::Ask) {
        DecisionKind::Ask
    } else if first_redaction.is_some() {
        DecisionKind::Modify
    } else {
        DecisionKind::Allow
    };
    decision.set_kind(kind);
    let noun = stage_noun(stage);
    match kind {
        DecisionKind::Block | DecisionKind::Ask => {
            // The headline is the first violation in policy order whose action
            // is the decision's own.
            let wanted = if kind == DecisionKind::Block {
                FindingAction::Block
            } else {
                FindingAction::Ask
            };
            let headline = decision.violations.iter().find(|f| f.action == wanted);
            if let Some(f) = headline {
                let check = &policy.checks[engine.ids[&f.check_id] as usize];
                let failed = failed_closed.contains(&f.check_id);
                decision.reason_code = Some(if failed {
                    CHECK_FAILED.to_owned()
                } else {
                    f.reason_code.clone()
                });
                // Say why when the check's own action was not `block`.
                let note = match check.on_fail.effective(mode) {
                    _ if failed => Some(FAILED_CLOSED),
                    FindingAction::Ask if kind == DecisionKind::Block => Some(NOT_INTERACTIVE),
                    FindingAction::Redact => Some(CANNOT_REDACT),
                    _ => None,
                };
                decision.message = Some(match (kind, note) {
                    (DecisionKind::Ask, _) => {
                        format!("{noun} needs confirmation (guardrail check '{}')", check.id)
                    }
                    (_, Some(n)) => {
                        format!("{noun} blocked by guardrail check '{}' ({n})", check.id)
                    }
                    (_, None) => format!("{noun} blocked by guardrail check '{}'", check.id),
                });
                decision.replacement = Some(check.replacement.clone().unwrap_or_else(|| {
                    if kind == DecisionKind::Ask {
                        default_ask_replacement(stage).to_owned()
                    } else {
                        default_replacement(stage).to_owned()
                    }
                }));
            }
        }
        DecisionKind::Modify => {
            if let Some(c) = first_redaction {
                let check = &policy.checks[c as usize];
                decision.reason_code = Some(format!("guardrail.{}", check.kind.type_name()));
                decision.message =
                    Some(format!("{noun} redacted by guardrail check '{}'", check.id));
            }
            decision.modified = Some(redact::apply(policy, request, fields, &redactions));
        }
        DecisionKind::Allow | DecisionKind::Error => {}
    }
    decision
}
