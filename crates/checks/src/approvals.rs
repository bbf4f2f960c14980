//! Approvals bound to the exact call (SPEC §15): an `ask` becomes an
//! approval a person answers, and the same call sent again with its id is
//! allowed once.
//!
//! An approval is bound to a digest ([`bound`]) of the tenant, the stage,
//! the session, the tool's name and canonical arguments (or the action, or
//! the text), and the context members that change what a path means
//! (`cwd`, `workspaceRoot`, `home`). The [`Guard`](crate::Guard) makes one
//! for every `ask` — and every `block` that is only an `ask` no human could
//! be asked about — and applies one to a request that carries its id,
//! before the decision is audited: so the audit log says what was asked,
//! approved and used, each record linked to the ask's receipt.
//!
//! Where approvals are kept is an [`ApprovalStore`]: [`LocalApprovals`]
//! (this process's memory, and a journal file that survives a restart) or
//! the service's Redis store, shared by replicas.

mod local;

pub use local::LocalApprovals;

use palisade_protocol::canonical::canonical_json;
use palisade_protocol::{CheckRequest, Stage};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The context members that change what a call does (a relative path's
/// meaning) and so are part of what an approval is bound to.
const BOUND_CONTEXT: &[&str] = &["cwd", "home", "workspaceRoot"];

/// The digest an approval is bound to: lowercase hex SHA-256 of the
/// canonical JSON ([`canonical_json`]) of
/// `{"v": 1, "tenant", "stage", "session", "tool", "arguments", "action",
/// "content", "output", "error", "context"}`, where `tool` is the tool's
/// name, `arguments` its arguments (stages `tool_use` and `tool_output`),
/// `action` the action (stage `action`), `content` the text (every stage
/// but `tool_use` and `action`), `output` and `error` the tool's result
/// (stage `tool_output`), `context` the request's `cwd`, `home` and
/// `workspaceRoot`; a member the request does not have is `null`.
pub fn bound(tenant: &str, request: &CheckRequest) -> String {
    let stage = request.effective_stage();
    let tool = request.tool.as_ref();
    let mut context = Map::new();
    if let Some(c) = &request.context {
        for name in BOUND_CONTEXT {
            if let Some(v) = c.get(*name) {
                context.insert((*name).to_owned(), v.clone());
            }
        }
    }
    let arguments = match stage {
        Stage::ToolUse | Stage::ToolOutput => tool.and_then(|t| t.arguments.clone()),
        _ => None,
    };
    let action = match stage {
        Stage::Action => request
            .action
            .as_ref()
            .and_then(|a| serde_json::to_value(a).ok()),
        _ => None,
    };
    let content = match stage {
        Stage::ToolUse | Stage::Action => None,
        _ => request.content.clone(),
    };
    let (output, error) = match stage {
        Stage::ToolOutput => (
            tool.and_then(|t| t.output.clone()),
            tool.and_then(|t| t.error.clone()),
        ),
        _ => (None, None),
    };
    let subject = serde_json::json!({
        "v": 1,
        "tenant": tenant,
        "stage": stage.as_str(),
        "session": request.session_id,
        "tool": tool.map(|t| t.name.as_str()),
        "arguments": arguments,
        "action": action,
        "content": content,
        "output": output,
        "error": error,
        "context": Value::Object(context),
    });
    hex::encode(Sha256::digest(canonical_json(&subject).as_bytes()))
}

/// Where an approval stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ApprovalState {
    /// Waiting for a person.
    Pending,
    /// Approved: the call may be sent again, once.
    Approved,
    /// Denied.
    Denied,
    /// Approved and used.
    Used,
}

impl ApprovalState {
    /// The state's name: `pending`, `approved`, `denied`, `used`.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalState::Pending => "pending",
            ApprovalState::Approved => "approved",
            ApprovalState::Denied => "denied",
            ApprovalState::Used => "used",
        }
    }

    /// The state named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "pending" => ApprovalState::Pending,
            "approved" => ApprovalState::Approved,
            "denied" => ApprovalState::Denied,
            "used" => ApprovalState::Used,
            _ => return None,
        })
    }
}

/// One approval as a store keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Approval {
    /// Its id.
    pub id: String,
    /// The tenant whose call it is.
    pub tenant: String,
    /// What it is bound to ([`bound`]).
    pub bound: String,
    /// Where it stands.
    pub state: ApprovalState,
    /// When it was made (ms since the Unix epoch).
    pub created_ms: u64,
    /// When it can no longer be answered nor used (ms since the Unix epoch).
    pub expires_ms: u64,
    /// The receipt id of the decision that asked.
    pub receipt_id: String,
    /// That request's id.
    pub request_id: String,
    /// Its stage.
    pub stage: Stage,
    /// Its tool's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Its session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The agent it was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The ids of the checks that asked.
    pub checks: Vec<String>,
    /// The decision's message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The API key that sent the call (it cannot approve it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_by: Option<String>,
    /// The API key that answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
    /// When it was answered (ms since the Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_ms: Option<u64>,
    /// The note given with the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The receipt id of the decision that used it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_receipt: Option<String>,
}

