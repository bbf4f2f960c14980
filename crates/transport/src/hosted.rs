//! The hosted REST dialect (SPEC §6): `POST /v1/guardrails/check`, a hosted
//! guardrails API's request and answer mapped to the v1 types and back.
//!
//! # Request
//!
//! `{"agent_id", "action" | "action_type", "content", "context", "rules"}`:
//!
//! - `agent_id` (required, a non-empty string) becomes the v1 `agent.id`, so
//!   rate limits apply per agent;
//! - a `context.tool_name` makes a `tool_use` check of that tool, with the
//!   whole `context` as its arguments;
//! - otherwise a `content` without `action`/`action_type` is an `input`
//!   check;
//! - otherwise it is an `action` check whose `operation` is `action_type`
//!   (else `action`), with `context` as the action's attributes (so its
//!   values are scanned like a tool call's arguments);
//! - `content`, when present, is evaluated at every stage; `context` is also
//!   the v1 request's `context` (conditions see it, `cwd` and
//!   `workspaceRoot` keep their meaning for path checks);
//! - `rules` restricts the evaluation to these check ids (empty: every
//!   check); an id the tenant's policy does not have is a 400 naming it.
//!
//! A request with neither `content`, `action`, `action_type` nor
//! `context.tool_name` has nothing to evaluate and is a 400. Unknown fields
//! are ignored.
//!
//! # Answer
//!
//! `{"allowed", "violations", "circuit_breaker_status", "evaluated_rules",
//! "evaluation_ms", "receipt_id"}`, each violation
//! `{"rule_id", "rule", "severity", "message", "description"}`:
//!
//! - `violations` lists every rule that triggered: first the findings that
//!   block (or ask, which blocks without a human), then the advisory ones
//!   (`warn`, `log`, advisory-mode hits, redactions). Async checks that
//!   could not answer and let the request through (`fail_open`) did not
//!   trigger and are not listed;
//! - `allowed` is false when a violation blocks, and also when the decision
//!   would redact: this dialect has no field for a redacted payload, so the
//!   caller could only go on with the unredacted one;
//! - `severity` maps the check's severity to the dialect's four levels:
//!   `info` → `info`, `low` → `warning`, `medium` and `high` → `error`,
//!   `critical` → `critical` (a check of the default severity that blocks
//!   reads as an error);
//! - `rule_id` is the check id, `rule` its name (else its id), `message` the
//!   finding's message and `description` that message followed by the
//!   check's suggestion, when it has one;
//! - a decision blocked without a finding (an open circuit breaker) gets one
//!   violation: `rule_id` `circuit_breaker`, severity `critical`, the
//!   decision's message;
//! - `circuit_breaker_status` is the tenant's breaker after the decision
//!   (`closed`, `open`, `half_open`), `evaluated_rules` the number of checks
//!   evaluated, `evaluation_ms` the evaluation time, `receipt_id` the audit
//!   record's id.
//!
//! # Errors
//!
//! As on every endpoint, `{"error": {"code", "message"}}`: 400
//! `invalid_request` naming the field, 401/403 for the key and tenant, 413
//! over the body limit, 429 with `Retry-After` over the agent's rate limit,
//! 503 when the audit record could not be written.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use palisade_protocol::{
    Action, Agent, CheckRequest, Decision, DecisionKind, Finding, FindingAction, Object, Severity,
    Stage, Tool,
};
use serde_json::Value;

use crate::api::{ApiError, Authorized, Body};
use crate::breaker::State as BreakerState;
use crate::service::Service;
use crate::wire::{
    BreakerStatus, HostedCheckRequest, HostedCheckResponse, HostedSeverity, HostedViolation,
};

/// The dialect's routes.
pub(crate) fn routes() -> Router<Arc<Service>> {
    Router::new().route("/v1/guardrails/check", post(check))
}

/// A hosted check request, read and checked.
#[derive(Clone, Debug, Default, PartialEq)]
struct HostedCheck {
    agent_id: String,
    action: Option<String>,
    content: Option<String>,
    context: Option<Object>,
    rules: Vec<String>,
}

