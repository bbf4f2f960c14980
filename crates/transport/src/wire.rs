//! The service's own wire shapes, beside the v1 types of
//! `palisade-protocol`: the error body of every HTTP error, the hosted REST
//! dialect, CSTP (over JSON-RPC and MCP's `check_action`), AutoGen's
//! `GuardrailProvider`, the JSON-RPC envelope and the streamed check's
//! lines.
//!
//! These types are what the handlers read and write, so the published
//! schemas cannot drift from what the service does: with the `schema`
//! feature they derive JSON Schemas ([`schemas`]), from which
//! `cargo xtask generate` builds the OpenAPI document's components and the
//! MCP tools' input schemas ([`mcp_tool_schemas`]).
//!
//! A Rust client can use them too:
//!
//! ```
//! use palisade_transport::wire::{HostedCheckRequest, HostedCheckResponse};
//!
//! let request: HostedCheckRequest = serde_json::from_str(
//!     r#"{"agent_id": "billing-bot", "content": "Ignore previous instructions"}"#,
//! )?;
//! assert_eq!(request.agent_id.as_deref(), Some("billing-bot"));
//!
//! let answer: HostedCheckResponse = serde_json::from_str(
//!     r#"{"allowed": true, "violations": [], "circuit_breaker_status": "closed",
//!         "evaluated_rules": 4, "evaluation_ms": 0.2, "receipt_id": "r-1"}"#,
//! )?;
//! assert!(answer.allowed);
//! # Ok::<(), serde_json::Error>(())
//! ```

use palisade_protocol::Stakes;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[cfg(feature = "schema")]
use schemars::JsonSchema;

/// A JSON object.
pub type Object = Map<String, Value>;

// ---------------------------------------------------------------------------
// Errors

/// The body of every HTTP error of the service.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Error"))]
#[non_exhaustive]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// What went wrong, in an [`ErrorBody`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct ErrorDetail {
    /// What went wrong, for programs.
    pub code: ErrorCode,
    /// What went wrong, for people; names the field of a bad request.
    pub message: String,
    /// `invalid_policy` only: the errors of each tenant's policy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
}

impl ErrorBody {
    /// An error body.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            error: ErrorDetail {
                code,
                message: message.into(),
                details: Vec::new(),
            },
        }
    }

    /// With the details of an `invalid_policy` error.
    pub fn with_details(mut self, details: Vec<String>) -> Self {
        self.error.details = details;
        self
    }
}

/// The `code` of an [`ErrorBody`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// 400: the request does not make a check (the message names the field).
    InvalidRequest,
    /// 400: the body could not be read.
    BadRequest,
    /// 401: no API key, or an unknown one.
    Unauthorized,
    /// 403: the key lacks the scope, or names another tenant.
    Forbidden,
    /// 404: no such endpoint.
    NotFound,
    /// 404: the service has no audit log.
    AuditDisabled,
    /// 405: the endpoint does not take that method.
    MethodNotAllowed,
    /// 406: MCP: the `Accept` header does not allow JSON.
    NotAcceptable,
    /// 413: the body is over `limits.max_body_bytes`.
    PayloadTooLarge,
    /// 415: MCP: the body is not `application/json`.
    UnsupportedMediaType,
    /// 422: a reloaded policy is invalid; the running ones are kept.
    InvalidPolicy,
    /// 429: over the agent's rate limit (see `Retry-After`).
    RateLimited,
    /// 503: the audit record could not be written, so no decision is answered.
    AuditUnavailable,
    /// 404: no approval of that id for the caller's tenant.
    ApprovalNotFound,
    /// 409: the approval was answered already, used, or has expired.
    ApprovalNotPending,
    /// 503: the approvals cannot be read or written (their file or Redis).
    ApprovalsUnavailable,
    /// 500: the MCP server failed.
    Internal,
    /// Another refusal of the MCP server.
    McpRejected,
}

// ---------------------------------------------------------------------------
// Operations

/// The answer of `GET /health` and `GET /healthz`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Health {
    /// `ok`.
    pub status: String,
}

/// The answer of `POST /v1/admin/reload`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Reloaded {
    /// `true`.
    pub reloaded: bool,
    /// How many tenants' policies were reloaded.
    pub tenants: usize,
}

/// The answer of `GET /v1/audit`: the caller's tenant's last audit records,
/// oldest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct AuditPage {
    /// The tenant.
    pub tenant: String,
    /// Its records, as written to the log (members in alphabetical order).
    pub records: Vec<Object>,
}

