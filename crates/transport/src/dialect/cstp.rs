//! CSTP's `cstp.checkGuardrails` (SPEC §6): its params as a v1 `action`
//! request, and a v1 decision as its result.
//!
//! Both directions are pure functions so that every transport speaking CSTP
//! (JSON-RPC, MCP's `check_action`) maps it the same way.

use palisade_protocol::{Action, Agent, CheckRequest, Decision, Finding, Stage, Stakes};
use serde_json::Value;

use crate::wire::{CstpAction, CstpAgent, CstpCheckResult, CstpEntry, CstpSeverity};

/// Params that do not make a CSTP request; `field` is CSTP's dotted name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{field}` {message}")]
pub(crate) struct InvalidParams {
    /// The offending field, such as `action.description`.
    pub(crate) field: String,
    /// What is wrong with it.
    pub(crate) message: String,
}

fn invalid(field: impl Into<String>, message: impl Into<String>) -> InvalidParams {
    InvalidParams {
        field: field.into(),
        message: message.into(),
    }
}

/// Reads `T` from a JSON value; a member of the wrong type is named by its
/// dotted path (`prefix` before it) with what it must be.
pub(crate) fn read<T: serde::de::DeserializeOwned>(
    value: &Value,
    prefix: &str,
) -> Result<T, InvalidParams> {
    // A struct would also be read from an array of its members' values:
    // only objects make them.
    let not_object = |field: &str| {
        let field = if field.is_empty() { "params" } else { field };
        let message = if field == "params" {
            "must be an object with `action` and `agent`"
        } else {
            "must be an object"
        };
        invalid(field, message)
    };
    let Value::Object(members) = value else {
        return Err(not_object(prefix.trim_end_matches('.')));
    };
    for nested in ["action", "agent"] {
        if let Some(v) = members.get(nested)
            && !(v.is_object() || v.is_null())
        {
            return Err(not_object(&format!("{prefix}{nested}")));
        }
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            prefix.trim_end_matches('.').to_owned()
        } else {
            format!("{prefix}{path}")
        };
        let leaf = field.rsplit('.').next().unwrap_or_default();
        let message = match leaf {
            "" => "must be an object with `action` and `agent`".to_owned(),
            "action" | "context" | "agent" => "must be an object".to_owned(),
            "stakes" => format!("must be one of {}", wire_names(Stakes::ALL)),
            "confidence" => "must be a number between 0 and 1".to_owned(),
            _ => "must be a string".to_owned(),
        };
        invalid(if field.is_empty() { "params" } else { &field }, message)
    })
}

/// The v1 request a `cstp.checkGuardrails` call asks about: a stage `action`
/// request whose action carries the description, category, stakes and
/// confidence, whose `context` is the CSTP action's context and whose agent
/// is the calling agent. `request_id` (the call's id) becomes the request id
/// so that the audit record can be found from the call. Unknown fields are
/// ignored.
#[cfg(feature = "jsonrpc")]
pub(crate) fn request(
    params: Option<&Value>,
    request_id: Option<String>,
) -> Result<CheckRequest, InvalidParams> {
    let Some(params) = params else {
        return Err(invalid("action", "is required"));
    };
    let params: crate::wire::CstpCheckParams = read(params, "")?;
    let action = params
        .action
        .ok_or_else(|| invalid("action", "is required"))?;
    action_request(action, params.agent, request_id, "action.")
}

/// The v1 request of a CSTP action and agent (the `check_action` tool's
/// arguments too); errors name the field with `prefix` before the action's
/// members.
pub(crate) fn action_request(
    action: CstpAction,
    agent: Option<CstpAgent>,
    request_id: Option<String>,
    prefix: &str,
) -> Result<CheckRequest, InvalidParams> {
    let CstpAction {
        description,
        category,
        stakes,
        confidence,
        context,
        ..
    } = action;
    let description = match description {
        Some(d) if !d.trim().is_empty() => d,
        Some(_) => return Err(invalid(format!("{prefix}description"), "must not be empty")),
        None => {
            return Err(invalid(
                format!("{prefix}description"),
                "is required: say what the agent wants to do",
            ));
        }
    };
    if let Some(c) = confidence
        && !(0.0..=1.0).contains(&c)
    {
        return Err(invalid(
            format!("{prefix}confidence"),
            "must be between 0 and 1",
        ));
    }
    let agent = agent.and_then(|CstpAgent { id, url, .. }| {
        (id.is_some() || url.is_some()).then(|| Agent {
            id,
            url,
            ..Agent::default()
        })
    });
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

fn wire_names(all: &[Stakes]) -> String {
    all.iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A v1 decision as CSTP's result. Violations (`block`, and `ask` which no
/// CSTP caller can answer) become `severity: "block"`; every warning (warn,
/// log, redact, failed-open checks) becomes `severity: "warn"`. A decision
/// that is not allowed yet has no violation (a block made by the service
/// rather than by a check) gets one from its own reason, so that a CSTP
/// caller always learns why.
pub(crate) fn result(decision: &Decision) -> CstpCheckResult {
    let mut violations: Vec<CstpEntry> = decision
        .violations
        .iter()
        .map(|f| entry(f, CstpSeverity::Block))
        .collect();
    if !decision.allowed && violations.is_empty() {
        let reason = decision
            .reason_code
            .clone()
            .unwrap_or_else(|| "guardrail.blocked".to_owned());
        violations.push(CstpEntry {
            name: reason.clone(),
            message: decision
                .message
                .clone()
                .unwrap_or_else(|| "the action is not allowed".to_owned()),
            guardrail_id: reason,
            severity: CstpSeverity::Block,
            suggestion: None,
        });
    }
    CstpCheckResult {
        allowed: decision.allowed,
        violations,
        // CSTP's warnings are guardrails that matched; a condition that
        // could not be evaluated is a note about the policy, not one of
        // them (the v1 decision, the audit log and the metrics keep it).
        warnings: decision
            .warnings
            .iter()
            .filter(|f| f.reason_code != "policy.condition_error")
            .map(|f| entry(f, CstpSeverity::Warn))
            .collect(),
        evaluated: decision.evaluated.unwrap_or(0),
        evaluated_at: decision.evaluated_at.clone(),
        agent: decision
            .provider
            .as_ref()
            .map_or_else(|| "palisade".to_owned(), |p| p.id.clone()),
    }
}

fn entry(finding: &Finding, severity: CstpSeverity) -> CstpEntry {
    CstpEntry {
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