/// A hosted request that cannot be read; the message names the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum RequestProblem {
    /// The body is not a JSON object.
    #[error("the body is not a JSON object: {0}")]
    NotJson(String),
    /// A required field is absent.
    #[error("`{0}` is required")]
    Missing(&'static str),
    /// A field has an empty value.
    #[error("`{field}` must be {expected}")]
    Type {
        /// The field's path.
        field: String,
        /// What it must be.
        expected: &'static str,
    },
    /// Nothing to evaluate.
    #[error(
        "nothing to evaluate: send `content`, `action_type` (or `action`) or `context.tool_name`"
    )]
    Empty,
    /// `rules` names checks the policy does not have.
    #[error("`rules` names unknown rule ids {0}; the policy has no such checks")]
    UnknownRules(String),
    /// A key appears twice in one object.
    #[error("{0}")]
    Repeated(String),
}

impl From<RequestProblem> for ApiError {
    fn from(e: RequestProblem) -> Self {
        ApiError::invalid(e.to_string())
    }
}

fn wrong(field: impl Into<String>, expected: &'static str) -> RequestProblem {
    RequestProblem::Type {
        field: field.into(),
        expected,
    }
}

/// Reads a hosted request body.
fn parse(body: &[u8]) -> Result<HostedCheck, RequestProblem> {
    let text = std::str::from_utf8(body)
        .map_err(|_| RequestProblem::NotJson("the body is not UTF-8".to_owned()))?;
    // Read once: the syntax, then a key repeated anywhere in the body (the
    // guardrail and the agent may read different values of it: refused,
    // as on every transport), then the fields from the parsed value.
    let value = palisade_engine::parse_json(text).map_err(|e| match &e {
        palisade_engine::RequestError::Malformed { message, .. }
            if message.starts_with("invalid JSON: ") =>
        {
            RequestProblem::NotJson(message.trim_start_matches("invalid JSON: ").to_owned())
        }
        _ => RequestProblem::Repeated(e.to_string()),
    })?;
    // A struct would also be read from an array of its members' values.
    if !value.is_object() {
        return Err(RequestProblem::NotJson(
            "found another JSON value".to_owned(),
        ));
    }
    let request: HostedCheckRequest = serde_path_to_error::deserialize(value).map_err(|e| {
        let field = e.path().to_string();
        match field.as_str() {
            "." => RequestProblem::NotJson(e.inner().to_string()),
            "agent_id" => wrong(field, "a non-empty string"),
            "context" => wrong(field, "an object"),
            "rules" => wrong(field, "an array of rule ids"),
            _ => wrong(field, "a string"),
        }
    })?;
    let HostedCheckRequest {
        agent_id,
        action,
        action_type,
        content,
        context,
        rules,
        ..
    } = request;
    let agent_id = match agent_id {
        None => return Err(RequestProblem::Missing("agent_id")),
        Some(s) if !s.trim().is_empty() => s,
        Some(_) => return Err(wrong("agent_id", "a non-empty string")),
    };
    if let Some(name) = context.as_ref().and_then(|c| c.get("tool_name")) {
        match name {
            Value::Null => {}
            Value::String(s) if !s.is_empty() => {}
            _ => return Err(wrong("context.tool_name", "a non-empty string")),
        }
    }
    let check = HostedCheck {
        agent_id,
        action: action_type.or(action),
        content,
        context,
        rules: rules.unwrap_or_default(),
    };
    if check.content.is_none() && check.action.is_none() && check.tool_name().is_none() {
        return Err(RequestProblem::Empty);
    }
    Ok(check)
}

impl HostedCheck {
    fn tool_name(&self) -> Option<&str> {
        self.context.as_ref()?.get("tool_name")?.as_str()
    }
}

/// The `rules` a policy does not have, as a 400 naming them.
fn unknown_rules(rules: &[String], known: impl Fn(&str) -> bool) -> Result<(), RequestProblem> {
    let unknown: Vec<String> = rules
        .iter()
        .filter(|r| !known(r))
        .map(|r| format!("`{r}`"))
        .collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(RequestProblem::UnknownRules(unknown.join(", ")))
    }
}