/// The body of `POST /v1/approvals/{id}`: a person's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ApprovalAnswer {
    /// `approve` or `deny`.
    pub decision: ApprovalDecision,
    /// Why, for the audit log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = 2000)))]
    pub note: Option<String>,
}

/// A person's answer to an approval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ApprovalDecision {
    /// Let the same call through, once.
    Approve,
    /// Do not.
    Deny,
}

/// One approval, as `GET /v1/approvals` and `POST /v1/approvals/{id}`
/// show it (never the call's arguments: it may hold secrets).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ApprovalView {
    /// Its id.
    pub id: String,
    /// `pending`, `approved`, `denied` or `used`.
    pub state: String,
    /// The tenant.
    pub tenant: String,
    /// What it is bound to (lowercase hex SHA-256).
    pub bound: String,
    /// When it was asked for (RFC 3339).
    pub created_at: String,
    /// When it expires (RFC 3339).
    pub expires_at: String,
    /// The receipt id of the decision that asked.
    pub receipt_id: String,
    /// That request's id.
    pub request_id: String,
    /// Its stage.
    pub stage: palisade_protocol::Stage,
    /// Its tool's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Its session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Its agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The checks that asked.
    pub checks: Vec<String>,
    /// The decision's message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The API key that sent the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_by: Option<String>,
    /// The API key that answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
    /// When it was answered (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_at: Option<String>,
    /// The note given with the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The receipt id of the decision that used it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_receipt: Option<String>,
}

impl From<&palisade_checks::approvals::Approval> for ApprovalView {
    fn from(a: &palisade_checks::approvals::Approval) -> Self {
        use palisade_checks::approvals::rfc3339;
        ApprovalView {
            id: a.id.clone(),
            state: a.state.as_str().to_owned(),
            tenant: a.tenant.clone(),
            bound: a.bound.clone(),
            created_at: rfc3339(a.created_ms),
            expires_at: rfc3339(a.expires_ms),
            receipt_id: a.receipt_id.clone(),
            request_id: a.request_id.clone(),
            stage: a.stage,
            tool: a.tool.clone(),
            session_id: a.session_id.clone(),
            agent: a.agent.clone(),
            checks: a.checks.clone(),
            message: a.message.clone(),
            requested_by: a.requested_by.clone(),
            answered_by: a.answered_by.clone(),
            answered_at: a.answered_ms.map(rfc3339),
            note: a.note.clone(),
            used_receipt: a.used_receipt.clone(),
        }
    }
}

/// The answer of `GET /v1/approvals`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct ApprovalList {
    /// The caller's tenant.
    pub tenant: String,
    /// Its approvals in that state (all not expired without `state`),
    /// oldest first.
    pub approvals: Vec<ApprovalView>,
}

/// The answer of `GET /v1/policy`: the policy in force for the caller's
/// tenant, as the file it was loaded from says it, and its checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PolicyView {
    /// The tenant.
    pub tenant: String,
    /// Where the policy comes from: `file` or `embedded default`.
    pub origin: String,
    /// The policy's format: `yaml` or `json`.
    pub format: String,
    /// The policy's text as loaded, comments included.
    pub text: String,
    /// Its checks, in policy order.
    pub checks: Vec<PolicyCheck>,
}

/// One check of a [`PolicyView`], in the policy's own spelling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PolicyCheck {
    /// The check's id.
    pub id: String,
    /// Its name, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its type (`regex`, `secrets`, `command`, …).
    #[serde(rename = "type")]
    pub check_type: String,
    /// The stages it runs at.
    pub stages: Vec<String>,
    /// What a hit does (`block`, `redact`, `ask`, `warn`, …).
    pub on_fail: String,
    /// How serious a hit is.
    pub severity: String,
    /// Whether it runs at all.
    pub enabled: bool,
}

/// A line after the first of `POST /v1/check/stream`: more of the model's
/// answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct StreamDelta {
    /// The next piece of text.
    pub delta: String,
}

// ---------------------------------------------------------------------------
// The hosted REST dialect

/// The hosted REST dialect's request (`POST /v1/guardrails/check`). At least
/// one of `content`, `action_type` (or `action`) and `context.tool_name` is
/// needed. Unknown fields are ignored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct HostedCheckRequest {
    /// The agent; rate limits apply per agent.
    #[cfg_attr(
        feature = "schema",
        schemars(required, length(min = 1), pattern(r"\S"))
    )]
    pub agent_id: Option<String>,
    /// The action's operation, when `action_type` is absent.
    #[serde(default)]
    pub action: Option<String>,
    /// The action's operation.
    #[serde(default)]
    pub action_type: Option<String>,
    /// Text evaluated at every stage; alone, an `input` check.
    #[serde(default)]
    pub content: Option<String>,
    /// The request context: with a `tool_name` (a non-empty string) the
    /// arguments of that tool's call, else the action's attributes.
    #[serde(default)]
    pub context: Option<Object>,
    /// The check ids to evaluate; empty or absent: every check.
    #[serde(default)]
    pub rules: Option<Vec<String>>,
}

