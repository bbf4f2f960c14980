//! CSTP's `cstp.checkGuardrails` (SPEC §6): its params as a v1 `action`
//! request, and a v1 decision as its result.
//!
//! Both directions are pure functions so that every transport speaking CSTP
//! (JSON-RPC, MCP's `check_action`) maps it the same way.

use palisade_protocol::{Action, Agent, CheckRequest, Decision, Finding, Stage, Stakes};
use serde::Serialize;
use serde_json::Value;

/// Params that do not make a CSTP request; `field` is CSTP's dotted name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{field}` {message}")]
pub(crate) struct InvalidParams {
    /// The offending field, such as `action.description`.
    pub(crate) field: &'static str,
    /// What is wrong with it.
    pub(crate) message: String,
}

fn invalid(field: &'static str, message: impl Into<String>) -> InvalidParams {
    InvalidParams {
        field,
        message: message.into(),
    }
}

/// The v1 request a `cstp.checkGuardrails` call asks about: a stage `action`
/// request whose action carries the description, category, stakes and
/// confidence, whose `context` is the CSTP action's context and whose agent
/// is the calling agent. `request_id` (the call's id) becomes the request id
/// so that the audit record can be found from the call. Unknown fields are
/// ignored.
pub(crate) fn request(
    params: Option<&Value>,
    request_id: Option<String>,
) -> Result<CheckRequest, InvalidParams> {
    let params = match params {
        Some(Value::Object(p)) => p,
        None => return Err(invalid("action", "is required")),
        Some(_) => {
            return Err(invalid(
                "params",
                "must be an object with `action` and `agent`",
            ));
        }
    };
    let action = match params.get("action") {
        Some(Value::Object(a)) => a,
        None | Some(Value::Null) => return Err(invalid("action", "is required")),
        Some(_) => return Err(invalid("action", "must be an object")),
    };
    let description = match action.get("description") {
        Some(Value::String(d)) if !d.trim().is_empty() => d.clone(),
        Some(Value::String(_)) => return Err(invalid("action.description", "must not be empty")),
        None | Some(Value::Null) => {
            return Err(invalid(
                "action.description",
                "is required: say what the agent wants to do",
            ));
        }
        Some(_) => return Err(invalid("action.description", "must be a string")),
    };
    let category = optional_string(action.get("category"), "action.category")?;
    let stakes = match action.get("stakes") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(Stakes::from_wire(s).ok_or_else(|| {
            invalid(
                "action.stakes",
                format!("must be one of {}, not `{s}`", wire_names(Stakes::ALL)),
            )
        })?),
        Some(_) => return Err(invalid("action.stakes", "must be a string")),
    };
    let confidence = match action.get("confidence") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(c) if (0.0..=1.0).contains(&c) => Some(c),
            _ => return Err(invalid("action.confidence", "must be between 0 and 1")),
        },
        Some(_) => return Err(invalid("action.confidence", "must be a number")),
    };
    let context = match action.get("context") {
        None | Some(Value::Null) => None,
        Some(Value::Object(c)) => Some(c.clone()),
        Some(_) => return Err(invalid("action.context", "must be an object")),
    };
    let agent = match params.get("agent") {
        None | Some(Value::Null) => None,
        Some(Value::Object(a)) => {
            let id = optional_string(a.get("id"), "agent.id")?;
            let url = optional_string(a.get("url"), "agent.url")?;
            (id.is_some() || url.is_some()).then(|| Agent {
                id,
                url,
                ..Agent::default()
            })
        }
        Some(_) => return Err(invalid("agent", "must be an object")),
    };
    Ok(CheckRequest {
        request_id,
        stage: Some(Stage::Action),
        agent,
        action: Some(Action {
            description: Some(description),
            category,
            stakes,
            confidence,
            ..Action::default()
        }),
        context,
        ..CheckRequest::default()
    })
}

fn optional_string(
    value: Option<&Value>,
    field: &'static str,
) -> Result<Option<String>, InvalidParams> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(invalid(field, "must be a string")),
    }
}

