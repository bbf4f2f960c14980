"""The Guard: v1 requests in, typed decisions out, from a long-lived
`palisade events` child process or a running Palisade service."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import uuid
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal, Mapping, Union

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
]

OnError = Literal["deny", "allow", "raise"]


class PalisadeError(Exception):
    """Something Palisade could not do."""


class PolicyError(PalisadeError):
    """The policy or the service config is invalid; the message names the field."""


class PalisadeUnavailable(PalisadeError):
    """No decision: the child process died or did not answer in time, or the
    service could not be reached (raised only with ``on_error="raise"``)."""


class ApprovalError(PalisadeError):
    """The service did not take an approval's answer, or approvals cannot be
    used here (a local guard, no approver key). ``status`` is the HTTP
    status and ``code`` the service's error code, when it answered."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class ApprovalForbidden(ApprovalError):
    """401/403: the key may not answer approvals (no ``guardrails:approve``
    scope, or it is the key that sent the call)."""


class ApprovalNotFound(ApprovalError):
    """404: no approval of that id for the key's tenant."""


class ApprovalNotPending(ApprovalError):
    """409/410: the approval was answered already, used, or has expired."""


@dataclass(frozen=True)
class Approval:
    """What a person can approve (PROTOCOL.md §4.10): an ``ask`` of a
    service, or a ``block`` that is only an ask nobody could be asked
    about. ``url`` is where it is answered: a path of the service
    (``/v1/approvals/ID``) or a full URL."""

    id: str
    expires_at: str
    bound: str
    url: str

    @classmethod
    def _from(cls, d: Any) -> "Approval | None":
        if not isinstance(d, Mapping) or not isinstance(d.get("id"), str):
            return None
        return cls(
            id=d["id"],
            expires_at=str(d.get("expiresAt", "")),
            bound=str(d.get("bound", "")),
            url=str(d.get("url", "")),
        )


class DecisionKind(str, Enum):
    """What the decision says."""

    ALLOW = "allow"
    BLOCK = "block"
    ASK = "ask"
    MODIFY = "modify"
    ERROR = "error"


@dataclass(frozen=True)
class Finding:
    """Why: one check that fired."""

    check_id: str
    type: str
    severity: str
    action: str
    reason_code: str
    name: str | None = None
    message: str | None = None
    suggestion: str | None = None
    field: str | None = None

    @classmethod
    def _from(cls, d: Mapping[str, Any]) -> "Finding":
        location = d.get("location") or {}
        return cls(
            check_id=d.get("checkId", ""),
            type=d.get("type", ""),
            severity=d.get("severity", ""),
            action=d.get("action", ""),
            reason_code=d.get("reasonCode", ""),
            name=d.get("name"),
            message=d.get("message"),
            suggestion=d.get("suggestion"),
            field=location.get("field"),
        )


@dataclass(frozen=True)
class Modified:
    """What a ``modify`` decision replaces: the content, the tool's
    arguments or the tool's output, redacted."""

    content: str | None = None
    arguments: Any = None
    output: Any = None


