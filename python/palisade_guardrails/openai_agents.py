"""The OpenAI Agents SDK: Palisade as tool input and output guardrails,
agent input and output guardrails, and a tool wrapper that applies what a
guardrail cannot (a rewritten call, and ``ask`` through the SDK's approval).

>>> from agents import Agent, function_tool
>>> from palisade_guardrails import Guard
>>> from palisade_guardrails.openai_agents import guard_function_tool, input_guardrail
>>> # guard = Guard()
>>> # tool = guard_function_tool(function_tool(run_shell), guard)
>>> # agent = Agent(name="coder", tools=[tool], input_guardrails=[input_guardrail(guard)])
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import OrderedDict
from typing import Any

from ._guard import Approval, ApprovalError, Decision, DecisionKind, Guard, local_context

try:
    import agents as _agents
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "palisade_guardrails.openai_agents needs the OpenAI Agents SDK: pip install openai-agents"
    ) from e

__all__ = [
    "approval_of",
    "guard_function_tool",
    "rejection_formatter",
    "input_guardrail",
    "output_guardrail",
    "tool_input_guardrail",
    "tool_output_guardrail",
]


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw) if raw.strip() else {}
        except ValueError:
            return raw
    return raw


def _info(d: Decision) -> dict[str, Any]:
    return {
        "decision": d.decision.value,
        "requestId": d.request_id,
        "receiptId": d.receipt_id,
        "checkIds": list(dict.fromkeys(f.check_id for f in d.findings)),
    }


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, default=str)
    except (TypeError, ValueError):
        return str(value)


def tool_input_guardrail(guard: Guard) -> Any:
    """A ``ToolInputGuardrail``: the call's arguments are a ``tool_use``
    request. ``allow`` lets the call run; anything else rejects it
    (``reject_content`` with the reason, which the model gets; with a
    service, the reason names the approval that lets the same call through
    once a person approves it). A ``modify``
    is rejected too: a guardrail cannot rewrite the call, so wrap the tool
    with :func:`guard_function_tool` to have it run rewritten."""

    @_agents.tool_input_guardrail(name="palisade_tool_input")
    async def palisade_tool_input(data: Any) -> Any:
        ctx = data.context
        request: dict[str, Any] = {
            "stage": "tool_use",
            "tool": {"name": ctx.tool_name, "arguments": _arguments(ctx.tool_arguments), "callId": ctx.tool_call_id},
            "context": local_context(),
        }
        if guard.remote:
            # A call a person approved out of band passes once.
            request["options"] = {"approvalByCall": True}
        d = await guard.acheck(request)
        if d.decision == DecisionKind.ALLOW:
            return _agents.ToolGuardrailFunctionOutput.allow(_info(d))
        why = guard.explain(d)
        if d.decision == DecisionKind.MODIFY:
            why += " (the call must be rewritten first; this tool is not wrapped to do it)"
        return _agents.ToolGuardrailFunctionOutput.reject_content(f"Tool call blocked. {why}", _info(d))

    return palisade_tool_input


def tool_output_guardrail(guard: Guard) -> Any:
    """A ``ToolOutputGuardrail``: the tool's output is a ``tool_output``
    request. ``allow`` passes it on; a redaction (``modify``) gives the model
    the redacted output instead; anything else withholds it, saying why."""

    @_agents.tool_output_guardrail(name="palisade_tool_output")
    async def palisade_tool_output(data: Any) -> Any:
        ctx = data.context
        d = await guard.acheck({
            "stage": "tool_output",
            "tool": {"name": ctx.tool_name, "arguments": _arguments(ctx.tool_arguments), "output": _text(data.output)},
        })
        if d.decision == DecisionKind.ALLOW:
            return _agents.ToolGuardrailFunctionOutput.allow(_info(d))
        if d.decision == DecisionKind.MODIFY and d.modified is not None:
            new = d.modified.output if d.modified.output is not None else d.modified.content
            if new is not None:
                return _agents.ToolGuardrailFunctionOutput.reject_content(_text(new), _info(d))
        withheld = d.replacement or "This tool output was withheld by policy."
        return _agents.ToolGuardrailFunctionOutput.reject_content(f"{withheld} {d.reason()}", _info(d))

    return palisade_tool_output


def _input_text(value: Any) -> str:
    """The text of an agent's input: a string, or the items' text."""
    if isinstance(value, str):
        return value
    parts: list[str] = []
    for item in value or []:
        content = item.get("content") if isinstance(item, dict) else getattr(item, "content", None)
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            for c in content:
                text = c.get("text") if isinstance(c, dict) else getattr(c, "text", None)
                if isinstance(text, str):
                    parts.append(text)
    return "\n".join(parts)


def input_guardrail(guard: Guard) -> Any:
    """An agent ``InputGuardrail``: the input is an ``input`` request; a
    decision other than ``allow`` or ``modify`` trips the wire
    (``InputGuardrailTripwireTriggered``)."""

    @_agents.input_guardrail(name="palisade_input")
    async def palisade_input(ctx: Any, agent: Any, input: Any) -> Any:
        d = await guard.acheck({"stage": "input", "content": _input_text(input)})
        tripped = d.decision not in (DecisionKind.ALLOW, DecisionKind.MODIFY)
        return _agents.GuardrailFunctionOutput(output_info={**_info(d), "reason": d.reason()}, tripwire_triggered=tripped)

    return palisade_input


def output_guardrail(guard: Guard) -> Any:
    """An agent ``OutputGuardrail``: the final output is an ``output``
    request; a block trips the wire (``OutputGuardrailTripwireTriggered``).
    The SDK cannot rewrite a final output, so a redaction (``modify``) also
    trips it; ``output_info["redacted"]`` holds the redacted text."""

    @_agents.output_guardrail(name="palisade_output")
    async def palisade_output(ctx: Any, agent: Any, output: Any) -> Any:
        d = await guard.acheck({"stage": "output", "content": _text(output)})
        info = {**_info(d), "reason": d.reason()}
        if d.decision == DecisionKind.MODIFY and d.modified is not None:
            info["redacted"] = d.modified.content
        return _agents.GuardrailFunctionOutput(output_info=info, tripwire_triggered=d.decision != DecisionKind.ALLOW)

    return palisade_output


# The service's approvals of the calls now waiting for a person in the SDK,
# by call id: what a person's approval (the re-check) or rejection (the
# tool error formatter) answers. Bounded: a run that is never resumed
# leaves its entry behind.
_PENDING: "OrderedDict[str, tuple[Guard, Decision]]" = OrderedDict()
_PENDING_MAX = 4096


def _remember(call_id: str, guard: Guard, d: Decision) -> None:
    _PENDING[call_id] = (guard, d)
    _PENDING.move_to_end(call_id)
    while len(_PENDING) > _PENDING_MAX:
        _PENDING.popitem(last=False)


def approval_of(item: Any) -> Approval | None:
    """The service's approval of an interruption (a ``ToolApprovalItem`` of a
    tool wrapped by :func:`guard_function_tool`), or ``None``: its ``id``
    and ``url`` let a person approve it out of band (``palisade approvals
    approve ID``), after which the same call passes once."""
    raw = getattr(item, "raw_item", None)
    call_id = raw.get("call_id") if isinstance(raw, dict) else getattr(raw, "call_id", None)
    entry = _PENDING.get(call_id) if isinstance(call_id, str) else None
    return entry[1].approval if entry else None


async def rejection_formatter(args: Any) -> str | None:
    """A ``RunConfig.tool_error_formatter``: when a person rejects a wrapped
    tool's interruption (``state.reject(...)``), the service's approval is
    denied with the guard's approver key, and the model is told so; without
    an approver key, the message names the approval and where a person can
    approve it out of band. Other errors keep the SDK's message."""
    if getattr(args, "kind", None) != "approval_rejected":
        return None
    entry = _PENDING.pop(getattr(args, "call_id", None) or "", None)
    if entry is None:
        return None
    guard, d = entry
    if d.approval is None:
        return None
    if not guard.can_approve:
        return f"Tool call rejected by the user. {guard.explain(d)}"
    try:
        await asyncio.to_thread(guard.deny, d.approval.id, "rejected in the OpenAI Agents SDK")
    except ApprovalError as e:
        return f"Tool call rejected by the user; the approval could not be denied at the service: {e}"
    return f"Tool call rejected by the user; Palisade approval {d.approval.id} denied."


