//! The v1 decision: Palisade's answer, with the findings that explain it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{DecisionKind, FindingAction, Mode, PROTOCOL_VERSION, Severity, Stage};

/// The answer to a [`CheckRequest`](crate::CheckRequest).
///
/// A superset of pi's `GuardrailsDecisionV1`. `violations` and `warnings` are
/// always serialized; other absent fields are omitted, never `null`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", from = "DecisionIn")]
pub struct Decision {
    /// Always `"1"`.
    pub protocol_version: String,
    /// The request's id (or the one generated for it).
    pub request_id: String,
    /// The answer.
    pub decision: DecisionKind,
    /// True exactly when `decision` is `allow` or `modify`. On input it is
    /// always derived from `decision` (pi decisions do not carry it, and a
    /// contradictory value is not trusted).
    pub allowed: bool,
    /// Machine-readable reason: the first violation's, or the decision's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<String>,
    /// Human-readable reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Findings whose effective action is `block` or `ask`.
    #[serde(default)]
    pub violations: Vec<Finding>,
    /// Warnings, logs, redactions, advisory downgrades and async checks that failed open.
    #[serde(default)]
    pub warnings: Vec<Finding>,
    /// Text to show instead of blocked output or a blocked tool call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    /// With `modify`: the payload with every redacted span replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<Modified>,
    /// How many checks were evaluated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluated: Option<u32>,
    /// When the decision was made (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluated_at: Option<String>,
    /// Evaluation time in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_us: Option<u64>,
    /// The policy mode the decision was made in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Who answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<Provider>,
    /// The id of the audit record for this decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt_id: Option<String>,
    /// On a streamed check: true on the decision that closes the stream.
    #[serde(default, rename = "final", skip_serializing_if = "Option::is_none")]
    pub is_final: Option<bool>,
    /// With an `ask` — or a `block` only because no human could be asked —
    /// of a service that keeps approvals: the approval a person can give
    /// for this exact call (SPEC §15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<Approval>,
}

/// An approval waiting for a person: the same call sent again with
/// `approvalId` set to `id` is allowed once after it is approved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Approval {
    /// The approval's id.
    pub id: String,
    /// When it can no longer be approved nor used (RFC 3339, UTC).
    pub expires_at: String,
    /// Lowercase hex SHA-256 of what it is bound to: the tenant, stage,
    /// session, tool name and canonical arguments, or the action (see
    /// PROTOCOL.md, "Approvals").
    pub bound: String,
    /// Where it is answered: `POST` `{"decision": "approve"}` or
    /// `{"decision": "deny"}` to this path of the service.
    pub url: String,
}

/// One check's hit, or an async check's failure to answer.
///
/// A finding never carries the matched text itself: it may be a secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The check's id.
    pub check_id: String,
    /// The check's human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The check's type, such as `regex` or `secrets`.
    #[serde(rename = "type")]
    pub check_type: String,
    /// How serious the finding is.
    #[serde(default)]
    pub severity: Severity,
    /// What the finding did to the decision.
    pub action: FindingAction,
    /// `guardrail.<type>`, or a cause such as `guardrail.check_failed`.
    pub reason_code: String,
    /// Human-readable explanation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// How to resolve it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Where in the request the finding was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// For a session flow check: the earlier step of the session that the
    /// flagged value came from (never the value itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

/// An earlier step of the same session: the request that brought a value
/// into the session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// That request's id.
    pub request_id: String,
    /// Its stage.
    pub stage: Stage,
    /// Its tool's name, when it had a tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// A place in the request: a JSON pointer and, for text, a byte span.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// JSON pointer into the request, such as `/tool/arguments/query`.
    pub field: String,
    /// Byte offset where the match starts in that string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<usize>,
    /// Byte offset just past the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<usize>,
}

/// The request's payload with every redacted span replaced by its placeholder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Modified {
    /// The redacted `content`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The redacted `tool.arguments`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// The redacted `tool.output`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

/// Who answered a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Provider {
    /// The provider's id, `palisade` for this implementation.
    pub id: String,
    /// The provider's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The input form of [`Decision`]: `allowed` may be absent.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