@dataclass(frozen=True)
class Decision:
    """A v1 decision (SPEC §2.2)."""

    request_id: str
    decision: DecisionKind
    allowed: bool
    reason_code: str | None = None
    message: str | None = None
    violations: tuple[Finding, ...] = ()
    warnings: tuple[Finding, ...] = ()
    replacement: str | None = None
    modified: Modified | None = None
    receipt_id: str | None = None
    approval: Approval | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Decision":
        """A decision from its wire form."""
        modified = d.get("modified")
        return cls(
            request_id=d.get("requestId", ""),
            decision=DecisionKind(d.get("decision", "error")),
            allowed=bool(d.get("allowed", False)),
            reason_code=d.get("reasonCode"),
            message=d.get("message"),
            violations=tuple(Finding._from(f) for f in d.get("violations") or ()),
            warnings=tuple(Finding._from(f) for f in d.get("warnings") or ()),
            replacement=d.get("replacement"),
            modified=None
            if modified is None
            else Modified(
                content=modified.get("content"),
                arguments=modified.get("arguments"),
                output=modified.get("output"),
            ),
            receipt_id=d.get("receiptId"),
            approval=Approval._from(d.get("approval")),
            raw=d,
        )

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Violations, then warnings."""
        return self.violations + self.warnings

    def reason(self) -> str:
        """One line saying why, for a person or a model."""
        f = next(iter(self.findings), None)
        if f is None:
            return f"Palisade: {self.message or self.reason_code or 'refused by policy'}"
        out = f"Palisade: {f.name or f.check_id}"
        if f.message:
            out += f": {f.message}"
        out += f" [{f.check_id}]"
        if f.suggestion:
            out += f". {f.suggestion}"
        return out


@dataclass
class CheckRequest:
    """A v1 request (SPEC §2.1) with Python names; a plain ``dict`` in the
    wire's camelCase names works as well. ``approval_id`` sends the call
    again under an approval a person gave (``approvalId``, PROTOCOL.md
    §4.10)."""

    stage: str | None = None
    content: str | None = None
    tool: Mapping[str, Any] | None = None
    action: Mapping[str, Any] | None = None
    request_id: str | None = None
    session_id: str | None = None
    tenant: str | None = None
    agent: Mapping[str, Any] | None = None
    context: Mapping[str, Any] | None = None
    checks: list[str] | None = None
    options: Mapping[str, Any] | None = None
    approval_id: str | None = None

    @classmethod
    def tool_use(cls, name: str, arguments: Any, **kw: Any) -> "CheckRequest":
        """A tool call about to run."""
        return cls(stage="tool_use", tool={"name": name, "arguments": arguments}, **kw)

    @classmethod
    def tool_output(cls, name: str, output: Any, **kw: Any) -> "CheckRequest":
        """A tool's result before the model sees it."""
        return cls(stage="tool_output", tool={"name": name, "output": output}, **kw)

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        names = {"request_id": "requestId", "session_id": "sessionId", "approval_id": "approvalId"}
        return {names.get(k, k): v for k, v in self.__dict__.items() if v is not None}


RequestLike = Union[CheckRequest, Mapping[str, Any]]


def _wire(request: RequestLike) -> dict[str, Any]:
    if isinstance(request, CheckRequest):
        out = request.to_json()
    elif isinstance(request, Mapping):
        out = dict(request)
    else:
        raise TypeError(f"a request is a CheckRequest or a mapping, not {type(request).__name__}")
    if not isinstance(out.get("requestId"), str) or not out.get("requestId"):
        out["requestId"] = str(uuid.uuid4())
    return out


def local_context() -> dict[str, str]:
    """The context of a tool call made by this process: its working
    directory (also the workspace) and the user's home (``~`` in paths)."""
    cwd = os.getcwd()
    return {"cwd": cwd, "workspaceRoot": cwd, "home": os.path.expanduser("~")}


def find_binary() -> str:
    """The `palisade` command: ``PALISADE_BIN``, the one this wheel installed
    next to the interpreter, else the PATH."""
    env = os.environ.get("PALISADE_BIN")
    if env:
        return env
    name = "palisade.exe" if sys.platform == "win32" else "palisade"
    for scripts in {sysconfig.get_path("scripts"), str(Path(sys.executable).parent)}:
        candidate = Path(scripts) / name
        if candidate.is_file():
            return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    raise PalisadeError("the palisade command was not found: install palisade-guardrails, or set PALISADE_BIN")


def _settle(fut: Future[dict[str, Any]], value: dict[str, Any] | Exception) -> None:
    """Settles a future the waiter may have given up on (cancelled) meanwhile."""
    try:
        if isinstance(value, Exception):
            fut.set_exception(value)
        else:
            fut.set_result(value)
    except Exception:  # InvalidStateError: cancelled or settled already
        pass


