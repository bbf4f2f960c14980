//! The Guard's side of approvals (SPEC §15): an ask gets an approval; a
//! request that names an approved one, and is the call approved, is let
//! through once; a person's answer is kept and audited.

use palisade_engine::OnFail;
use palisade_protocol::{Decision, DecisionKind, Finding, FindingAction, Severity};

use super::Guard;
use crate::approvals::{
    self, Answer, AnswerError, Approval, ApprovalError, ApprovalState, Taken, bound, now_ms,
};
use crate::audit::{ApprovalRecord, ApprovalUse};

/// What the engine appends to the message of an `ask` finding that became
/// a `block` because the request is not interactive.
const NOT_INTERACTIVE: &str = "no human could be asked";

/// The tenant approvals are kept under when the guard decides for none.
const NO_TENANT: &str = "default";

/// A finding of the approvals (`checkId` and `type` `approval`).
fn finding(action: FindingAction, reason_code: &str, message: String) -> Finding {
    // A note on the decision, not a finding about the call: `info`, or
    // `low` when an approval the caller relied on did not apply.
    let severity = if action == FindingAction::Log {
        Severity::Info
    } else {
        Severity::Low
    };
    let mut f = Finding::new("approval", "approval", action)
        .with_message(message)
        .with_severity(severity);
    f.reason_code = reason_code.to_owned();
    f
}

impl Guard {
    /// Whether this guard keeps approvals.
    pub fn keeps_approvals(&self) -> bool {
        self.approvals.is_some()
    }

    /// Whether a violation is a check asking for a person: `ask`, or an
    /// `ask` that became `block` because no human could be asked.
    fn asks_for_a_person(&self, f: &Finding) -> bool {
        match f.action {
            FindingAction::Ask => true,
            FindingAction::Block => {
                f.message
                    .as_deref()
                    .is_some_and(|m| m.contains(NOT_INTERACTIVE))
                    && self
                        .engine
                        .policy()
                        .checks()
                        .iter()
                        .any(|c| c.id == f.check_id && c.on_fail == OnFail::Ask)
            }
            _ => false,
        }
    }

    /// Whether the decision is one a person can answer: an `ask`, or a
    /// `block` every violation of which is an `ask` no human could be asked
    /// about.
    fn awaits_a_person(&self, decision: &Decision) -> bool {
        match decision.decision {
            DecisionKind::Ask => true,
            DecisionKind::Block => {
                !decision.violations.is_empty()
                    && decision
                        .violations
                        .iter()
                        .all(|f| self.asks_for_a_person(f))
            }
            _ => false,
        }
    }

    /// Applies the approval the request names (or, with
    /// `options.approvalByCall`, one approved for this very call), then
    /// gives a decision that still awaits a person a new approval. The
    /// approval used or tried, for the audit record.
    pub(super) async fn approve(
        &self,
        tenant: Option<&str>,
        key: Option<&str>,
        request: &palisade_protocol::CheckRequest,
        decision: &mut Decision,
    ) -> Option<ApprovalUse> {
        let by_call = request
            .options
            .as_ref()
            .and_then(|o| o.approval_by_call)
            .unwrap_or(false);
        let Some(approvals) = &self.approvals else {
            if let Some(id) = &request.approval_id {
                decision.warnings.push(finding(
                    FindingAction::Warn,
                    "approval.unavailable",
                    format!("approval `{id}` does not apply: this service keeps no approvals"),
                ));
            }
            return None;
        };
        let awaits = self.awaits_a_person(decision);
        if !awaits && request.approval_id.is_none() {
            // Most decisions: nothing asked, no approval named.
            return None;
        }
        let tenant = tenant.unwrap_or(NO_TENANT);
        let receipt = decision
            .receipt_id
            .get_or_insert_with(|| uuid::Uuid::now_v7().to_string())
            .clone();
        let now = now_ms();
        let bound = bound(tenant, request);
        let named = match &request.approval_id {
            Some(id) => Some(id.clone()),
            None if by_call && awaits => match approvals.store.find(tenant, &bound, now).await {
                Ok(found) => found,
                Err(e) => {
                    tracing::warn!("{e}");
                    None
                }
            },
            None => None,
        };
        let mut used = None;
        if let Some(id) = named {
            let refused = |reason: &str, message: String, decision: &mut Decision| {
                decision
                    .warnings
                    .push(finding(FindingAction::Warn, reason, message));
                ApprovalUse {
                    id: id.clone(),
                    result: reason.to_owned(),
                    origin: None,
                }
            };
            if !awaits {
                let (reason, message) = match decision
                    .violations
                    .iter()
                    .find(|f| !self.asks_for_a_person(f))
                {
                    Some(f) => (
                        "approval.blocked",
                        format!(
                            "approval `{id}` does not apply: an approval answers checks that ask for a person, and check `{}` blocks this call",
                            f.check_id
                        ),
                    ),
                    None => (
                        "approval.not_needed",
                        format!("approval `{id}` was not used: the call is allowed without it"),
                    ),
                };
                let tried = refused(reason, message, decision);
                if reason == "approval.not_needed"
                    && let Some(f) = decision.warnings.last_mut()
                {
                    // Advice, not a warning: nothing was refused.
                    f.action = FindingAction::Log;
                    f.severity = Severity::Info;
                }
                return Some(tried);
            }
            if decision
                .warnings
                .iter()
                .any(|f| f.action == FindingAction::Redact)
            {
                used = Some(refused(
                    "approval.redaction",
                    format!(
                        "approval `{id}` does not apply: the call also has text to redact, which an approval cannot let through"
                    ),
                    decision,
                ));
            } else {
                match approvals
                    .store
                    .take(tenant, &id, &bound, &receipt, now)
                    .await
                {
                    Ok(Taken::Used(a)) => {
                        apply(decision, &a);
                        return Some(ApprovalUse {
                            id: id.clone(),
                            result: "used".to_owned(),
                            origin: Some(a.receipt_id),
                        });
                    }
                    Ok(Taken::Refused(r)) => {
                        used = Some(refused(r.reason_code(), r.message(&id), decision));
                    }
                    Err(e) => {
                        used = Some(refused(
                            "approval.unavailable",
                            format!("approval `{id}` could not be read: {e}"),
                            decision,
                        ));
                    }
                }
            }
        }
        if awaits {
            self.ask(
                approvals, tenant, key, request, decision, bound, receipt, now,
            )
            .await;
        }
        used
    }