struct DecisionIn {
    protocol_version: String,
    request_id: String,
    decision: DecisionKind,
    #[serde(default, rename = "allowed")]
    _allowed: Option<bool>,
    #[serde(default)]
    reason_code: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    violations: Vec<Finding>,
    #[serde(default)]
    warnings: Vec<Finding>,
    #[serde(default)]
    replacement: Option<String>,
    #[serde(default)]
    modified: Option<Modified>,
    #[serde(default)]
    evaluated: Option<u32>,
    #[serde(default)]
    evaluated_at: Option<String>,
    #[serde(default)]
    duration_us: Option<u64>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    provider: Option<Provider>,
    #[serde(default)]
    receipt_id: Option<String>,
    #[serde(default, rename = "final")]
    is_final: Option<bool>,
    #[serde(default)]
    approval: Option<Approval>,
}

impl From<DecisionIn> for Decision {
    fn from(d: DecisionIn) -> Self {
        Self {
            protocol_version: d.protocol_version,
            request_id: d.request_id,
            decision: d.decision,
            allowed: d.decision.is_allowed(),
            reason_code: d.reason_code,
            message: d.message,
            violations: d.violations,
            warnings: d.warnings,
            replacement: d.replacement,
            modified: d.modified,
            evaluated: d.evaluated,
            evaluated_at: d.evaluated_at,
            duration_us: d.duration_us,
            mode: d.mode,
            provider: d.provider,
            receipt_id: d.receipt_id,
            is_final: d.is_final,
            approval: d.approval,
        }
    }
}

impl Decision {
    /// A decision of the given kind with no findings; `allowed` follows the kind.
    pub fn new(request_id: impl Into<String>, kind: DecisionKind) -> Self {
        Self {
            protocol_version: PROTOCOL_VERSION.to_owned(),
            request_id: request_id.into(),
            decision: kind,
            allowed: kind.is_allowed(),
            reason_code: None,
            message: None,
            violations: Vec::new(),
            warnings: Vec::new(),
            replacement: None,
            modified: None,
            evaluated: None,
            evaluated_at: None,
            duration_us: None,
            mode: None,
            provider: None,
            receipt_id: None,
            is_final: None,
            approval: None,
        }
    }

    /// An `allow` decision with no findings.
    pub fn allow(request_id: impl Into<String>) -> Self {
        Self::new(request_id, DecisionKind::Allow)
    }

    /// A `block` decision with a reason.
    pub fn block(
        request_id: impl Into<String>,
        reason_code: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::new(request_id, DecisionKind::Block).with_reason(reason_code, message)
    }

    /// An `error` decision (for transports without another error channel).
    pub fn error(
        request_id: impl Into<String>,
        reason_code: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::new(request_id, DecisionKind::Error).with_reason(reason_code, message)
    }

    /// Sets `reasonCode` and `message`.
    pub fn with_reason(
        mut self,
        reason_code: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self.reason_code = Some(reason_code.into());
        self.message = Some(message.into());
        self
    }

    /// Changes the kind, keeping `allowed` consistent with it.
    pub fn set_kind(&mut self, kind: DecisionKind) {
        self.decision = kind;
        self.allowed = kind.is_allowed();
    }

    /// Every finding, violations first.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.violations.iter().chain(self.warnings.iter())
    }
}

impl Finding {
    /// A finding of a check with the given effective action; `reasonCode` is
    /// `guardrail.<type>`.
    pub fn new(
        check_id: impl Into<String>,
        check_type: impl Into<String>,
        action: FindingAction,
    ) -> Self {
        let check_type = check_type.into();
        Self {
            check_id: check_id.into(),
            name: None,
            reason_code: format!("guardrail.{check_type}"),
            check_type,
            severity: Severity::default(),
            action,
            message: None,
            suggestion: None,
            location: None,
            source: None,
        }
    }

    /// Sets the message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// Sets the severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Sets the location.
    pub fn with_location(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }
}

impl Location {
    /// A location naming a whole field.
    pub fn field(pointer: impl Into<String>) -> Self {
        Self {
            field: pointer.into(),
            start: None,
            end: None,
        }
    }

    /// A byte span inside a string field.
    pub fn span(pointer: impl Into<String>, start: usize, end: usize) -> Self {
        Self {
            field: pointer.into(),
            start: Some(start),
            end: Some(end),
        }
    }
}

impl Provider {
    /// This implementation: `palisade` with the crate's version.
    pub fn palisade() -> Self {
        Self {
            id: "palisade".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }
    }
}