fn wire_names(all: &[Stakes]) -> String {
    all.iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The result of `cstp.checkGuardrails`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CheckResult {
    /// Whether the action may proceed.
    pub(crate) allowed: bool,
    /// The guardrails that block the action.
    pub(crate) violations: Vec<Entry>,
    /// The guardrails that only warn.
    pub(crate) warnings: Vec<Entry>,
    /// How many guardrails were evaluated.
    pub(crate) evaluated: u32,
    /// When (RFC 3339, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) evaluated_at: Option<String>,
    /// The answering agent: `palisade`.
    pub(crate) agent: String,
}

/// One guardrail's finding in CSTP's terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Entry {
    /// The check's id.
    pub(crate) guardrail_id: String,
    /// The check's name, else its id.
    pub(crate) name: String,
    /// Why it matched.
    pub(crate) message: String,
    /// `block` for violations, `warn` for warnings.
    pub(crate) severity: &'static str,
    /// How to resolve it; omitted when the check has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) suggestion: Option<String>,
}

/// A v1 decision as CSTP's result. Violations (`block`, and `ask` which no
/// CSTP caller can answer) become `severity: "block"`; every warning (warn,
/// log, redact, failed-open checks) becomes `severity: "warn"`. A decision
/// that is not allowed yet has no violation (a block made by the service
/// rather than by a check) gets one from its own reason, so that a CSTP
/// caller always learns why.
pub(crate) fn result(decision: &Decision) -> CheckResult {
    let mut violations: Vec<Entry> = decision
        .violations
        .iter()
        .map(|f| entry(f, "block"))
        .collect();
    if !decision.allowed && violations.is_empty() {
        let reason = decision
            .reason_code
            .clone()
            .unwrap_or_else(|| "guardrail.blocked".to_owned());
        violations.push(Entry {
            name: reason.clone(),
            message: decision
                .message
                .clone()
                .unwrap_or_else(|| "the action is not allowed".to_owned()),
            guardrail_id: reason,
            severity: "block",
            suggestion: None,
        });
    }
    CheckResult {
        allowed: decision.allowed,
        violations,
        warnings: decision.warnings.iter().map(|f| entry(f, "warn")).collect(),
        evaluated: decision.evaluated.unwrap_or(0),
        evaluated_at: decision.evaluated_at.clone(),
        agent: decision
            .provider
            .as_ref()
            .map_or_else(|| "palisade".to_owned(), |p| p.id.clone()),
    }
}

fn entry(finding: &Finding, severity: &'static str) -> Entry {
    Entry {
        guardrail_id: finding.check_id.clone(),
        name: finding
            .name
            .clone()
            .unwrap_or_else(|| finding.check_id.clone()),
        message: finding
            .message
            .clone()
            .unwrap_or_else(|| finding.reason_code.clone()),
        severity,
        suggestion: finding.suggestion.clone(),
    }
}

#[cfg(test)]
mod tests {
    use palisade_protocol::{DecisionKind, FindingAction, Provider};
    use serde_json::json;

    use super::*;

    fn seed_params() -> Value {
        json!({
            "action": {
                "description": "Deploy authentication service to production",
                "category": "architecture",
                "stakes": "high",
                "confidence": 0.85,
                "context": {"affectsProduction": true, "codeReviewCompleted": true}
            },
            "agent": {"id": "emerson", "url": "https://emerson.example.com"}
        })
    }

    #[test]
    fn the_seed_params_make_an_action_request() {
        let r = request(Some(&seed_params()), Some("req-001".into())).unwrap();
        assert_eq!(r.request_id.as_deref(), Some("req-001"));
        assert_eq!(r.stage, Some(Stage::Action));
        let action = r.action.as_ref().unwrap();
        assert_eq!(
            action.description.as_deref(),
            Some("Deploy authentication service to production")
        );
        assert_eq!(action.category.as_deref(), Some("architecture"));
        assert_eq!(action.stakes, Some(Stakes::High));
        assert_eq!(action.confidence, Some(0.85));
        assert_eq!(
            r.context.as_ref().unwrap()["affectsProduction"],
            json!(true)
        );
        let agent = r.agent.as_ref().unwrap();
        assert_eq!(agent.id.as_deref(), Some("emerson"));
        assert_eq!(agent.url.as_deref(), Some("https://emerson.example.com"));
        assert!(r.validate().is_ok());
    }

