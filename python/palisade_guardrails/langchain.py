"""LangChain v1: :class:`PalisadeMiddleware`, an ``AgentMiddleware`` for
``create_agent`` that checks every tool call before it runs and, if asked,
the model's input and output.

>>> from langchain.agents import create_agent
>>> from palisade_guardrails import Guard
>>> from palisade_guardrails.langchain import PalisadeMiddleware
>>> # agent = create_agent(model, tools, middleware=[PalisadeMiddleware(Guard())])
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any, Awaitable, Callable

from ._guard import ApprovalError, Decision, DecisionKind, Guard, local_context

try:
    from langchain.agents.middleware import AgentMiddleware, hook_config
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.types import interrupt
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("palisade_guardrails.langchain needs LangChain v1: pip install 'langchain>=1'") from e

__all__ = ["PalisadeMiddleware"]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for c in content or []:
        if isinstance(c, str):
            parts.append(c)
        elif isinstance(c, dict) and isinstance(c.get("text"), str):
            parts.append(c["text"])
    return "".join(parts)


class PalisadeMiddleware(AgentMiddleware):
    """Palisade in a LangChain v1 agent.

    Tool calls (``wrap_tool_call``): ``allow`` runs the call; ``modify`` runs
    it with the rewritten arguments; ``ask`` interrupts the graph for a
    person, as ``HumanInTheLoopMiddleware`` does (resume with
    ``Command(resume={"decisions": [{"type": "approve"}]})`` or ``"reject"``;
    the agent needs a checkpointer); anything else returns a ``ToolMessage``
    with ``status="error"`` saying why, and the tool does not run.

    With a service's guard (``Guard(url=...)``), the interrupt carries the
    service's approval (``action_requests[0]["approval"]``: ``id``, ``url``,
    ``expiresAt``, ``bound``). When the guard has an approver key, resuming
    with ``approve`` approves it at the service and sends the call again
    under it: the tool runs only if the service allows it, as the exact
    call approved, once; ``reject`` denies it. Without one, ``approve``
    runs the call as before, and a call approved out of band
    (``palisade approvals approve ID``) passes when the model makes it
    again (``options.approvalByCall``).

    ``check_input``: the last human message is an ``input`` request; a block
    ends the run with a refusal. ``check_output``: the model's answer is an
    ``output`` request; a block replaces it with a refusal and a redaction
    with the redacted text.
    """

    def __init__(self, guard: Guard | None = None, *, check_input: bool = False, check_output: bool = False) -> None:
        super().__init__()
        self.guard = guard if guard is not None else Guard()
        self.check_input = check_input
        self.check_output = check_output
        # The ask of a call waiting in an interrupt: the graph runs the tool
        # node again on resume, which must answer the approval the person
        # saw, not ask for a new one.
        self._asked: "OrderedDict[tuple[str, str], Decision]" = OrderedDict()

    # Tool calls.

    def _request(self, request: Any) -> dict[str, Any]:
        call = request.tool_call
        options: dict[str, Any] = {"interactive": True}
        if self.guard.remote:
            options["approvalByCall"] = True
        tool: dict[str, Any] = {"name": call["name"], "arguments": call.get("args") or {}, "callId": call.get("id")}
        description = getattr(getattr(request, "tool", None), "description", None)
        if isinstance(description, str) and description:
            # What a flow rule reads the call's effect from when the name
            # does not say (PROTOCOL.md, `tool.description`).
            tool["description"] = description
        return {
            "stage": "tool_use",
            "tool": tool,
            "options": options,
            "context": local_context(),
        }

    def _key(self, request: Any) -> tuple[str, str] | None:
        call = request.tool_call
        if not call.get("id"):
            return None
        return (call["id"], json.dumps([call["name"], call.get("args") or {}], sort_keys=True, default=str))

    def _asked_before(self, request: Any) -> Decision | None:
        key = self._key(request)
        return self._asked.get(key) if key else None

    def _refusal(self, request: Any, d: Decision, prefix: str = "Tool call blocked.", why: str | None = None) -> ToolMessage:
        call = request.tool_call
        return ToolMessage(
            content=f"{prefix} {why if why is not None else self.guard.explain(d)}",
            tool_call_id=call.get("id") or "",
            name=call["name"],
            status="error",
        )

    def _ask(self, request: Any, d: Decision) -> tuple[bool, str | None]:
        """Interrupts for a person: whether they approved, and their note."""
        call = request.tool_call
        action: dict[str, Any] = {"name": call["name"], "args": call.get("args") or {}, "description": self.guard.explain(d)}
        if d.approval is not None:
            a = d.approval
            action["approval"] = {"id": a.id, "url": self.guard.approval_url(a), "expiresAt": a.expires_at, "bound": a.bound}
        key = self._key(request)
        if key is not None and d.approval is not None:
            self._asked[key] = d
            while len(self._asked) > 4096:
                self._asked.popitem(last=False)
        answer = interrupt({
            "action_requests": [action],
            "review_configs": [{"action_name": call["name"], "allowed_decisions": ["approve", "reject"]}],
        })
        if key is not None:
            self._asked.pop(key, None)
        decisions = answer.get("decisions") if isinstance(answer, dict) else None
        first = decisions[0] if isinstance(decisions, list) and decisions else answer
        kind = first.get("type") if isinstance(first, dict) else first
        note = first.get("message") if isinstance(first, dict) and isinstance(first.get("message"), str) else None
        return kind == "approve" or kind is True, note

    def _answered(self, request: Any, d: Decision, yes: bool, note: str | None, again: Decision | None) -> tuple[str, Any]:
        """What a person's answer does; ``again`` is the service's decision
        on the call sent again under the approval they approved."""
        if again is not None:
            if again.decision == DecisionKind.ALLOW:
                return "run", request
            notes = [f.message for f in again.warnings if f.type == "approval" and f.message]
            why = f"{'; '.join(notes)}. {self.guard.explain(again)}" if notes else self.guard.explain(again)
            return "refuse", self._refusal(request, again, "Tool call blocked: the approval did not let it through.", why)
        if yes:
            return "run", request
        return "refuse", self._refusal(request, d, "Tool call rejected by the user.")

    def _deny(self, d: Decision, note: str | None) -> str | None:
        try:
            self.guard.deny(d.approval.id, note or "rejected in LangChain")  # type: ignore[union-attr]
        except ApprovalError as e:
            return f"the approval could not be denied at the service: {e}"
        return None

    def _route(self, request: Any, d: Decision) -> tuple[str, Any]:
        if d.decision == DecisionKind.ALLOW:
            return "run", request
        if d.decision == DecisionKind.MODIFY and d.modified is not None and isinstance(d.modified.arguments, dict):
            return "run", request.override(tool_call={**request.tool_call, "args": d.modified.arguments})
        if d.decision == DecisionKind.ASK:
            yes, note = self._ask(request, d)
            again = None
            if d.approval is not None and self.guard.can_approve:
                if yes:
                    again = self.guard.confirm(self._request(request), d.approval.id, note or "approved in LangChain")
                else:
                    failed = self._deny(d, note)
                    if failed:
                        return "refuse", self._refusal(request, d, "Tool call rejected by the user;", failed)
            return self._answered(request, d, yes, note, again)
        return "refuse", self._refusal(request, d)

    async def _aroute(self, request: Any, d: Decision) -> tuple[str, Any]:
        if d.decision != DecisionKind.ASK or d.approval is None or not self.guard.can_approve:
            return self._route(request, d)
        yes, note = self._ask(request, d)
        again = None
        if yes:
            again = await self.guard.aconfirm(self._request(request), d.approval.id, note or "approved in LangChain")
        else:
            failed = await asyncio.to_thread(self._deny, d, note)
            if failed:
                return "refuse", self._refusal(request, d, "Tool call rejected by the user;", failed)
        return self._answered(request, d, yes, note, again)

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        d = self._asked_before(request) or self.guard.check(self._request(request))
        what, value = self._route(request, d)
        return handler(value) if what == "run" else value

    async def awrap_tool_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        d = self._asked_before(request) or await self.guard.acheck(self._request(request))
        what, value = await self._aroute(request, d)
        return await handler(value) if what == "run" else value

    # The model's input and output.

    def _input_update(self, state: Any, d: Decision) -> dict[str, Any] | None:
        if d.decision in (DecisionKind.ALLOW, DecisionKind.MODIFY):
            return None
        return {"messages": [AIMessage(content=f"I cannot help with that. {d.reason()}")], "jump_to": "end"}

    def _last_human(self, state: Any) -> str | None:
        for m in reversed(state["messages"]):
            if isinstance(m, HumanMessage):
                return _text(m.content)
        return None

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        text = self._last_human(state) if self.check_input else None
        if text is None:
            return None
        return self._input_update(state, self.guard.check({"stage": "input", "content": text}))

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        text = self._last_human(state) if self.check_input else None
        if text is None:
            return None
        return self._input_update(state, await self.guard.acheck({"stage": "input", "content": text}))

    def _output_update(self, last: AIMessage, d: Decision) -> dict[str, Any] | None:
        if d.decision == DecisionKind.ALLOW:
            return None
        if d.decision == DecisionKind.MODIFY and d.modified is not None and d.modified.content is not None:
            content = d.modified.content
        else:
            content = f"{d.replacement or 'This answer was withheld by policy.'} {d.reason()}"
        return {"messages": [AIMessage(content=content, id=last.id, tool_calls=last.tool_calls)]}

    def _last_ai(self, state: Any) -> AIMessage | None:
        last = state["messages"][-1] if state["messages"] else None
        return last if isinstance(last, AIMessage) and _text(last.content) else None

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        last = self._last_ai(state) if self.check_output else None
        if last is None:
            return None
        return self._output_update(last, self.guard.check({"stage": "output", "content": _text(last.content)}))

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        last = self._last_ai(state) if self.check_output else None
        if last is None:
            return None
        return self._output_update(last, await self.guard.acheck({"stage": "output", "content": _text(last.content)}))
