"""AutoGen: the ``GuardrailProvider`` protocol (seed 004) answered by
Palisade, provider chains, and wrappers that put a chain in front of the
tools and workbenches AutoGen already has (AutoGen itself has not merged
the protocol).

>>> from palisade_guardrails.autogen import PalisadeProvider, guard_tool, GuardedWorkbench
>>> # guarded = guard_tool(my_function_tool, PalisadeProvider())
>>> # agent = AssistantAgent("coder", model_client, tools=[guarded])
>>> # agent = AssistantAgent("coder", model_client, workbench=GuardedWorkbench(mcp_workbench, PalisadeProvider()))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

from ._guard import DecisionKind, Guard, local_context

__all__ = [
    "Decision",
    "GuardedTool",
    "GuardedWorkbench",
    "GuardrailProvider",
    "GuardrailResult",
    "PalisadeProvider",
    "evaluate_chain",
    "guard_tool",
]


class Decision(Enum):
    """A guardrail's verdict on a tool call."""

    ALLOW = "allow"
    DENY = "deny"
    MODIFY = "modify"


@dataclass
class GuardrailResult:
    """Outcome of a guardrail evaluation."""

    decision: Decision
    reason: str | None = None
    modified_args: Mapping[str, Any] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class GuardrailProvider(Protocol):
    """Intercepts tool calls before execution for policy enforcement."""

    async def evaluate(
        self,
        *,
        tool_name: str,
        args: Mapping[str, Any],
        agent_name: str | None = None,
        call_id: str | None = None,
        cancellation_token: Any = None,
    ) -> GuardrailResult: ...


class PalisadeProvider:
    """A ``GuardrailProvider`` answered by Palisade: the call is a v1
    ``tool_use`` request; ``allow`` → ``ALLOW``, ``modify`` → ``MODIFY`` with
    the redacted arguments, anything else (``block``, ``ask``: AutoGen
    cannot ask; ``error``) → ``DENY`` with the reason. ``metadata`` holds the
    receipt, the request id and the findings.

    With a service's guard (``Guard(url=...)``), a call the policy asks
    about is denied with the service's approval: the reason names it and
    where a person approves it (``palisade approvals approve ID --server
    URL``), ``metadata["approval"]`` holds it (``id``, ``url``,
    ``expiresAt``, ``bound``); the same call made again is sent with
    ``options.approvalByCall``, so it passes once after the approval.

    ``guard`` is a :class:`~palisade_guardrails.Guard`; without one, a guard
    is made from ``guard_kwargs`` (``policy=``, ``url=``, …).
    """

    def __init__(self, guard: Guard | None = None, **guard_kwargs: Any) -> None:
        if guard is not None and guard_kwargs:
            raise TypeError("give either a guard or the arguments of one, not both")
        self.guard = guard if guard is not None else Guard(**guard_kwargs)

    async def evaluate(
        self,
        *,
        tool_name: str,
        args: Mapping[str, Any],
        agent_name: str | None = None,
        call_id: str | None = None,
        cancellation_token: Any = None,
    ) -> GuardrailResult:
        request: dict[str, Any] = {
            "stage": "tool_use",
            "tool": {"name": tool_name, "arguments": dict(args)},
            "context": local_context(),
        }
        if call_id:
            request["tool"]["callId"] = call_id
        if agent_name:
            request["agent"] = {"id": agent_name, "name": agent_name}
        if self.guard.remote:
            request["options"] = {"approvalByCall": True}
        d = await self.guard.acheck(request)
        metadata: dict[str, Any] = {
            "requestId": d.request_id,
            "checkIds": list(dict.fromkeys(f.check_id for f in d.findings)),
            "findings": [dict(f) for f in d.raw.get("violations", []) + d.raw.get("warnings", [])],
        }
        if d.receipt_id:
            metadata["receiptId"] = d.receipt_id
        if d.approval is not None:
            a = d.approval
            metadata["approval"] = {"id": a.id, "url": self.guard.approval_url(a), "expiresAt": a.expires_at, "bound": a.bound}
        if d.decision == DecisionKind.ALLOW:
            return GuardrailResult(Decision.ALLOW, metadata=metadata)
        if d.decision == DecisionKind.MODIFY:
            new_args = d.modified.arguments if d.modified else None
            if isinstance(new_args, Mapping):
                return GuardrailResult(Decision.MODIFY, reason=d.reason(), modified_args=new_args, metadata=metadata)
        return GuardrailResult(Decision.DENY, reason=self.guard.explain(d), metadata=metadata)


