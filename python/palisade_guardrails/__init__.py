"""Palisade's guardrails for Python agents.

>>> from palisade_guardrails import Guard, CheckRequest
>>> with Guard() as guard:                       # the embedded default policy
...     d = guard.check(CheckRequest.tool_use("bash", {"command": "rm -rf /"}))
...     d.decision.value, d.allowed
('block', False)

``Guard`` runs the ``palisade`` command this package installs (``palisade
events``, one long-lived child process) or calls a running service
(``Guard(url=..., api_key=...)``). Framework guardrails: ``palisade_guardrails.autogen``.
"""

from ._guard import (
    Approval,
    ApprovalError,
    ApprovalForbidden,
    ApprovalNotFound,
    ApprovalNotPending,
    CheckRequest,
    Decision,
    DecisionKind,
    Finding,
    Guard,
    Modified,
    PalisadeError,
    PalisadeUnavailable,
    PolicyError,
    find_binary,
)

__all__ = [
    "Approval",
    "ApprovalError",
    "ApprovalForbidden",
    "ApprovalNotFound",
    "ApprovalNotPending",
    "CheckRequest",
    "Decision",
    "DecisionKind",
    "Finding",
    "Guard",
    "Modified",
    "PalisadeError",
    "PalisadeUnavailable",
    "PolicyError",
    "find_binary",
]
__version__ = "0.1.0"