    /// Keeps a new approval for a decision that awaits a person and puts
    /// it in the decision; a store that fails leaves a warning instead.
    #[expect(clippy::too_many_arguments, reason = "one call site, every part named")]
    async fn ask(
        &self,
        approvals: &super::Approvals,
        tenant: &str,
        key: Option<&str>,
        request: &palisade_protocol::CheckRequest,
        decision: &mut Decision,
        bound: String,
        receipt: String,
        now: u64,
    ) {
        let mut checks: Vec<String> = Vec::new();
        for f in &decision.violations {
            if !checks.contains(&f.check_id) {
                checks.push(f.check_id.clone());
            }
        }
        let approval = Approval {
            id: uuid::Uuid::now_v7().to_string(),
            tenant: tenant.to_owned(),
            bound,
            state: ApprovalState::Pending,
            created_ms: now,
            expires_ms: now.saturating_add(approvals.ttl_ms),
            receipt_id: receipt,
            request_id: decision.request_id.clone(),
            stage: request.effective_stage(),
            tool: request.tool.as_ref().map(|t| t.name.clone()),
            session_id: request.session_id.clone(),
            agent: request
                .agent
                .as_ref()
                .and_then(|a| a.id.clone().or_else(|| a.name.clone())),
            checks,
            message: decision.message.clone(),
            requested_by: key.map(str::to_owned),
            answered_by: None,
            answered_ms: None,
            note: None,
            used_receipt: None,
        };
        match approvals.store.create(&approval).await {
            Ok(()) => {
                decision.approval = Some(palisade_protocol::Approval {
                    expires_at: approvals::rfc3339(approval.expires_ms),
                    bound: approval.bound,
                    url: match &approvals.base_url {
                        Some(base) => format!("{base}{}", approvals::url(&approval.id)),
                        None => approvals::url(&approval.id),
                    },
                    id: approval.id,
                });
            }
            Err(e) => decision.warnings.push(finding(
                FindingAction::Warn,
                "approval.unavailable",
                format!("no approval could be kept for this call: {e}"),
            )),
        }
    }

    /// A person's answer to an approval of `tenant`, by the API key
    /// `answer.by`, which may not be the key that sent the call; kept,
    /// then written to the audit log (linked to the ask's receipt).
    pub async fn answer_approval(
        &self,
        tenant: &str,
        id: &str,
        answer: &Answer,
    ) -> Result<Approval, AnswerError> {
        let Some(approvals) = &self.approvals else {
            return Err(AnswerError::Store(ApprovalError(
                "this service keeps no approvals".to_owned(),
            )));
        };
        let Some(existing) = approvals.store.get(tenant, id).await? else {
            return Err(AnswerError::Unknown(id.to_owned()));
        };
        if answer.by.is_some() && existing.requested_by == answer.by {
            return Err(AnswerError::OwnCall {
                id: id.to_owned(),
                key: answer.by.clone().unwrap_or_default(),
            });
        }
        let answered = approvals.store.answer(tenant, id, answer, now_ms()).await?;
        if let Some(sink) = &self.audit {
            sink.record_approval(answered_record(&answered))
                .await
                .map_err(AnswerError::Audit)?;
        }
        Ok(answered)
    }

    /// The approvals of `tenant` that have not expired, oldest first.
    pub async fn approvals(&self, tenant: &str) -> Result<Vec<Approval>, ApprovalError> {
        match &self.approvals {
            Some(a) => a.store.list(tenant, now_ms()).await,
            None => Err(ApprovalError("this service keeps no approvals".to_owned())),
        }
    }
}

/// Lets a decision that awaited a person through: its violations become
/// `log` warnings, and a finding says which approval allowed it.
fn apply(decision: &mut Decision, a: &Approval) {
    for mut f in std::mem::take(&mut decision.violations) {
        f.action = FindingAction::Log;
        decision.warnings.push(f);
    }
    decision.set_kind(DecisionKind::Allow);
    decision.replacement = None;
    let by = a
        .answered_by
        .as_deref()
        .map(|b| format!(" by `{b}`"))
        .unwrap_or_default();
    let message = format!(
        "allowed once: approval `{}` was given{by} for this call",
        a.id
    );
    decision.reason_code = Some("approval.applied".to_owned());
    decision.message = Some(message.clone());
    decision
        .warnings
        .push(finding(FindingAction::Log, "approval.applied", message));
}

/// The audit record of an answered approval, at the current time: a
/// record of its own, linked to the receipt of the decision that asked.
fn answered_record(approval: &Approval) -> ApprovalRecord {
    let approved = approval.state != ApprovalState::Denied;
    ApprovalRecord {
        time: humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
        receipt_id: uuid::Uuid::now_v7().to_string(),
        tenant: approval.tenant.clone(),
        event: if approved {
            "approval.approved"
        } else {
            "approval.denied"
        }
        .to_owned(),
        approval: approval.id.clone(),
        origin: approval.receipt_id.clone(),
        request_id: approval.request_id.clone(),
        bound: approval.bound.clone(),
        by: approval.answered_by.clone(),
        note: approval.note.clone(),
    }
}