/// The v1 request a hosted request means (see the module docs).
fn to_check_request(hosted: HostedCheck) -> CheckRequest {
    let mut request = CheckRequest::new();
    request.agent = Some(Agent {
        id: Some(hosted.agent_id.clone()),
        ..Agent::default()
    });
    if let Some(name) = hosted.tool_name() {
        request.stage = Some(Stage::ToolUse);
        request.tool = Some(Tool {
            name: name.to_owned(),
            arguments: hosted.context.clone().map(Value::Object),
            ..Tool::default()
        });
    } else if let Some(operation) = hosted.action {
        request.stage = Some(Stage::Action);
        request.action = Some(Action {
            operation: Some(operation),
            attributes: hosted.context.clone(),
            ..Action::default()
        });
    } else {
        request.stage = Some(Stage::Input);
    }
    request.content = hosted.content;
    request.context = hosted.context;
    if !hosted.rules.is_empty() {
        request.checks = Some(hosted.rules);
    }
    request
}

/// The dialect's four severity levels.
fn severity(s: Severity) -> HostedSeverity {
    match s {
        Severity::Info => HostedSeverity::Info,
        Severity::Low => HostedSeverity::Warning,
        Severity::Medium | Severity::High => HostedSeverity::Error,
        Severity::Critical => HostedSeverity::Critical,
        // A finer level added later reads as the strongest one below it.
        _ => HostedSeverity::Error,
    }
}

fn violation(f: &Finding) -> HostedViolation {
    let message = f
        .message
        .clone()
        .unwrap_or_else(|| format!("rule `{}` triggered", f.check_id));
    let description = match &f.suggestion {
        Some(s) if !s.is_empty() => format!("{message} — {s}"),
        _ => message.clone(),
    };
    HostedViolation {
        rule_id: f.check_id.clone(),
        rule: f.name.clone().unwrap_or_else(|| f.check_id.clone()),
        severity: severity(f.severity),
        message,
        description,
    }
}

/// The hosted answer of a decision, with the tenant's breaker state.
fn to_answer(decision: &Decision, breaker: BreakerState) -> HostedCheckResponse {
    let allowed = decision.decision == DecisionKind::Allow;
    let mut violations: Vec<HostedViolation> = decision
        .violations
        .iter()
        .chain(
            decision
                .warnings
                .iter()
                .filter(|f| f.action != FindingAction::FailOpen),
        )
        .map(violation)
        .collect();
    if !decision.decision.is_allowed() && decision.violations.is_empty() {
        // Blocked without a finding: the circuit breaker (or another
        // decision-level cause) is the rule that triggered.
        let code = decision
            .reason_code
            .as_deref()
            .unwrap_or("guardrail.blocked");
        let (rule_id, rule) = if code == "guardrail.circuit_open" {
            ("circuit_breaker".to_owned(), "circuit breaker".to_owned())
        } else {
            let id = code.strip_prefix("guardrail.").unwrap_or(code).to_owned();
            (id.clone(), id)
        };
        let message = decision
            .message
            .clone()
            .unwrap_or_else(|| format!("blocked: `{code}`"));
        violations.insert(
            0,
            HostedViolation {
                rule_id,
                rule,
                severity: HostedSeverity::Critical,
                description: message.clone(),
                message,
            },
        );
    }
    HostedCheckResponse {
        allowed,
        violations,
        circuit_breaker_status: match breaker {
            BreakerState::Open => BreakerStatus::Open,
            BreakerState::HalfOpen => BreakerStatus::HalfOpen,
            _ => BreakerStatus::Closed,
        },
        evaluated_rules: decision.evaluated.unwrap_or(0),
        evaluation_ms: decision.duration_us.map_or(0.0, |us| us as f64 / 1000.0),
        receipt_id: decision
            .receipt_id
            .clone()
            .unwrap_or_else(|| decision.request_id.clone()),
    }
}

