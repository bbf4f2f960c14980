"""LangChain v1: :class:`PalisadeMiddleware`, an ``AgentMiddleware`` for
``create_agent`` that checks every tool call before it runs and, if asked,
the model's input and output.

>>> from langchain.agents import create_agent
>>> from palisade_guardrails import Guard
>>> from palisade_guardrails.langchain import PalisadeMiddleware
>>> # agent = create_agent(model, tools, middleware=[PalisadeMiddleware(Guard())])
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from ._guard import Decision, DecisionKind, Guard, local_context

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

    # Tool calls.

    def _request(self, request: Any) -> dict[str, Any]:
        call = request.tool_call
        return {
            "stage": "tool_use",
            "tool": {"name": call["name"], "arguments": call.get("args") or {}, "callId": call.get("id")},
            "options": {"interactive": True},
            "context": local_context(),
        }

    def _refusal(self, request: Any, d: Decision, prefix: str = "Tool call blocked.") -> ToolMessage:
        call = request.tool_call
        return ToolMessage(
            content=f"{prefix} {d.reason()}",
            tool_call_id=call.get("id") or "",
            name=call["name"],
            status="error",
        )

    def _ask(self, request: Any, d: Decision) -> bool:
        call = request.tool_call
        answer = interrupt({
            "action_requests": [{"name": call["name"], "args": call.get("args") or {}, "description": d.reason()}],
            "review_configs": [{"action_name": call["name"], "allowed_decisions": ["approve", "reject"]}],
        })
        decisions = answer.get("decisions") if isinstance(answer, dict) else None
        first = decisions[0] if isinstance(decisions, list) and decisions else answer
        kind = first.get("type") if isinstance(first, dict) else first
        return kind == "approve" or kind is True

    def _route(self, request: Any, d: Decision) -> tuple[str, Any]:
        if d.decision == DecisionKind.ALLOW:
            return "run", request
        if d.decision == DecisionKind.MODIFY and d.modified is not None and isinstance(d.modified.arguments, dict):
            return "run", request.override(tool_call={**request.tool_call, "args": d.modified.arguments})
        if d.decision == DecisionKind.ASK:
            if self._ask(request, d):
                return "run", request
            return "refuse", self._refusal(request, d, "Tool call rejected by the user.")
        return "refuse", self._refusal(request, d)

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        d = self.guard.check(self._request(request))
        what, value = self._route(request, d)
        return handler(value) if what == "run" else value

    async def awrap_tool_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        d = await self.guard.acheck(self._request(request))
        what, value = self._route(request, d)
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
