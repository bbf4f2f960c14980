"""Approvals through the Guard, against a real `palisade serve`: the
service's approval parsed, answered with the approver's key, and the same
call sent again under it passing once."""

from __future__ import annotations

import asyncio

import pytest

from palisade_guardrails import (
    Approval,
    ApprovalError,
    ApprovalForbidden,
    ApprovalNotFound,
    ApprovalNotPending,
    CheckRequest,
    Decision,
    DecisionKind,
    Guard,
)

from conftest import BOT_KEY

DEPLOY = {"service": "api", "replicas": 3}


def deploy(args=DEPLOY, **kw) -> CheckRequest:
    return CheckRequest.tool_use("deploy", dict(args), session_id="s-7", **kw)


def reason_codes(d: Decision) -> list[str]:
    return [f.reason_code for f in d.warnings if f.type == "approval"]


def test_decisions_with_and_without_an_approval_parse():
    old = Decision.from_json({"requestId": "r", "decision": "ask", "allowed": False})
    assert old.approval is None
    d = Decision.from_json({"requestId": "r", "decision": "ask", "allowed": False,
                            "approval": {"id": "a-1", "expiresAt": "2026-11-28T12:15:00.000Z",
                                         "bound": "ab" * 32, "url": "/v1/approvals/a-1"}})
    assert d.approval == Approval("a-1", "2026-11-28T12:15:00.000Z", "ab" * 32, "/v1/approvals/a-1")


def test_an_approved_call_passes_once_and_the_audit_log_links_it(service):
    guard = service.guard()
    d = guard.check(deploy())
    assert d.decision is DecisionKind.BLOCK and d.approval is not None
    assert d.approval.url == f"/v1/approvals/{d.approval.id}" and len(d.approval.bound) == 64
    assert guard.approval_url(d.approval) == f"{service.url}/v1/approvals/{d.approval.id}"
    hint = guard.explain(d)
    assert f"palisade approvals approve {d.approval.id} --server {service.url}" in hint
    pending = guard.approvals()
    assert [a["id"] for a in pending] == [d.approval.id]
    assert pending[0]["tool"] == "deploy" and pending[0]["requestedBy"] == "bot"
    answered = guard.approve(d.approval.id, note="release 4.2")
    assert answered["state"] == "approved" and answered["answeredBy"] == "lead"
    assert guard.approvals() == [] and len(guard.approvals(state="approved")) == 1
    # The same call, its members in another order and 3.0 for 3: passes once.
    again = guard.check(deploy({"replicas": 3.0, "service": "api"}, approval_id=d.approval.id))
    assert again.decision is DecisionKind.ALLOW and again.reason_code == "approval.applied"
    once_more = guard.check(deploy(approval_id=d.approval.id))
    assert once_more.decision is DecisionKind.BLOCK and reason_codes(once_more) == ["approval.used"]
    uses = [r["approvalUse"] for r in service.audit_records() if "approvalUse" in r]
    assert [u["result"] for u in uses] == ["used", "approval.used"]
    assert uses[0]["id"] == d.approval.id and uses[0]["origin"] == d.receipt_id


def test_a_changed_argument_another_session_or_a_denial_is_stopped(service):
    guard = service.guard()
    d = guard.check(deploy())
    guard.approve(d.approval.id)
    changed = guard.check(deploy({"service": "api", "replicas": 4}, approval_id=d.approval.id))
    assert changed.decision is DecisionKind.BLOCK and reason_codes(changed) == ["approval.mismatch"]
    other = guard.check(CheckRequest.tool_use("deploy", DEPLOY, session_id="s-8", approval_id=d.approval.id))
    assert other.decision is DecisionKind.BLOCK and reason_codes(other) == ["approval.mismatch"]
    # Still unused: the exact call passes.
    assert guard.check(deploy(approval_id=d.approval.id)).decision is DecisionKind.ALLOW
    d = guard.check(deploy())
    assert guard.deny(d.approval.id, note="not today")["state"] == "denied"
    denied = guard.check(deploy(approval_id=d.approval.id))
    assert denied.decision is DecisionKind.BLOCK and reason_codes(denied) == ["approval.denied"]


def test_approval_by_call_finds_the_approval_of_the_same_call(service):
    guard = service.guard()
    d = guard.check(deploy())
    by_call = deploy(options={"approvalByCall": True})
    assert guard.check(by_call).decision is DecisionKind.BLOCK, "not approved yet"
    guard.approve(d.approval.id)
    assert asyncio.run(guard.acheck(by_call)).decision is DecisionKind.ALLOW
    assert guard.check(by_call).decision is DecisionKind.BLOCK, "used once"


def test_the_agents_key_cannot_approve_and_errors_carry_the_services_message(service):
    agent_only = Guard(url=service.url, api_key=BOT_KEY, approver_key=BOT_KEY)
    d = agent_only.check(deploy())
    with pytest.raises(ApprovalForbidden) as e:
        agent_only.approve(d.approval.id)
    assert e.value.status == 403
    assert "does not have the scope `guardrails:approve`" in str(e.value), str(e.value)
    with pytest.raises(ApprovalForbidden):
        agent_only.approvals()
    # The agent's key is never used to approve by default.
    no_key = service.guard(approver=False)
    with pytest.raises(ApprovalError, match="PALISADE_APPROVER_KEY") as e:
        no_key.approve(d.approval.id)
    assert not isinstance(e.value, ApprovalForbidden)
    guard = service.guard()
    with pytest.raises(ApprovalNotFound) as e:
        guard.approve("01a2a6c4-0000-7000-8000-000000000000")
    assert e.value.status == 404 and e.value.code == "approval_not_found"
    guard.approve(d.approval.id)
    with pytest.raises(ApprovalNotPending) as e:
        guard.deny(d.approval.id)
    assert e.value.status == 409 and e.value.code == "approval_not_pending"
    with pytest.raises(ValueError):
        guard.approve("")
    with pytest.raises(ValueError):
        guard.approvals(state="later")


def test_the_environment_gives_the_approver_key(service, monkeypatch):
    from conftest import LEAD_KEY

    monkeypatch.setenv("PALISADE_APPROVER_KEY", LEAD_KEY)
    guard = Guard(url=service.url, api_key=BOT_KEY)
    assert guard.can_approve
    d = guard.check(deploy())
    assert guard.approve(d.approval.id)["state"] == "approved"


def test_a_local_guard_has_no_approvals(redact_policy):
    with Guard(policy=redact_policy, approver_key="anything") as guard:
        assert not guard.remote and not guard.can_approve
        with pytest.raises(ApprovalError, match="only at a Palisade service"):
            guard.approve("x")
        with pytest.raises(ApprovalError, match="only at a Palisade service"):
            guard.approvals()