async def evaluate_chain(
    providers: Sequence[GuardrailProvider],
    *,
    tool_name: str,
    args: Mapping[str, Any],
    agent_name: str | None = None,
    call_id: str | None = None,
    cancellation_token: Any = None,
) -> GuardrailResult:
    """Runs providers in order, each on the arguments the one before left: a
    ``DENY`` ends the chain; the result is ``MODIFY`` with the final
    arguments when any provider changed them, else ``ALLOW``."""
    effective: Mapping[str, Any] = args
    modified = False
    metadata: dict[str, Any] = {}
    for provider in providers:
        result = await provider.evaluate(
            tool_name=tool_name,
            args=effective,
            agent_name=agent_name,
            call_id=call_id,
            cancellation_token=cancellation_token,
        )
        metadata.update(result.metadata)
        if result.decision == Decision.DENY:
            return GuardrailResult(Decision.DENY, reason=result.reason or "policy violation", metadata=metadata)
        if result.decision == Decision.MODIFY and result.modified_args is not None:
            effective = result.modified_args
            modified = True
    if modified:
        return GuardrailResult(Decision.MODIFY, modified_args=effective, metadata=metadata)
    return GuardrailResult(Decision.ALLOW, metadata=metadata)


def _denied(reason: str | None) -> str:
    return f"Tool call denied: {reason or 'policy violation'}"


def _autogen() -> Any:
    try:
        import autogen_core.tools as tools
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError("palisade_guardrails.autogen needs autogen-core: pip install 'palisade-guardrails[autogen]'") from e
    return tools


def guard_tool(tool: Any, *providers: GuardrailProvider) -> Any:
    """``tool`` (a ``BaseTool``, such as a ``FunctionTool``) behind the chain
    of ``providers`` (default: one :class:`PalisadeProvider`): a denied call
    does not run and returns ``"Tool call denied: <reason>"``; a modified one
    runs with the new arguments."""
    return GuardedTool(tool, *(providers or (PalisadeProvider(),)))


def _guarded_tool_class() -> type:
    tools = _autogen()

    class _GuardedTool(tools.BaseTool):  # type: ignore[misc, name-defined]
        def __init__(self, tool: Any, *providers: GuardrailProvider) -> None:
            super().__init__(tool.args_type(), tool.return_type(), tool.name, tool.description)
            self._inner = tool
            self._providers = providers

        @property
        def schema(self) -> Any:
            return self._inner.schema

        async def run(self, args: Any, cancellation_token: Any) -> Any:
            return await self._inner.run(args, cancellation_token)

        async def run_json(self, args: Mapping[str, Any], cancellation_token: Any, call_id: str | None = None) -> Any:
            result = await evaluate_chain(
                self._providers,
                tool_name=self.name,
                args=args,
                call_id=call_id,
                cancellation_token=cancellation_token,
            )
            if result.decision == Decision.DENY:
                return _denied(result.reason)
            effective = result.modified_args if result.decision == Decision.MODIFY else args
            return await self._inner.run_json(effective, cancellation_token, call_id=call_id)

        def return_value_as_string(self, value: Any) -> str:
            return self._inner.return_value_as_string(value)

    return _GuardedTool


def GuardedTool(tool: Any, *providers: GuardrailProvider) -> Any:  # noqa: N802 - a class, made on first use
    """A ``BaseTool`` that runs ``tool`` behind ``providers``."""
    return _guarded_tool_class()(tool, *providers)


def _guarded_workbench_class() -> type:
    tools = _autogen()

    class _GuardedWorkbench(tools.Workbench):  # type: ignore[misc, name-defined]
        def __init__(self, workbench: Any, *providers: GuardrailProvider) -> None:
            self._inner = workbench
            self._providers = providers

        async def list_tools(self) -> Any:
            return await self._inner.list_tools()

        async def call_tool(
            self,
            name: str,
            arguments: Mapping[str, Any] | None = None,
            cancellation_token: Any = None,
            call_id: str | None = None,
        ) -> Any:
            args = dict(arguments or {})
            result = await evaluate_chain(
                self._providers,
                tool_name=name,
                args=args,
                call_id=call_id,
                cancellation_token=cancellation_token,
            )
            if result.decision == Decision.DENY:
                return tools.ToolResult(
                    name=name,
                    result=[tools.TextResultContent(content=_denied(result.reason))],
                    is_error=True,
                )
            effective = result.modified_args if result.decision == Decision.MODIFY else args
            return await self._inner.call_tool(
                name, dict(effective or {}), cancellation_token=cancellation_token, call_id=call_id
            )

        async def start(self) -> None:
            await self._inner.start()

        async def stop(self) -> None:
            await self._inner.stop()

        async def reset(self) -> None:
            await self._inner.reset()

        async def save_state(self) -> Mapping[str, Any]:
            return await self._inner.save_state()

        async def load_state(self, state: Mapping[str, Any]) -> None:
            await self._inner.load_state(state)

    return _GuardedWorkbench


def GuardedWorkbench(workbench: Any, *providers: GuardrailProvider) -> Any:  # noqa: N802 - a class, made on first use
    """A ``Workbench`` (an ``McpWorkbench`` included) whose ``call_tool``
    runs behind ``providers`` (default: one :class:`PalisadeProvider`): a
    denied call does not reach the workbench and is an error result saying
    why; a modified one reaches it with the new arguments."""
    return _guarded_workbench_class()(workbench, *(providers or (PalisadeProvider(),)))