/// The hosted REST dialect's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct HostedCheckResponse {
    /// False when a violation blocks, and when the decision would redact.
    pub allowed: bool,
    /// Every rule that triggered: the blocking ones first, then the advisory
    /// ones.
    pub violations: Vec<HostedViolation>,
    /// The tenant's circuit breaker after the decision.
    pub circuit_breaker_status: BreakerStatus,
    /// How many checks were evaluated.
    pub evaluated_rules: u32,
    /// The evaluation's duration in milliseconds.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub evaluation_ms: f64,
    /// The audit record's id.
    pub receipt_id: String,
}

/// One triggered rule of a [`HostedCheckResponse`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct HostedViolation {
    /// The check id (`circuit_breaker` for an open breaker).
    pub rule_id: String,
    /// The check's name, else its id.
    pub rule: String,
    /// The dialect's severity of the check.
    pub severity: HostedSeverity,
    /// The finding's message.
    pub message: String,
    /// The message followed by the check's suggestion, when it has one.
    pub description: String,
}

/// The hosted dialect's four severity levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HostedSeverity {
    /// A check of severity `info`.
    Info,
    /// `low`.
    Warning,
    /// `medium` and `high`.
    Error,
    /// `critical`, and an open circuit breaker.
    Critical,
}

/// A tenant's circuit breaker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BreakerStatus {
    /// Requests are decided normally.
    Closed,
    /// Every request is blocked until the cool-down ends.
    Open,
    /// The cool-down ended: requests are decided as probes.
    HalfOpen,
}

// ---------------------------------------------------------------------------
// CSTP

/// The params of `cstp.checkGuardrails`: the action the agent intends and
/// the agent. Unknown fields are ignored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CstpCheckParams {
    /// The intended action.
    #[cfg_attr(feature = "schema", schemars(required))]
    pub action: Option<CstpAction>,
    /// The calling agent.
    #[serde(default)]
    pub agent: Option<CstpAgent>,
}

/// The action of a CSTP check.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CstpAction {
    /// What the agent wants to do.
    #[cfg_attr(
        feature = "schema",
        schemars(required, length(min = 1), pattern(r"\S"))
    )]
    pub description: Option<String>,
    /// The decision's category.
    #[serde(default)]
    pub category: Option<String>,
    /// What is at stake (default `medium`).
    #[serde(default)]
    pub stakes: Option<Stakes>,
    /// The agent's confidence, from 0 to 1.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(range(min = 0, max = 1)))]
    pub confidence: Option<f64>,
    /// Facts for the evaluation (`affectsProduction`, `codeReviewCompleted`,
    /// …); the v1 request's context.
    #[serde(default)]
    pub context: Option<Object>,
}

/// The agent of a CSTP check.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CstpAgent {
    /// The agent's id.
    #[serde(default)]
    pub id: Option<String>,
    /// The agent's URL.
    #[serde(default)]
    pub url: Option<String>,
}

// The members are `CstpAction`'s, spelled out rather than flattened so
// that an error names the member it is about.
/// The arguments of the MCP tool `check_action`: a CSTP action's members
/// with its agent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CheckActionArguments {
    /// What the agent wants to do.
    #[cfg_attr(
        feature = "schema",
        schemars(required, length(min = 1), pattern(r"\S"))
    )]
    pub description: Option<String>,
    /// The decision's category.
    #[serde(default)]
    pub category: Option<String>,
    /// What is at stake (default `medium`).
    #[serde(default)]
    pub stakes: Option<Stakes>,
    /// The agent's confidence, from 0 to 1.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(range(min = 0, max = 1)))]
    pub confidence: Option<f64>,
    /// Facts for the evaluation (`affectsProduction`, `codeReviewCompleted`,
    /// …); the v1 request's context.
    #[serde(default)]
    pub context: Option<Object>,
    /// The calling agent.
    #[serde(default)]
    pub agent: Option<CstpAgent>,
}