class _Child:
    """`palisade events` as a child process: JSON lines over pipes, answers
    matched by ``requestId`` (many in flight)."""

    def __init__(self, argv: list[str]) -> None:
        self._argv = argv
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._pending: dict[str, Future[dict[str, Any]]] = {}
        self._tail: list[bytes] = []
        self._errors: threading.Thread | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            return proc
        try:
            proc = subprocess.Popen(
                self._argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                env={**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "warn")},
            )
        except OSError as e:
            raise PalisadeError(f"cannot run {self._argv[0]}: {e}") from e
        self._proc = proc
        # Stderr is drained all along (a full pipe would stop the child);
        # its last lines say why the child ended.
        tail: list[bytes] = []
        errors = threading.Thread(target=self._drain, args=(proc, tail), daemon=True)
        errors.start()
        self._tail, self._errors = tail, errors
        threading.Thread(target=self._read, args=(proc, errors, tail), daemon=True).start()
        return proc

    @staticmethod
    def _drain(proc: subprocess.Popen[bytes], tail: list[bytes]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            tail.append(line)
            del tail[:-20]

    def _read(self, proc: subprocess.Popen[bytes], errors: threading.Thread, tail: list[bytes]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            try:
                value = json.loads(line)
            except ValueError:
                continue
            data = value.get("data") if value.get("event") == "guardrails:decision" else value
            if not isinstance(data, dict):
                continue
            with self._lock:
                fut = self._pending.pop(str(data.get("requestId")), None)
            if fut is not None:
                _settle(fut, data)
        # The child ended: every request still waiting fails.
        code = proc.wait()
        errors.join(timeout=5)
        err = b"".join(tail)
        why = err.decode("utf-8", "replace").strip() or f"palisade events exited with {code}"
        with self._lock:
            pending, self._pending = self._pending, {}
            if self._proc is proc:
                self._proc = None
        for fut in pending.values():
            _settle(fut, PalisadeUnavailable(why))

    def submit(self, request: dict[str, Any]) -> Future[dict[str, Any]]:
        fut: Future[dict[str, Any]] = Future()
        line = (json.dumps(request) + "\n").encode()
        with self._lock:
            proc = self._start()
            self._pending[request["requestId"]] = fut
            try:
                assert proc.stdin is not None
                proc.stdin.write(line)
            except (OSError, ValueError) as e:
                self._pending.pop(request["requestId"], None)
                fut.set_exception(PalisadeUnavailable(self._why_gone(proc) or f"palisade events is gone: {e}"))
        return fut

    def _why_gone(self, proc: subprocess.Popen[bytes]) -> str | None:
        """What a child that stopped reading said on stderr before it ended
        (a policy it cannot load, say)."""
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return None
        if self._errors is not None:
            self._errors.join(timeout=5)
        return b"".join(self._tail).decode("utf-8", "replace").strip() or None

    def forget(self, request_id: str) -> None:
        with self._lock:
            self._pending.pop(request_id, None)

    def close(self) -> None:
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is not None:
            try:
                if proc.stdin:
                    proc.stdin.close()
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()


def _cause(e: BaseException) -> str:
    """What went wrong, in words: the reason inside a ``URLError`` and the
    text of an ``OSError``, without Python's reprs (``<urlopen error …>``,
    ``[Errno 111]``)."""
    if isinstance(e, urllib.error.URLError) and not isinstance(e, urllib.error.HTTPError):
        reason = e.reason
        if isinstance(reason, BaseException):
            return _cause(reason)
        return str(reason)
    if isinstance(e, OSError) and e.strerror:
        return e.strerror[:1].lower() + e.strerror[1:]
    return str(e) or type(e).__name__


def _approval_error(e: urllib.error.HTTPError, approval_id: str | None) -> ApprovalError:
    """The service's refusal of an approvals request, as the exception of
    its status, with the service's own message."""
    raw = e.read().decode("utf-8", "replace")
    code = None
    message = raw.strip() or e.reason
    try:
        err = json.loads(raw).get("error")
        if isinstance(err, dict):
            code = err.get("code")
            message = err.get("message") or message
    except (ValueError, AttributeError):
        pass
    what = f"approval {approval_id}" if approval_id else "the approvals"
    text = f"{what}: the service answered {e.code}: {message}"
    cls: type[ApprovalError] = ApprovalError
    if e.code in (401, 403):
        cls = ApprovalForbidden
    elif e.code == 404:
        cls = ApprovalNotFound
    elif e.code in (409, 410):
        cls = ApprovalNotPending
    return cls(text, status=e.code, code=code)


def _refused(request: RequestLike, approval_id: str, e: Exception) -> Decision:
    wire = _wire(request)
    return Decision(
        request_id=wire["requestId"],
        decision=DecisionKind.BLOCK,
        allowed=False,
        reason_code="palisade.approval_failed",
        message=f"the approval {approval_id} could not be answered: {e}",
    )


class Guard:
    """Evaluates v1 requests against a policy.

    Local mode (no ``url``) keeps one ``palisade events`` child process for
    the guard's life (restarted if it dies). Remote mode (``url``) calls
    ``POST {url}/v1/check`` with ``api_key``. ``timeout`` (seconds) bounds
    each decision; ``on_error`` says what a timeout, a dead child or an
    unreachable service means: ``"deny"`` (a ``block`` decision saying why,
    the default), ``"allow"``, or ``"raise"`` (:class:`PalisadeUnavailable`).
    ``session_id`` is put on every request that names no session of its
    own, so that the policy's flow rules see one conversation as one
    session (set :attr:`session_id` when a new conversation starts).

    Approvals (remote mode only): a service's ``ask`` carries an
    :class:`Approval`; :meth:`approve`, :meth:`deny` and :meth:`approvals`
    answer and list them with ``approver_key`` (default: the environment's
    ``PALISADE_APPROVER_KEY``), a key with the ``guardrails:approve`` scope
    that is never ``api_key``. The call sent again with ``approval_id``
    then passes once.

    A policy or config that cannot be loaded raises :class:`PolicyError`
    when the guard is made.
    """

    def __init__(
        self,
        policy: str | os.PathLike[str] | None = None,
        config: str | os.PathLike[str] | None = None,
        url: str | None = None,
        api_key: str | None = None,
        timeout: float = 5.0,
        on_error: OnError = "deny",
        binary: str | None = None,
        session_id: str | None = None,
        approver_key: str | None = None,
    ) -> None:
        if on_error not in ("deny", "allow", "raise"):
            raise ValueError(f"on_error must be 'deny', 'allow' or 'raise', not {on_error!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, not {timeout!r}")
        self.timeout = timeout
        self.on_error: OnError = on_error
        self.session_id = session_id
        self._url = url.rstrip("/") if url else None
        self._api_key = api_key
        self._approver_key = approver_key if approver_key is not None else os.environ.get("PALISADE_APPROVER_KEY")
        self._child: _Child | None = None
        if self._url is None:
            argv = [binary or find_binary(), "events"]
            if policy is not None:
                argv += ["--policy", os.fspath(policy)]
            if config is not None:
                argv += ["--config", os.fspath(config)]
            self._child = _Child(argv)
            self._probe()

    def _probe(self) -> None:
        """Starts the child and waits for its first answer: a policy or
        config it cannot load ends it with the reason."""
        assert self._child is not None
        fut = self._child.submit({"requestId": f"probe-{uuid.uuid4()}", "stage": "input", "content": ""})
        try:
            fut.result(timeout=max(self.timeout, 30.0))
        except PalisadeUnavailable as e:
            self._child.close()
            raise PolicyError(str(e).removeprefix("error: ")) from None
        except FutureTimeout:
            self._child.close()
            raise PalisadeUnavailable("palisade events did not start") from None

    def _failed(self, request: dict[str, Any], why: str) -> Decision:
        if self.on_error == "raise":
            raise PalisadeUnavailable(why)
        kind = DecisionKind.ALLOW if self.on_error == "allow" else DecisionKind.BLOCK
        return Decision(
            request_id=request["requestId"],
            decision=kind,
            allowed=kind == DecisionKind.ALLOW,
            reason_code="palisade.unavailable",
            message=f"could not decide: {why} (on_error: {self.on_error})",
        )

    def _with_session(self, request: RequestLike) -> dict[str, Any]:
        wire = _wire(request)
        if self.session_id and not wire.get("sessionId"):
            wire["sessionId"] = self.session_id
        return wire

    def check(self, request: RequestLike) -> Decision:
        """Decides one request (blocking)."""
        wire = self._with_session(request)
        if self._child is None:
            try:
                return Decision.from_json(self._post(wire))
            except PalisadeUnavailable as e:
                return self._failed(wire, str(e))
        fut = self._child.submit(wire)
        try:
            return Decision.from_json(fut.result(timeout=self.timeout))
        except FutureTimeout:
            self._child.forget(wire["requestId"])
            return self._failed(wire, f"no decision within {self.timeout} s")
        except PalisadeUnavailable as e:
            return self._failed(wire, str(e))

    async def acheck(self, request: RequestLike) -> Decision:
        """Decides one request without blocking the event loop."""
        wire = self._with_session(request)
        if self._child is None:
            try:
                return Decision.from_json(await asyncio.to_thread(self._post, wire))
            except PalisadeUnavailable as e:
                return self._failed(wire, str(e))
        fut = self._child.submit(wire)
        try:
            return Decision.from_json(await asyncio.wait_for(asyncio.wrap_future(fut), self.timeout))
        except asyncio.TimeoutError:
            self._child.forget(wire["requestId"])
            return self._failed(wire, f"no decision within {self.timeout} s")
        except PalisadeUnavailable as e:
            return self._failed(wire, str(e))

    def _post(self, wire: dict[str, Any]) -> dict[str, Any]:
        assert self._url is not None
        headers = {"content-type": "application/json"}
        if self._api_key:
            headers["authorization"] = f"Bearer {self._api_key}"
        req = urllib.request.Request(
            f"{self._url}/v1/check", data=json.dumps(wire).encode(), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            body = e.read().decode("utf-8", "replace")
            raise PalisadeUnavailable(f"the service answered {e.code}: {body}") from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise PalisadeUnavailable(f"the service at {self._url} did not answer: {_cause(e)}") from None

    # Approvals (PROTOCOL.md §4.10, §7.9).

    @property
    def remote(self) -> bool:
        """Whether this guard calls a service (approvals exist only there)."""
        return self._url is not None

    @property
    def can_approve(self) -> bool:
        """Whether this guard can answer approvals: remote, with an approver key."""
        return self._url is not None and bool(self._approver_key)

    def approvals(self, state: str | None = "pending") -> list[dict[str, Any]]:
        """The tenant's approvals not yet expired, oldest first, as the
        service lists them (``GET /v1/approvals``): ``state`` is
        ``"pending"``, ``"approved"``, ``"denied"``, ``"used"`` or ``None``
        for all. Each is a dict: ``id``, ``state``, ``tool``, ``sessionId``,
        ``checks``, ``message``, ``requestedBy``, ``expiresAt``, …"""
        if state is not None and state not in ("pending", "approved", "denied", "used"):
            raise ValueError(f"state must be 'pending', 'approved', 'denied', 'used' or None, not {state!r}")
        path = "/v1/approvals" + (f"?state={state}" if state else "")
        body = self._approver("GET", path, None, None)
        return list(body.get("approvals") or [])

    def approve(self, approval_id: str, note: str | None = None) -> dict[str, Any]:
        """Approves the approval ``approval_id``: the call it is bound to,
        sent again with ``approval_id``, then passes once. The approval as
        answered. Raises :class:`ApprovalForbidden` (the key may not),
        :class:`ApprovalNotFound`, :class:`ApprovalNotPending` (answered,
        used or expired), :class:`ApprovalError`."""
        return self._answer(approval_id, "approve", note)

    def deny(self, approval_id: str, note: str | None = None) -> dict[str, Any]:
        """Denies the approval ``approval_id``; as :meth:`approve`."""
        return self._answer(approval_id, "deny", note)

    def _answer(self, approval_id: str, decision: str, note: str | None) -> dict[str, Any]:
        if not isinstance(approval_id, str) or not approval_id:
            raise ValueError(f"approval_id must be a non-empty string, not {approval_id!r}")
        if note is not None and not isinstance(note, str):
            raise ValueError(f"note must be a string or None, not {type(note).__name__}")
        body: dict[str, Any] = {"decision": decision}
        if note is not None:
            body["note"] = note
        return self._approver("POST", f"/v1/approvals/{urllib.parse.quote(approval_id, safe='')}", body, approval_id)

    def _approver(self, method: str, path: str, body: Any, approval_id: str | None) -> dict[str, Any]:
        if self._url is None:
            raise ApprovalError(
                "approvals exist only at a Palisade service: this guard runs `palisade events` locally, "
                "which keeps none; make it with Guard(url=..., api_key=..., approver_key=...)"
            )
        if not self._approver_key:
            raise ApprovalError(
                "no approver key: give Guard(approver_key=...) or set PALISADE_APPROVER_KEY to a key with "
                "the guardrails:approve scope (the agent's api_key is never used to approve)"
            )
        headers = {"authorization": f"Bearer {self._approver_key}"}
        data = None
        if body is not None:
            headers["content-type"] = "application/json"
            data = json.dumps(body).encode()
        req = urllib.request.Request(f"{self._url}{path}", data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            raise _approval_error(e, approval_id) from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise PalisadeUnavailable(f"the service at {self._url} did not answer: {_cause(e)}") from None

    def approval_url(self, approval: Approval) -> str:
        """Where ``approval`` is answered, as a full URL."""
        if approval.url.startswith(("http://", "https://")) or self._url is None:
            return approval.url
        return f"{self._url}{approval.url}"

    def explain(self, d: Decision) -> str:
        """:meth:`Decision.reason`, and with an approval, where a person
        approves it and that the same call, sent again, then passes once."""
        why = d.reason()
        a = d.approval
        if a is None:
            return why
        server = self._url or "URL"
        return (
            f"{why.rstrip('.')}. A person can approve this exact call: approval {a.id} (until {a.expires_at}), "
            f"with `palisade approvals approve {a.id} --server {server}` or POST {self.approval_url(a)}; "
            "the same call, sent again, then passes once"
        )

    def _approved_request(self, request: RequestLike, approval_id: str) -> dict[str, Any]:
        wire = _wire(request)
        wire["requestId"] = str(uuid.uuid4())
        wire["approvalId"] = approval_id
        return wire

    def confirm(self, request: RequestLike, approval_id: str, note: str | None = None) -> Decision:
        """A person said yes to the call ``request`` asked about: approves
        ``approval_id`` with the approver key and sends the same call again
        under it. The service's decision: ``allow`` (``approval.applied``)
        when it is the exact call approved, unused; otherwise the usual
        decision with a warning saying why. An approval answered already
        is not an error here (the service decides by its state); another
        failure to approve is a ``block`` saying why."""
        try:
            self.approve(approval_id, note)
        except ApprovalNotPending:
            pass
        except ApprovalError as e:
            return _refused(request, approval_id, e)
        return self.check(self._approved_request(request, approval_id))

    async def aconfirm(self, request: RequestLike, approval_id: str, note: str | None = None) -> Decision:
        """:meth:`confirm` without blocking the event loop."""
        try:
            await asyncio.to_thread(self.approve, approval_id, note)
        except ApprovalNotPending:
            pass
        except ApprovalError as e:
            return _refused(request, approval_id, e)
        return await self.acheck(self._approved_request(request, approval_id))

    def close(self) -> None:
        """Stops the child process (a remote guard has nothing to stop)."""
        if self._child is not None:
            self._child.close()

    def __enter__(self) -> "Guard":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
