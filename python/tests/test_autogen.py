"""AutoGen, for real: an AssistantAgent driven by ReplayChatCompletionClient
(AutoGen's own scripted model client) calls tools through Palisade's
provider, as plain tools and through an MCP workbench; each test checks from
outside what ran."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from autogen_agentchat.agents import AssistantAgent
from autogen_core import FunctionCall
from autogen_core.models import CreateResult, RequestUsage
from autogen_core.tools import FunctionTool
from autogen_ext.models.replay import ReplayChatCompletionClient
from autogen_ext.tools.mcp import McpWorkbench, StdioServerParams

from palisade_guardrails import Guard
from palisade_guardrails.autogen import (
    Decision,
    GuardedWorkbench,
    GuardrailProvider,
    GuardrailResult,
    PalisadeProvider,
    evaluate_chain,
    guard_tool,
)

from conftest import AWS_KEY

MODEL_INFO = {
    "vision": False,
    "function_calling": True,
    "json_output": False,
    "family": "unknown",
    "structured_output": False,
}


def model(tool: str, args: dict) -> ReplayChatCompletionClient:
    """A model that calls `tool` once, then answers."""
    call = CreateResult(
        finish_reason="function_calls",
        content=[FunctionCall(id="call-1", name=tool, arguments=json.dumps(args))],
        usage=RequestUsage(prompt_tokens=1, completion_tokens=1),
        cached=False,
    )
    return ReplayChatCompletionClient([call, "Finished."], model_info=MODEL_INFO)


def tool_results(result) -> list[str]:
    out = []
    for m in result.messages:
        if type(m).__name__ == "ToolCallExecutionEvent":
            out += [r.content for r in m.content]
    return out


@pytest.fixture
def provider(guard: Guard) -> PalisadeProvider:
    return PalisadeProvider(guard)


@pytest.fixture
def shell_log():
    ran: list[str] = []

    def run_shell(command: str) -> str:
        """Runs a shell command."""
        ran.append(command)
        return f"ran: {command}"

    return ran, FunctionTool(run_shell, description="Runs a shell command.")


def run(agent: AssistantAgent):
    return asyncio.run(agent.run(task="do the task"))


def test_a_denied_call_never_runs(provider, shell_log):
    ran, tool = shell_log
    agent = AssistantAgent("coder", model("run_shell", {"command": "rm -rf /srv/app"}),
                           tools=[guard_tool(tool, provider)])
    result = run(agent)
    assert ran == []
    results = tool_results(result)
    assert any("Tool call denied" in r and "dangerous-commands" in r for r in results), results


def test_an_allowed_call_runs(provider, shell_log):
    ran, tool = shell_log
    agent = AssistantAgent("coder", model("run_shell", {"command": "ls -la"}), tools=[guard_tool(tool, provider)])
    run(agent)
    assert ran == ["ls -la"]


def test_a_modified_call_runs_with_the_new_arguments(provider, shell_log):
    ran, tool = shell_log
    agent = AssistantAgent("coder", model("run_shell", {"command": f"echo {AWS_KEY} > key.txt"}),
                           tools=[guard_tool(tool, provider)])
    run(agent)
    assert ran == ["echo [REDACTED:aws_access_key_id] > key.txt"]


def test_the_provider_speaks_seed_004(provider):
    assert isinstance(provider, GuardrailProvider)
    r = asyncio.run(provider.evaluate(tool_name="run_shell", args={"command": "rm -rf /"}, agent_name="coder", call_id="c9"))
    assert r.decision is Decision.DENY and "dangerous-commands" in (r.reason or "")
    assert r.metadata["checkIds"] == ["dangerous-commands"]
    assert r.metadata["findings"][0]["checkId"] == "dangerous-commands"
    assert r.metadata["requestId"] and r.modified_args is None
    r = asyncio.run(provider.evaluate(tool_name="send", args={"token": AWS_KEY}))
    assert r.decision is Decision.MODIFY and r.modified_args == {"token": "[REDACTED:aws_access_key_id]"}
    r = asyncio.run(provider.evaluate(tool_name="send", args={"text": "hi"}))
    assert (r.decision, r.reason) == (Decision.ALLOW, None)


class Recorder:
    """A provider that records what it saw and answers as told."""

    def __init__(self, answer: GuardrailResult) -> None:
        self.answer = answer
        self.seen: list[dict] = []

    async def evaluate(self, *, tool_name, args, agent_name=None, call_id=None, cancellation_token=None):
        self.seen.append(dict(args))
        return self.answer


def test_chains_pass_rewritten_arguments_on_and_stop_at_a_deny(provider):
    after = Recorder(GuardrailResult(Decision.ALLOW))
    r = asyncio.run(evaluate_chain([provider, after], tool_name="send", args={"token": AWS_KEY}))
    assert r.decision is Decision.MODIFY
    assert after.seen == [{"token": "[REDACTED:aws_access_key_id]"}]
    deny = Recorder(GuardrailResult(Decision.DENY, reason="no"))
    never = Recorder(GuardrailResult(Decision.ALLOW))
    r = asyncio.run(evaluate_chain([deny, never, provider], tool_name="send", args={"text": "hi"}))
    assert (r.decision, r.reason, never.seen) == (Decision.DENY, "no", [])


def mcp_workbench(log: Path) -> McpWorkbench:
    server = Path(__file__).with_name("mcp_server.py")
    return McpWorkbench(StdioServerParams(command=sys.executable, args=[str(server)],
                                          env={**os.environ, "MCP_LOG": str(log)}))


def logged(log: Path) -> list[dict]:
    return [json.loads(l) for l in log.read_text().splitlines()] if log.exists() else []


@pytest.mark.parametrize(
    "tool,args,expected",
    [
        ("run_shell", {"command": "rm -rf /srv/app"}, []),
        ("run_shell", {"command": "ls"}, [{"tool": "run_shell", "args": {"command": "ls"}}]),
        ("send_message", {"text": f"key {AWS_KEY}"},
         [{"tool": "send_message", "args": {"text": "key [REDACTED:aws_access_key_id]"}}]),
    ],
    ids=["denied", "allowed", "modified"],
)
def test_an_mcp_workbench_behind_palisade(provider, tmp_path, tool, args, expected):
    log = tmp_path / "mcp.log"

    async def main():
        async with mcp_workbench(log) as workbench:
            guarded = GuardedWorkbench(workbench, provider)
            names = [t["name"] for t in await guarded.list_tools()]
            assert {"run_shell", "send_message"} <= set(names)
            agent = AssistantAgent("coder", model(tool, args), workbench=guarded)
            return await agent.run(task="do the task")

    result = asyncio.run(main())
    assert logged(log) == expected
    if not expected:
        assert any("Tool call denied" in r for r in tool_results(result))


def test_an_ask_names_the_services_approval_and_the_retry_passes_once_approved(service):
    ran = []

    def deploy(service: str, replicas: int) -> str:
        """Deploys a service."""
        ran.append({"service": service, "replicas": replicas})
        return "deployed"

    provider = PalisadeProvider(service.guard(approver=False))
    tool = guard_tool(FunctionTool(deploy, description="Deploys a service."), provider)
    args = {"service": "api", "replicas": 3}
    result = run(AssistantAgent("ops", model("deploy", args), tools=[tool]))
    assert ran == []
    [denied] = tool_results(result)
    pending = service.guard().approvals()
    assert len(pending) == 1
    approval_id = pending[0]["id"]
    assert f"approval {approval_id}" in denied
    assert f"palisade approvals approve {approval_id} --server {service.url}" in denied
    assert "the same call, sent again, then passes once" in denied
    r = asyncio.run(provider.evaluate(tool_name="deploy", args=args))
    assert r.decision is Decision.DENY and r.metadata["approval"]["url"] == f"{service.url}/v1/approvals/{r.metadata['approval']['id']}"
    # Approved out of band: the same call passes once; other arguments do not.
    service.guard().approve(approval_id)
    run(AssistantAgent("ops", model("deploy", {"service": "api", "replicas": 4}), tools=[tool]))
    assert ran == []
    run(AssistantAgent("ops", model("deploy", args), tools=[tool]))
    assert ran == [args]
    result = run(AssistantAgent("ops", model("deploy", args), tools=[tool]))
    assert ran == [args] and "Tool call denied" in tool_results(result)[0]