impl CheckActionArguments {
    /// The CSTP action and the agent.
    pub fn into_parts(self) -> (CstpAction, Option<CstpAgent>) {
        let Self {
            description,
            category,
            stakes,
            confidence,
            context,
            agent,
        } = self;
        (
            CstpAction {
                description,
                category,
                stakes,
                confidence,
                context,
            },
            agent,
        )
    }
}

/// The result of `cstp.checkGuardrails` (and of MCP's `check_action`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CstpCheckResult {
    /// Whether the action may proceed.
    pub allowed: bool,
    /// The guardrails that block the action.
    pub violations: Vec<CstpEntry>,
    /// The guardrails that only warn.
    pub warnings: Vec<CstpEntry>,
    /// How many guardrails were evaluated.
    pub evaluated: u32,
    /// When (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub evaluated_at: Option<String>,
    /// The answering agent: `palisade`.
    pub agent: String,
}

/// One guardrail's finding in CSTP's terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CstpEntry {
    /// The check's id.
    pub guardrail_id: String,
    /// The check's name, else its id.
    pub name: String,
    /// Why it matched.
    pub message: String,
    /// `block` for violations, `warn` for warnings.
    pub severity: CstpSeverity,
    /// How to resolve it; omitted when the check has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// A CSTP entry's severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CstpSeverity {
    /// The action must not proceed.
    Block,
    /// The action may proceed; the agent should know.
    Warn,
}

// ---------------------------------------------------------------------------
// AutoGen

/// The arguments of AutoGen's `GuardrailProvider.evaluate`
/// (`POST /v1/autogen/evaluate`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct AutogenEvaluate {
    /// The tool being invoked.
    pub tool_name: String,
    /// Its arguments.
    #[serde(default)]
    pub args: Object,
    /// The calling agent, if known.
    #[serde(default)]
    pub agent_name: Option<String>,
    /// The tool call's correlation id (also the request id).
    #[serde(default)]
    pub call_id: Option<String>,
}

/// AutoGen's `GuardrailResult`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct AutogenResult {
    /// What AutoGen should do with the call.
    pub decision: AutogenDecision,
    /// Why, for `deny` and `modify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The arguments to run the tool with instead, for `modify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified_args: Option<Value>,
    /// Audit trail: `receiptId`, `requestId`, `checkIds`.
    pub metadata: Object,
}

/// An [`AutogenResult`]'s decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AutogenDecision {
    /// Run the call as it is.
    Allow,
    /// Do not run it.
    Deny,
    /// Run it with `modified_args`.
    Modify,
}

// ---------------------------------------------------------------------------
// JSON-RPC 2.0

/// A JSON-RPC answer: a result or an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct JsonRpcResponse {
    /// `2.0`.
    pub jsonrpc: JsonRpcVersion,
    /// The call's id (null when it could not be read).
    #[cfg_attr(feature = "schema", schemars(schema_with = "schema::id"))]
    pub id: Value,
    /// The Decision (`guardrails.check`) or the CSTP result
    /// (`cstp.checkGuardrails`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "schema::result"))]
    pub result: Option<Value>,
    /// Why the call has no result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonRpcError>,
}

/// The version member of JSON-RPC messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub enum JsonRpcVersion {
    /// `2.0`, the only one.
    #[default]
    #[serde(rename = "2.0")]
    V2,
}

/// A JSON-RPC error object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct JsonRpcError {
    /// -32700 parse error, -32600 invalid request, -32601 unknown method,
    /// -32602 invalid params, -32603 internal error, -32002 rate limited,
    /// -32004 evaluation failed (no audit record).
    #[cfg_attr(
        feature = "schema",
        schemars(extend("enum" = [-32700, -32600, -32601, -32602, -32603, -32002, -32004]))
    )]
    pub code: i64,
    /// What went wrong.
    pub message: String,
    /// The field of -32602, the wait of -32002.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<JsonRpcErrorData>,
}

/// The `data` of a [`JsonRpcError`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct JsonRpcErrorData {
    /// -32602: the field, a JSON pointer into the params (v1) or CSTP's
    /// dotted name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// -32002: seconds until the rate limit lets a call through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_secs: Option<u64>,
}

/// Schemas of the members whose Rust type is looser than their wire shape.
#[cfg(feature = "schema")]
mod schema {
    use schemars::{Schema, SchemaGenerator, json_schema};

    /// A JSON-RPC id.
    pub(super) fn id(_: &mut SchemaGenerator) -> Schema {
        // `oneOf`, so that the answers' null-stripping keeps the null.
        json_schema!({
            "description": "The call's id (null when it could not be read).",
            "oneOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]
        })
    }