impl Approval {
    /// Whether it has expired at `now_ms`.
    pub fn expired(&self, now_ms: u64) -> bool {
        now_ms >= self.expires_ms
    }
}

/// A person's answer to an approval.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Answer {
    /// Approve (else deny).
    pub approve: bool,
    /// The answering API key's id.
    pub by: Option<String>,
    /// A note.
    pub note: Option<String>,
}

impl Answer {
    /// An answer: `approve` or deny, by a key, with a note.
    pub fn new(approve: bool, by: Option<String>, note: Option<String>) -> Self {
        Answer { approve, by, note }
    }
}

/// Why an approval did not let a call through (each the reasonCode
/// `approval.<name>` of the finding that says so).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// No approval of that id for the tenant.
    Unknown,
    /// Nobody has answered it yet.
    Pending,
    /// It was denied.
    Denied,
    /// It was used already.
    Used,
    /// It has expired.
    Expired,
    /// The call is not the one approved.
    Mismatch,
}

impl Refusal {
    /// The finding's reasonCode.
    pub fn reason_code(self) -> &'static str {
        match self {
            Refusal::Unknown => "approval.unknown",
            Refusal::Pending => "approval.pending",
            Refusal::Denied => "approval.denied",
            Refusal::Used => "approval.used",
            Refusal::Expired => "approval.expired",
            Refusal::Mismatch => "approval.mismatch",
        }
    }

    fn says(self) -> &'static str {
        match self {
            Refusal::Unknown => "this tenant has no approval of that id (it may have expired)",
            Refusal::Pending => "nobody has approved it yet",
            Refusal::Denied => "it was denied",
            Refusal::Used => "it was used already: an approval lets its call through once",
            Refusal::Expired => "it has expired",
            Refusal::Mismatch => {
                "this call is not the one approved (another tool, argument, action, session or working directory)"
            }
        }
    }

    /// What the finding says.
    pub fn message(self, id: &str) -> String {
        format!("approval `{id}` does not apply: {}", self.says())
    }
}

/// What taking an approval for a call did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Taken {
    /// It was approved for this call and is now used (as it was before).
    Used(Box<Approval>),
    /// It does not apply; it is left as it was.
    Refused(Refusal),
}

/// Why an answer was not taken.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// No approval of that id for the tenant.
    #[error("no approval `{0}` for this tenant")]
    Unknown(String),
    /// It was answered already, or used, or it expired.
    #[error("approval `{id}` is {state}, no longer pending")]
    NotPending {
        /// Its id.
        id: String,
        /// `approved`, `denied`, `used` or `expired`.
        state: &'static str,
    },
    /// The key answering is the one that sent the call.
    #[error(
        "the API key `{key}` sent the call of approval `{id}`, so it cannot answer it; an approver's key must"
    )]
    OwnCall {
        /// The approval's id.
        id: String,
        /// The key's id.
        key: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] ApprovalError),
    /// The answer is kept, but its audit record could not be written.
    #[error("the audit record could not be written: {0}")]
    Audit(crate::audit::AuditError),
}

/// The approvals store failed (unreachable, a file that cannot be written).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("approvals unavailable: {0}")]
pub struct ApprovalError(pub String);

/// Where approvals are kept. Every operation is atomic: two replicas
/// taking one approval at once, one of them gets it.
#[async_trait::async_trait]
pub trait ApprovalStore: Send + Sync + std::fmt::Debug + 'static {
    /// Keeps a new (pending) approval until it expires.
    async fn create(&self, approval: &Approval) -> Result<(), ApprovalError>;

    /// The approval `id` of `tenant`, as it stands (expired ones may be
    /// gone).
    async fn get(&self, tenant: &str, id: &str) -> Result<Option<Approval>, ApprovalError>;

    /// Answers a pending approval that has not expired at `now_ms`: the
    /// approval as answered.
    async fn answer(
        &self,
        tenant: &str,
        id: &str,
        answer: &Answer,
        now_ms: u64,
    ) -> Result<Approval, AnswerError>;

    /// Takes an approved approval for a call bound to `bound`, at
    /// `now_ms`, for the decision with receipt `receipt`: it is then used.
    async fn take(
        &self,
        tenant: &str,
        id: &str,
        bound: &str,
        receipt: &str,
        now_ms: u64,
    ) -> Result<Taken, ApprovalError>;

    /// Every approval of `tenant` not yet expired at `now_ms`, oldest
    /// first.
    async fn list(&self, tenant: &str, now_ms: u64) -> Result<Vec<Approval>, ApprovalError>;

    /// The id of an approved, unused, unexpired approval of `tenant`
    /// bound to `bound` (for hosts that cannot send the id again).
    async fn find(
        &self,
        tenant: &str,
        bound: &str,
        now_ms: u64,
    ) -> Result<Option<String>, ApprovalError>;
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// RFC 3339 (UTC, milliseconds) of a time in ms since the Unix epoch.
pub fn rfc3339(ms: u64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    humantime::format_rfc3339_millis(t).to_string()
}