def guard_function_tool(tool: Any, guard: Guard) -> Any:
    """``tool`` (a ``FunctionTool``) behind Palisade, applying what a
    guardrail cannot: a denied call does not run (the model gets the
    reason); a rewritten call runs with the new arguments; an ``ask`` goes
    through the SDK's approval (``needs_approval``: the run stops with an
    interruption for a person to approve or reject).

    With a service's guard (``Guard(url=...)``), the ``ask`` carries an
    approval (:func:`approval_of`). When the guard has an approver key, a
    person's ``state.approve(...)`` approves it at the service and the call
    is sent again under it: it runs only if the service allows it, as the
    exact call approved, once (and the audit log links the two); a
    rejection denies it (:func:`rejection_formatter`). Without one, an
    approval in the SDK lets the call run as before, and a call approved
    out of band passes when the model makes it again
    (``options.approvalByCall``)."""

    def request_of(args: Any, call_id: str | None, interactive: bool) -> dict[str, Any]:
        request: dict[str, Any] = {
            "stage": "tool_use",
            "tool": {"name": tool.name, "arguments": args},
            "context": local_context(),
        }
        if call_id:
            request["tool"]["callId"] = call_id
        if isinstance(getattr(tool, "description", None), str) and tool.description:
            # What a flow rule reads the call's effect from when the name
            # does not say (PROTOCOL.md, `tool.description`).
            request["tool"]["description"] = tool.description
        options: dict[str, Any] = {}
        if interactive:
            options["interactive"] = True
        if guard.remote:
            options["approvalByCall"] = True
        if options:
            request["options"] = options
        return request

    # A decision needs_approval took that on_invoke_tool must not take
    # again: a call let through by an approval given out of band uses it up.
    cleared: "OrderedDict[str, tuple[str, Decision]]" = OrderedDict()

    async def needs_approval(ctx: Any, args: dict[str, Any], call_id: str) -> bool:
        d = await guard.acheck(request_of(args, call_id, interactive=True))
        if d.decision == DecisionKind.ASK:
            if call_id:
                _remember(call_id, guard, d)
            return True
        if call_id:
            cleared[call_id] = (json.dumps(args, sort_keys=True, default=str), d)
            while len(cleared) > _PENDING_MAX:
                cleared.popitem(last=False)
        return False

    inner = tool.on_invoke_tool

    async def on_invoke_tool(ctx: Any, raw: str) -> Any:
        args = _arguments(raw)
        call_id = getattr(ctx, "tool_call_id", None)
        approved = _approved(ctx, tool.name, call_id)
        d: Decision | None = None
        if call_id and call_id in cleared:
            seen, decided = cleared.pop(call_id)
            if seen == json.dumps(args, sort_keys=True, default=str):
                d = decided
        pending = _PENDING.pop(call_id, None) if (approved and call_id) else None
        if d is None and pending is not None and pending[1].approval is not None and guard.can_approve:
            # A person approved in the SDK: the service confirms it is the
            # exact call it asked about, once.
            request = request_of(args, call_id, interactive=True)
            d = await guard.aconfirm(request, pending[1].approval.id, "approved in the OpenAI Agents SDK")
            if d.decision == DecisionKind.ALLOW:
                return await inner(ctx, raw)
            return f"Tool call blocked: the approval did not let it through. {_why(guard, d)}"
        if d is None:
            d = await guard.acheck(request_of(args, call_id, interactive=approved))
        if d.decision == DecisionKind.ASK and approved:
            return await inner(ctx, raw)
        if d.decision == DecisionKind.ALLOW:
            return await inner(ctx, raw)
        if d.decision == DecisionKind.MODIFY and d.modified is not None and isinstance(d.modified.arguments, dict):
            return await inner(ctx, json.dumps(d.modified.arguments))
        return f"Tool call blocked. {guard.explain(d)}"

    return dataclasses.replace(tool, on_invoke_tool=on_invoke_tool, needs_approval=needs_approval)


def _why(guard: Guard, d: Decision) -> str:
    """Why an approval did not apply (its warning), then the decision's reason."""
    notes = [f.message for f in d.warnings if f.type == "approval" and f.message]
    why = guard.explain(d)
    return f"{'; '.join(notes)}. {why}" if notes else why


def _approved(ctx: Any, tool_name: str, call_id: str | None) -> bool:
    """Whether a person approved this call through the SDK's approval."""
    check = getattr(ctx, "is_tool_approved", None)
    if check is None or call_id is None:
        return False
    try:
        return check(tool_name, call_id) is True
    except Exception:
        return False