    #[test]
    fn only_the_description_is_required() {
        let r = request(Some(&json!({"action": {"description": "x"}})), None).unwrap();
        assert_eq!(r.action.unwrap().stakes(), Stakes::Medium);
        assert!(r.agent.is_none() && r.context.is_none() && r.request_id.is_none());
    }

    #[test]
    fn bad_params_name_the_field() {
        let cases = [
            (json!({}), "action"),
            (json!([1]), "params"),
            (json!({"action": "deploy"}), "action"),
            (json!({"action": {}}), "action.description"),
            (json!({"action": {"description": ""}}), "action.description"),
            (
                json!({"action": {"description": "  "}}),
                "action.description",
            ),
            (json!({"action": {"description": 3}}), "action.description"),
            (
                json!({"action": {"description": "x", "stakes": "huge"}}),
                "action.stakes",
            ),
            (
                json!({"action": {"description": "x", "confidence": 1.5}}),
                "action.confidence",
            ),
            (
                json!({"action": {"description": "x", "confidence": "high"}}),
                "action.confidence",
            ),
            (
                json!({"action": {"description": "x", "context": []}}),
                "action.context",
            ),
            (
                json!({"action": {"description": "x", "category": 1}}),
                "action.category",
            ),
            (json!({"action": {"description": "x"}, "agent": 1}), "agent"),
            (
                json!({"action": {"description": "x"}, "agent": {"id": 1}}),
                "agent.id",
            ),
        ];
        for (params, field) in cases {
            let e = request(Some(&params), None).unwrap_err();
            assert_eq!(e.field, field, "{params}");
            assert!(e.to_string().starts_with(&format!("`{field}`")), "{e}");
        }
        assert_eq!(request(None, None).unwrap_err().field, "action");
    }

    fn finding(id: &str, action: FindingAction) -> Finding {
        let mut f = Finding::new(id, "condition", action).with_message(format!("{id} hit"));
        f.name = Some(format!("{id} name"));
        f
    }

    #[test]
    fn a_decision_becomes_the_seed_result_shape() {
        let mut d = Decision::new("r", DecisionKind::Block);
        d.violations.push(Finding {
            suggestion: Some("fix it".into()),
            ..finding("v", FindingAction::Block)
        });
        d.warnings.push(finding("w", FindingAction::Warn));
        d.warnings.push(finding("l", FindingAction::Log));
        d.evaluated = Some(4);
        d.evaluated_at = Some("2026-02-04T21:00:00Z".into());
        d.provider = Some(Provider::palisade());
        let value = serde_json::to_value(result(&d)).unwrap();
        assert_eq!(
            value,
            json!({
                "allowed": false,
                "violations": [{"guardrailId": "v", "name": "v name", "message": "v hit",
                                "severity": "block", "suggestion": "fix it"}],
                "warnings": [
                    {"guardrailId": "w", "name": "w name", "message": "w hit", "severity": "warn"},
                    {"guardrailId": "l", "name": "l name", "message": "l hit", "severity": "warn"}
                ],
                "evaluated": 4,
                "evaluatedAt": "2026-02-04T21:00:00Z",
                "agent": "palisade"
            })
        );
    }

    #[test]
    fn a_block_without_findings_still_says_why() {
        let d = Decision::block("r", "guardrail.circuit_open", "too many blocks");
        let r = result(&d);
        assert!(!r.allowed);
        assert_eq!(r.violations.len(), 1);
        assert_eq!(r.violations[0].guardrail_id, "guardrail.circuit_open");
        assert_eq!(r.violations[0].message, "too many blocks");
        let allowed = result(&Decision::allow("r"));
        assert!(allowed.allowed && allowed.violations.is_empty());
        assert_eq!(allowed.agent, "palisade");
        assert_eq!(allowed.evaluated, 0);
    }
}
