"""Shared fixtures: policies written for the test, and a guard on each."""

from __future__ import annotations

from pathlib import Path

import pytest

from palisade_guardrails import Guard

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
