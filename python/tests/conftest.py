"""Shared fixtures: policies written for the test, and a guard on each."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from palisade_guardrails import Guard, find_binary

# Credentials in a tool call's arguments are replaced by placeholders; the
# rest is the default policy's command check.
REDACT_POLICY = """\
checks:
  - { id: keys-in-calls, stage: tool_use, type: secrets, on_fail: redact }
  - { id: dangerous-commands, stage: tool_use, type: command, on_fail: ask }
"""

AWS_KEY = "AKIAZ7QK3M9XWTR2PLNB"


@pytest.fixture
def redact_policy(tmp_path: Path) -> Path:
    p = tmp_path / "policy.yaml"
    p.write_text(REDACT_POLICY)
    return p


@pytest.fixture
def guard(redact_policy: Path):
    with Guard(policy=redact_policy) as g:
        yield g


# A service that asks before `deploy` and before dangerous commands, with an
# agent's key and an approver's key of the same tenant, and an audit log.
ASK_POLICY = """\
checks:
  - { id: confirm-deploy, stage: tool_use, type: tool_pattern, tools: [deploy], on_fail: ask }
  - { id: keys-in-calls, stage: tool_use, type: secrets, on_fail: redact }
"""

SERVICE_CONFIG = """\
policy: policy.yaml
keys:
  - { id: bot, env: PY_APPROVALS_BOT_KEY, tenant: default, scopes: ["guardrails:check"] }
  - { id: lead, env: PY_APPROVALS_LEAD_KEY, tenant: default, scopes: ["guardrails:approve"] }
audit: { path: audit.jsonl }
"""

BOT_KEY = "bot-secret-py"
LEAD_KEY = "lead-secret-py"


class Service:
    """A running `palisade serve` (the real binary, an ephemeral port)."""

    def __init__(self, url: str, audit: Path) -> None:
        self.url, self.audit = url, audit

    def guard(self, approver: bool = True, **kw) -> Guard:
        return Guard(url=self.url, api_key=BOT_KEY, approver_key=LEAD_KEY if approver else "", **kw)

    def audit_records(self) -> list[dict]:
        return [json.loads(l) for l in self.audit.read_text().splitlines()] if self.audit.exists() else []


@pytest.fixture
def service(tmp_path: Path):
    (tmp_path / "policy.yaml").write_text(ASK_POLICY)
    config = tmp_path / "service.yaml"
    config.write_text(SERVICE_CONFIG)
    env = {**os.environ, "PY_APPROVALS_BOT_KEY": BOT_KEY, "PY_APPROVALS_LEAD_KEY": LEAD_KEY, "RUST_LOG": "warn"}
    env.pop("PALISADE_APPROVER_KEY", None)
    proc = subprocess.Popen(
        [find_binary(), "serve", "--config", str(config), "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )
    try:
        line = proc.stdout.readline().strip()
        if not line.startswith("palisade listening on "):
            proc.kill()
            raise RuntimeError(f"palisade serve did not start: {line} {proc.stderr.read()}")
        yield Service(line.removeprefix("palisade listening on "), tmp_path / "audit.jsonl")
    finally:
        proc.terminate()
        proc.wait()
