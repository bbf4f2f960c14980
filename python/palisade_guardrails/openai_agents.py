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

import dataclasses
import json
from typing import Any

from ._guard import Decision, DecisionKind, Guard, local_context

try:
    import agents as _agents
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "palisade_guardrails.openai_agents needs the OpenAI Agents SDK: pip install openai-agents"
    ) from e

__all__ = [
    "guard_function_tool",
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
    (``reject_content`` with the reason, which the model gets). A ``modify``
    is rejected too: a guardrail cannot rewrite the call, so wrap the tool
    with :func:`guard_function_tool` to have it run rewritten."""

    @_agents.tool_input_guardrail(name="palisade_tool_input")
    async def palisade_tool_input(data: Any) -> Any:
        ctx = data.context
        d = await guard.acheck({
            "stage": "tool_use",
            "tool": {"name": ctx.tool_name, "arguments": _arguments(ctx.tool_arguments), "callId": ctx.tool_call_id},
            "context": local_context(),
        })
        if d.decision == DecisionKind.ALLOW:
            return _agents.ToolGuardrailFunctionOutput.allow(_info(d))
        why = d.reason()
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


def guard_function_tool(tool: Any, guard: Guard) -> Any:
    """``tool`` (a ``FunctionTool``) behind Palisade, applying what a
    guardrail cannot: a denied call does not run (the model gets the
    reason); a rewritten call runs with the new arguments; an ``ask`` goes
    through the SDK's approval (``needs_approval``: the run stops with an
    interruption for a person to approve or reject)."""

    async def decide(args: Any, call_id: str | None, interactive: bool) -> Decision:
        request: dict[str, Any] = {
            "stage": "tool_use",
            "tool": {"name": tool.name, "arguments": args},
            "context": local_context(),
        }
        if call_id:
            request["tool"]["callId"] = call_id
        if interactive:
            request["options"] = {"interactive": True}
        return await guard.acheck(request)

    async def needs_approval(ctx: Any, args: dict[str, Any], call_id: str) -> bool:
        d = await decide(args, call_id, interactive=True)
        return d.decision == DecisionKind.ASK

    inner = tool.on_invoke_tool

    async def on_invoke_tool(ctx: Any, raw: str) -> Any:
        args = _arguments(raw)
        call_id = getattr(ctx, "tool_call_id", None)
        approved = _approved(ctx, tool.name, call_id)
        d = await decide(args, call_id, interactive=approved)
        if d.decision == DecisionKind.ASK and approved:
            return await inner(ctx, raw)
        if d.decision == DecisionKind.ALLOW:
            return await inner(ctx, raw)
        if d.decision == DecisionKind.MODIFY and d.modified is not None and isinstance(d.modified.arguments, dict):
            return await inner(ctx, json.dumps(d.modified.arguments))
        return f"Tool call blocked. {d.reason()}"

    return dataclasses.replace(tool, on_invoke_tool=on_invoke_tool, needs_approval=needs_approval)


def _approved(ctx: Any, tool_name: str, call_id: str | None) -> bool:
    """Whether a person approved this call through the SDK's approval."""
    check = getattr(ctx, "is_tool_approved", None)
    if check is None or call_id is None:
        return False
    try:
        return check(tool_name, call_id) is True
    except Exception:
        return False