/// Where a person approves a refused call, and that the same call then
/// passes (once): what a caller that cannot ask tells the agent (hooks of
/// Codex, Gemini CLI and Copilot CLI, the MCP gateway without
/// elicitation). It begins with `. `, to follow the refusal's reason.
pub fn hint(a: &palisade_protocol::Approval) -> String {
    // An absolute `url` (the hook asked a service at a known address)
    // names the service for the command too.
    let server = a
        .url
        .strip_suffix(&format!("/v1/approvals/{}", a.id))
        .filter(|base| base.starts_with("http://") || base.starts_with("https://"))
        .map(|base| format!(" --server {base}"))
        .unwrap_or_default();
    format!(
        ". To allow this exact call once, a person with an approver's key runs `palisade approvals approve {}{server}` (or POSTs {{\"decision\": \"approve\"}} to {}) before {}; then retry the same call and it will pass",
        a.id, a.url, a.expires_at
    )
}

/// The path an approval is answered at.
pub fn url(id: &str) -> String {
    format!("/v1/approvals/{id}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use palisade_protocol::{Action, ResourceKind};

    fn call(arguments: &str) -> CheckRequest {
        CheckRequest::tool_use("bash", serde_json::from_str(arguments).unwrap())
            .with_session_id("s1")
            .with_context("cwd", "/repo")
    }

    #[test]
    fn the_same_call_written_differently_is_bound_alike() {
        let a = bound(
            "acme",
            &call(r#"{"command": "rm -rf build", "timeout": 10, "opts": {"a": 1, "b": [1.0]}}"#),
        );
        let b = bound(
            "acme",
            &call(r#"{"opts": {"b": [1e0], "a": 1.0}, "timeout": 1e1, "command": "rm -rf build"}"#),
        );
        assert_eq!(a, b);
        assert_eq!(a.len(), 64);
        // Other fields of the request do not matter.
        let mut c =
            call(r#"{"command": "rm -rf build", "timeout": 10, "opts": {"a": 1, "b": [1]}}"#);
        c.request_id = Some("another".into());
        c.approval_id = Some("x".into());
        c.content = Some("why".into());
        c = c.with_context("reason", "anything").interactive(true);
        assert_eq!(bound("acme", &c), a);
    }

    #[test]
    fn anything_else_is_another_call() {
        let base = bound("acme", &call(r#"{"command": "rm -rf build"}"#));
        let others = [
            bound("other", &call(r#"{"command": "rm -rf build"}"#)),
            bound("acme", &call(r#"{"command": "rm -rf build "}"#)),
            bound("acme", &call(r#"{"command": "rm -rf build", "x": null}"#)),
            bound("acme", &call(r#"{"command": ["rm -rf build"]}"#)),
            bound(
                "acme",
                &call(r#"{"command": "rm -rf build"}"#).with_session_id("s2"),
            ),
            bound(
                "acme",
                &call(r#"{"command": "rm -rf build"}"#).with_context("cwd", "/"),
            ),
            bound("acme", &{
                let mut r = call(r#"{"command": "rm -rf build"}"#);
                r.session_id = None;
                r
            }),
            bound("acme", &{
                let mut r = call(r#"{"command": "rm -rf build"}"#);
                r.tool.as_mut().unwrap().name = "sh".into();
                r
            }),
            bound(
                "acme",
                &call(r#"{"command": "rm -rf build"}"#).with_stage(Stage::ToolOutput),
            ),
        ];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(other, &base, "variant {i}");
        }
    }

    #[test]
    fn an_action_is_bound_by_its_canonical_form() {
        let a = CheckRequest::action(
            Action::new("write", ResourceKind::File)
                .with_target("/etc/hosts")
                .with_confidence(0.5),
        );
        let b: CheckRequest = serde_json::from_str(
            r#"{"stage": "action", "action": {"targets": [{"uri": "/etc/hosts"}], "confidence": 5e-1,
                "resource": {"kind": "file"}, "operation": "write"}}"#,
        )
        .unwrap();
        assert_eq!(bound("t", &a), bound("t", &b));
        let c = CheckRequest::action(
            Action::new("write", ResourceKind::File)
                .with_target("/etc/passwd")
                .with_confidence(0.5),
        );
        assert_ne!(bound("t", &a), bound("t", &c));
    }
}