async fn check(
    State(service): State<Arc<Service>>,
    Authorized(caller, ..): Authorized,
    Body(raw): Body,
) -> Result<axum::Json<HostedCheckResponse>, ApiError> {
    let hosted = parse(&raw)?;
    let policy = caller.guard.policy();
    unknown_rules(&hosted.rules, |id| {
        policy.checks().iter().any(|c| c.id == id)
    })?;
    let request = to_check_request(hosted);
    let decision = service.decide(&caller, &request).await?;
    let breaker = service.breaker_state(&caller.tenant);
    Ok(axum::Json(to_answer(&decision, breaker)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_json(v: Value) -> Result<HostedCheck, RequestProblem> {
        parse(v.to_string().as_bytes())
    }

    #[test]
    fn a_tool_name_in_the_context_makes_a_tool_call() {
        let h = parse_json(json!({
            "agent_id": "550e8400-e29b-41d4-a716-446655440000",
            "action": "invoke_tool",
            "context": {"tool_name": "database-query", "query": "SELECT * FROM users"},
            "rules": ["no-wildcard-queries", "pii-access-control"]
        }))
        .unwrap();
        let r = to_check_request(h);
        assert_eq!(r.effective_stage(), Stage::ToolUse);
        let tool = r.tool.as_ref().unwrap();
        assert_eq!(tool.name, "database-query");
        assert_eq!(
            tool.arguments,
            Some(json!({"tool_name": "database-query", "query": "SELECT * FROM users"}))
        );
        assert!(r.action.is_none());
        assert_eq!(
            r.agent.unwrap().id.as_deref(),
            Some("550e8400-e29b-41d4-a716-446655440000")
        );
        assert_eq!(
            r.checks,
            Some(vec![
                "no-wildcard-queries".to_owned(),
                "pii-access-control".to_owned()
            ])
        );
        assert!(r.context.is_some());
    }

    #[test]
    fn content_alone_is_input_and_an_action_type_is_an_action() {
        let r = to_check_request(parse_json(json!({"agent_id": "a", "content": "hi"})).unwrap());
        assert_eq!(r.stage, Some(Stage::Input));
        assert_eq!(r.content.as_deref(), Some("hi"));
        assert!(r.checks.is_none(), "no rules: every check");
        let r = to_check_request(
            parse_json(json!({"agent_id": "a", "content": "hi", "context": {"tool_name": null}}))
                .unwrap(),
        );
        assert_eq!(
            r.stage,
            Some(Stage::Input),
            "a null tool name is no tool name"
        );

        let r = to_check_request(
            parse_json(json!({
                "agent_id": "a", "action": "ignored", "action_type": "send_email",
                "content": "hi", "context": {"user_id": "u1"}, "rules": []
            }))
            .unwrap(),
        );
        assert_eq!(r.stage, Some(Stage::Action));
        let action = r.action.as_ref().unwrap();
        assert_eq!(action.operation.as_deref(), Some("send_email"));
        assert_eq!(action.attributes.as_ref().unwrap()["user_id"], "u1");
        assert_eq!(r.content.as_deref(), Some("hi"), "content is evaluated too");
        assert!(r.checks.is_none());

        let r = to_check_request(
            parse_json(json!({"agent_id": "a", "action": "access_data"})).unwrap(),
        );
        assert_eq!(r.action.unwrap().operation.as_deref(), Some("access_data"));
    }

    #[test]
    fn bad_requests_name_the_field() {
        let cases = [
            (json!({"content": "x"}), "`agent_id` is required"),
            (
                json!({"agent_id": "", "content": "x"}),
                "`agent_id` must be",
            ),
            (json!({"agent_id": 5, "content": "x"}), "`agent_id` must be"),
            (json!({"agent_id": "a", "content": 5}), "`content` must be"),
            (
                json!({"agent_id": "a", "action_type": []}),
                "`action_type` must be",
            ),
            (json!({"agent_id": "a", "action": {}}), "`action` must be"),
            (
                json!({"agent_id": "a", "content": "x", "context": "c"}),
                "`context` must be",
            ),
            (
                json!({"agent_id": "a", "context": {"tool_name": 3}}),
                "`context.tool_name` must be",
            ),
            (
                json!({"agent_id": "a", "content": "x", "rules": "r"}),
                "`rules` must be",
            ),
            (
                json!({"agent_id": "a", "content": "x", "rules": ["r", 1]}),
                "`rules[1]` must be",
            ),
            (
                json!({"agent_id": "a", "context": {}}),
                "nothing to evaluate",
            ),
            (json!([1]), "not a JSON object"),
        ];
        for (body, want) in cases {
            let e = parse_json(body.clone()).unwrap_err().to_string();
            assert!(e.contains(want), "{body}: {e}");
        }
        assert!(
            parse(b"{nope")
                .unwrap_err()
                .to_string()
                .contains("not a JSON object")
        );
    }

    #[test]
    fn unknown_rules_are_named() {
        let known = |id: &str| id == "a";
        assert!(unknown_rules(&["a".to_owned()], known).is_ok());
        let e = unknown_rules(&["a".to_owned(), "b".to_owned(), "c".to_owned()], known)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "`rules` names unknown rule ids `b`, `c`; the policy has no such checks"
        );
    }

    fn finding(id: &str, severity: Severity, action: FindingAction) -> Finding {
        let mut f = Finding::new(id, "blocklist", action)
            .with_message(format!("{id} hit"))
            .with_severity(severity);
        f.suggestion = (id == "b").then(|| "rephrase".to_owned());
        f
    }

    #[test]
    fn decisions_map_to_answers() {
        let mut d = Decision::new("r1", DecisionKind::Block);
        d.violations
            .push(finding("b", Severity::High, FindingAction::Block));
        d.warnings
            .push(finding("w", Severity::Low, FindingAction::Warn));
        d.warnings
            .push(finding("j", Severity::Medium, FindingAction::FailOpen));
        d.evaluated = Some(3);
        d.duration_us = Some(1500);
        d.receipt_id = Some("rc".to_owned());
        let a = to_answer(&d, BreakerState::Closed);
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(
            v,
            json!({
                "allowed": false,
                "violations": [
                    {"rule_id": "b", "rule": "b", "severity": "error", "message": "b hit",
                     "description": "b hit — rephrase"},
                    {"rule_id": "w", "rule": "w", "severity": "warning", "message": "w hit",
                     "description": "w hit"}
                ],
                "circuit_breaker_status": "closed",
                "evaluated_rules": 3,
                "evaluation_ms": 1.5,
                "receipt_id": "rc"
            })
        );

        // A redaction this dialect cannot carry does not let the request through.
        let mut d = Decision::new("r2", DecisionKind::Modify);
        d.warnings
            .push(finding("p", Severity::Critical, FindingAction::Redact));
        let a = to_answer(&d, BreakerState::HalfOpen);
        assert!(!a.allowed);
        assert_eq!(a.violations[0].severity, HostedSeverity::Critical);
        assert_eq!(a.circuit_breaker_status, BreakerStatus::HalfOpen);
        assert_eq!(a.receipt_id, "r2");

        let d = Decision::allow("r3");
        let a = to_answer(&d, BreakerState::Closed);
        assert!(a.allowed && a.violations.is_empty());
    }

    #[test]
    fn an_open_breaker_is_a_violation() {
        let d = Decision::block("r", "guardrail.circuit_open", "the circuit breaker is open");
        let a = to_answer(&d, BreakerState::Open);
        assert!(!a.allowed);
        assert_eq!(a.circuit_breaker_status, BreakerStatus::Open);
        assert_eq!(
            a.violations,
            [HostedViolation {
                rule_id: "circuit_breaker".to_owned(),
                rule: "circuit breaker".to_owned(),
                severity: HostedSeverity::Critical,
                message: "the circuit breaker is open".to_owned(),
                description: "the circuit breaker is open".to_owned(),
            }]
        );
    }

    #[test]
    fn every_severity_has_a_level() {
        let levels: Vec<_> = Severity::ALL.iter().map(|s| severity(*s)).collect();
        let wire: Vec<Value> = levels
            .iter()
            .map(|l| serde_json::to_value(l).unwrap())
            .collect();
        assert_eq!(wire, ["info", "warning", "error", "error", "critical"]);
    }
}