    /// A JSON-RPC result: a v1 Decision or a CSTP result.
    pub(super) fn result(generator: &mut SchemaGenerator) -> Schema {
        let decision = generator.subschema_for::<palisade_protocol::Decision>();
        let cstp = generator.subschema_for::<super::CstpCheckResult>();
        json_schema!({
            "description": "The Decision (`guardrails.check`) or the CSTP result (`cstp.checkGuardrails`).",
            "oneOf": [decision, cstp]
        })
    }
}

/// The JSON Schemas (draft 2020-12) of the wire types, by component name,
/// every `$ref` pointing at `#/components/schemas/<name>`: the request
/// shapes as the service reads them, the answers as it writes them (a
/// member skipped when absent is never `null`). The v1 types they refer to
/// (`CheckRequest`, `Decision`, `Stakes`, …) are among them.
#[cfg(feature = "schema")]
pub fn schemas() -> Map<String, Value> {
    use schemars::generate::SchemaSettings;

    let settings = |s: SchemaSettings| {
        let mut s = s;
        s.definitions_path = "/components/schemas".into();
        s
    };
    let mut out = Map::new();
    let mut read = settings(SchemaSettings::draft2020_12().for_deserialize()).into_generator();
    read.subschema_for::<HostedCheckRequest>();
    read.subschema_for::<CstpCheckParams>();
    read.subschema_for::<CheckActionArguments>();
    read.subschema_for::<AutogenEvaluate>();
    read.subschema_for::<StreamDelta>();
    read.subschema_for::<ApprovalAnswer>();
    out.extend(read.take_definitions(true));
    let mut write = settings(SchemaSettings::draft2020_12().for_serialize()).into_generator();
    write.subschema_for::<ErrorBody>();
    write.subschema_for::<Health>();
    write.subschema_for::<Reloaded>();
    write.subschema_for::<AuditPage>();
    write.subschema_for::<ApprovalView>();
    write.subschema_for::<ApprovalList>();
    write.subschema_for::<PolicyView>();
    write.subschema_for::<HostedCheckResponse>();
    write.subschema_for::<CstpCheckResult>();
    write.subschema_for::<AutogenResult>();
    write.subschema_for::<JsonRpcResponse>();
    for (name, mut schema) in write.take_definitions(true) {
        // What is skipped when absent is never written as null.
        palisade_protocol::schema::strip_null(&mut schema);
        out.insert(name, schema);
    }
    out
}

/// The input schemas of the MCP tools, by tool name: `check` takes a v1
/// CheckRequest, `check_action` a [`CheckActionArguments`]. Each is whole,
/// with every definition inlined (tool-calling models read those best) and
/// without `null` alternatives (absent is how a tool call leaves a member
/// out).
#[cfg(feature = "schema")]
pub fn mcp_tool_schemas() -> Map<String, Value> {
    use schemars::generate::SchemaSettings;

    let generator = || {
        let mut settings = SchemaSettings::draft2020_12().for_deserialize();
        settings.inline_subschemas = true;
        settings.into_generator()
    };
    let mut out = Map::new();
    for (name, schema) in [
        (
            "check",
            generator().into_root_schema_for::<palisade_protocol::CheckRequest>(),
        ),
        (
            "check_action",
            generator().into_root_schema_for::<CheckActionArguments>(),
        ),
    ] {
        let mut value = schema.to_value();
        palisade_protocol::schema::strip_null(&mut value);
        plain_enums(&mut value);
        if let Some(obj) = value.as_object_mut() {
            obj.remove("$schema");
        }
        out.insert(name.to_owned(), value);
    }
    out
}

/// Turns a `oneOf` of string constants into a string `enum`, and drops
/// `"default": null`, everywhere in a schema.
#[cfg(feature = "schema")]
fn plain_enums(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            if obj.get("default") == Some(&Value::Null) {
                obj.remove("default");
            }
            let constants: Option<Vec<Value>> = match obj.get("oneOf") {
                Some(Value::Array(alts)) => alts
                    .iter()
                    .map(|a| match a.get("const") {
                        Some(c @ Value::String(_)) => Some(c.clone()),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            };
            if let Some(constants) = constants {
                obj.remove("oneOf");
                obj.insert("type".into(), Value::from("string"));
                obj.insert("enum".into(), Value::Array(constants));
            }
            obj.values_mut().for_each(plain_enums);
        }
        Value::Array(items) => items.iter_mut().for_each(plain_enums),
        _ => {}
    }
}
