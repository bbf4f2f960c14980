"""End-to-end tests of `palisade hook` inside the real coding agents:
Claude Code, Codex and Gemini CLI, each run offline against fake_models.py,
which answers each turn with a scripted tool call.

Each scenario runs a host in a fresh directory and checks from outside what
happened: a directory the test made still exists after a recursive delete
was attempted, a secret file's content never reached the model, an allowed
call ran, a rewritten call ran rewritten, a tool's credential output never
reached the model. For Codex and Gemini CLI, which cannot ask, a call
refused by a running `palisade serve` is approved with `palisade approvals
approve` and passes once when the agent retries it. For Claude Code, an MCP
server wrapped by `palisade mcp wrap` is guarded by the gateway alone.

Usage: python3 e2e/hosts.py PALISADE_BINARY [HOST ...]
The hosts are found through CLAUDE_BIN, CODEX_BIN and GEMINI_JS, the npm
MCP servers' node_modules through MCP_MODULES (set by .ci/run after `npm
install`); a host or server that is not found fails the run.
Exit code 0 when every scenario passed.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import Failure

HERE = Path(__file__).resolve().parent
PALISADE = str(Path(sys.argv[1]).resolve())
SECRET = "sk_live_e2eSecretMarker9d7Qx"
AWS_KEY = "AKIAZ7QK3M9XWTR2PLNB"

# A policy that also rewrites tool calls: credentials in a call's arguments
# are replaced by placeholders (the default policy only blocks or asks
# before a tool runs).
REDACT_POLICY = """\
checks:
  - id: keys-in-calls
    stage: tool_use
    type: secrets
    on_fail: redact
  - id: dangerous-commands
    stage: tool_use
    type: command
    on_fail: ask
"""


class Models:
    """fake_models.py as a child process."""

    def __init__(self, root, script):
        self.script = root / "script.json"
        self.record = root / "record.jsonl"
        self.script.write_text(json.dumps(script))
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "fake_models.py"), str(self.script), str(self.record)],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.port = int(self.proc.stdout.readline())

    def requests(self):
        """The requests recorded so far. A line the server is still writing
        (a large body can take more than one write) is left for a later
        read."""
        if not self.record.exists():
            return []
        text = self.record.read_text()
        whole = text[: text.rfind("\n") + 1]
        return [json.loads(line) for line in whole.splitlines()]

    def seen(self):
        """Everything the model was sent, as one text."""
        return self.record.read_text() if self.record.exists() else ""

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Service:
    """`palisade serve` on a free port, with a service config if given."""

    def __init__(self, root, config=None, env=None):
        argv = [PALISADE, "serve", "--listen", "127.0.0.1:0"]
        if config:
            argv += ["--config", str(config)]
        self.proc = subprocess.Popen(
            argv,
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "RUST_LOG": "warn", **(env or {})},
        )
        line = self.proc.stdout.readline().strip()
        if not line.startswith("palisade listening on "):
            self.proc.wait()
            raise Failure(f"palisade serve did not start (exit code {self.proc.returncode}): {line!r}")
        self.url = line.removeprefix("palisade listening on ")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def install(host, scope, cwd, env, policy=None, server=None):
    """`palisade hooks install HOST`: the hosts run with the configuration
    Palisade writes, as a user's would."""
    argv = [PALISADE, "hooks", "install", host, "--scope", scope]
    if policy:
        argv += ["--policy", str(policy)]
    if server:
        argv += ["--server", server]
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise Failure(f"hooks install {host} failed: {done.stdout} {done.stderr}")


class ClaudeCode:
    name = "claude-code"
    shell = "Bash"

    def __init__(self):
        self.bin = os.environ.get("CLAUDE_BIN") or shutil.which("claude")
        if not self.bin:
            raise Failure("Claude Code not found (set CLAUDE_BIN)")

    def shell_call(self, line):
        return {"tool": "Bash", "input": {"command": line, "description": "run it"}}

    def shell_call_in(self, line, directory):
        # Bash has no working directory of its own.
        return self.shell_call(f"cd {directory} && {line}")

    def read_call(self, path):
        return {"tool": "Read", "input": {"file_path": str(path)}}

    def scoped_read_call(self, work):
        # Claude Code's Grep names the file by its filter, under a path.
        return {"tool": "Grep", "input": {"pattern": ".", "path": str(work / ".aws"),
                                          "glob": "credentials", "output_mode": "content"}}

    def run(self, root, work, port, policy=None, http=None):
        argv, env = self.command(root, work, port, policy=policy, http=http)
        return subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=120)

    def command(self, root, work, port, policy=None, http=None, env=None, hooks=True, tools=()):
        """The host's argv and environment, its hooks installed (unless
        not `hooks`); `tools`: more tools it may run without asking."""
        config = root / "config"
        config.mkdir(exist_ok=True)
        env = {
            **os.environ,
            **(env or {}),
            "HOME": str(root),
            "CLAUDE_CONFIG_DIR": str(config),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        if hooks:
            install(self.name, "project", work, env, policy=policy, server=http)
        allowed = " ".join(["Bash", "Read", "Write", "Edit", "Grep", *tools])
        argv = [self.bin, "-p", "do the task", "--output-format", "json", "--allowedTools", allowed]
        return argv, env


class Codex:
    name = "codex"
    shell = "exec_command"

    def __init__(self):
        self.bin = os.environ.get("CODEX_BIN") or shutil.which("codex")
        if not self.bin:
            raise Failure("Codex not found (set CODEX_BIN)")

    def shell_call(self, line):
        return {"tool": "exec_command", "input": {"cmd": line}}

    def shell_call_in(self, line, directory):
        return {"tool": "exec_command", "input": {"cmd": line, "workdir": str(directory)}}

    def read_call(self, path):
        return self.shell_call(f"cat {path}")

    def scoped_read_call(self, work):
        # The file is relative to the command's own working directory.
        return {"tool": "exec_command", "input": {"cmd": "cat credentials", "workdir": str(work / ".aws")}}

    def run(self, root, work, port, policy=None, http=None):
        argv, env = self.command(root, work, port, policy=policy, http=http)
        return subprocess.run(
            argv, cwd=work, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
        )

    def command(self, root, work, port, policy=None, http=None, env=None):
        """The host's argv and environment, its hooks installed."""
        home = root / "codex"
        home.mkdir()
        (home / "config.toml").write_text(
            'model = "gpt-5"\nmodel_provider = "fake"\n'
            "[model_providers.fake]\n"
            f'name = "fake"\nbase_url = "http://127.0.0.1:{port}/v1"\nwire_api = "responses"\nenv_key = "FAKE_KEY"\n'
        )
        env = {**os.environ, **(env or {}), "HOME": str(root), "CODEX_HOME": str(home), "FAKE_KEY": "x",
               "CODEX_BIN": self.bin}
        # Installing records Codex's trust in the hooks (through Codex's own
        # app-server): no --dangerously-bypass-hook-trust below.
        install(self.name, "user", work, env, policy=policy, server=http)
        argv = [
            self.bin, "exec", "--json", "--skip-git-repo-check",
            "--sandbox", "danger-full-access", "do the task",
        ]
        return argv, env


class Gemini:
    name = "gemini-cli"
    shell = "run_shell_command"

    def __init__(self):
        self.js = os.environ.get("GEMINI_JS")
        if not self.js:
            raise Failure("Gemini CLI not found (set GEMINI_JS)")

    def shell_call(self, line):
        return {"tool": "run_shell_command", "input": {"command": line, "description": "run it"}}

    def shell_call_in(self, line, directory):
        return {"tool": "run_shell_command",
                "input": {"command": line, "description": "run it", "dir_path": str(directory)}}

    def read_call(self, path):
        # Gemini CLI itself refuses to read `.env` files (before any hook
        # runs), so its secret file is a private key.
        return {"tool": "read_file", "input": {"file_path": str(path.parent / "id_rsa")}}

    def scoped_read_call(self, work):
        # The file is relative to the command's own directory.
        return {"tool": "run_shell_command",
                "input": {"command": "cat credentials", "dir_path": str(work / ".aws"), "description": "run it"}}

    def run(self, root, work, port, policy=None, http=None):
        argv, env = self.command(root, work, port, policy=policy, http=http)
        return subprocess.run(
            argv, cwd=work, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
        )

    def command(self, root, work, port, policy=None, http=None, env=None):
        """The host's argv and environment, its hooks installed."""
        settings = root / ".gemini"
        settings.mkdir()
        (settings / "settings.json").write_text(json.dumps({
            "security": {"folderTrust": {"enabled": False}, "auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
        }))
        env = {
            **os.environ,
            **(env or {}),
            "HOME": str(root),
            "GEMINI_API_KEY": "x",
            "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
        }
        install(self.name, "user", work, env, policy=policy, server=http)
        argv = ["node", self.js, "-p", "do the task", "--output-format", "json", "--yolo", "-m", "gemini-2.5-pro"]
        return argv, env


def scenario(host, name, call, check, policy=None, http=False, prepare=None):
    root = Path(tempfile.mkdtemp(prefix=f"palisade-e2e-{host.name}-"))
    work = root / "work"
    work.mkdir()
    (work / "victim").mkdir()
    (work / "victim" / "keep.txt").write_text("still here\n")
    (work / ".env").write_text(f"STRIPE_KEY={SECRET}\n")
    (work / "id_rsa").write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n")
    (work / "creds.txt").write_text(f"aws_access_key_id = {AWS_KEY}\n")
    if prepare:
        prepare(work)
    policy_path = None
    if policy:
        policy_path = root / "policy.yaml"
        policy_path.write_text(policy)
    models = Models(root, {**call(host, work), "text": "Finished."})
    service = Service(root) if http else None
    started = time.monotonic()
    try:
        run = host.run(root, work, models.port, policy=policy_path, http=service.url if service else None)
        took = time.monotonic() - started
        paths = [r["path"].split("?")[0] for r in models.requests()]
        if not any(p.endswith(("/messages", "/responses")) or "GenerateContent" in p for p in paths):
            raise Failure(f"the host never called the model: {run.stdout[-800:]} {run.stderr[-800:]}")
        check(host, work, models, run)
        print(f"ok   {host.name}: {name} ({took:.1f} s)")
        return True
    except Failure as e:
        print(f"FAIL {host.name}: {name}: {e}")
        return False
    finally:
        models.stop()
        if service:
            service.stop()
        shutil.rmtree(root, ignore_errors=True)


def tool_results(models):
    """The texts the host sent back to the model as tool results, in order:
    those of the request that holds the most (each request carries the
    conversation so far)."""
    best = []
    for r in models.requests():
        out = tool_results_of(r)
        if len(out) >= len(best):
            best = out
    return best


def tool_results_of(request):
    """The tool results one request to the model carries."""
    body = request.get("body") or {}
    out = []
    if isinstance(body, dict):
        for m in body.get("messages", []) or []:
            if isinstance(m.get("content"), list):
                for c in m["content"]:
                    if isinstance(c, dict) and c.get("type") == "tool_result":
                        out.append(json.dumps(c.get("content")))
        for item in body.get("input", []) or []:
            if isinstance(item, dict) and item.get("type", "").endswith("call_output"):
                out.append(json.dumps(item.get("output")))
        for c in body.get("contents", []) or []:
            for p in c.get("parts", []) or []:
                if "functionResponse" in p:
                    out.append(json.dumps(p["functionResponse"]))
    return out


def expect(cond, what):
    if not cond:
        raise Failure(what)


def delete_blocked(host, work, models, run):
    expect((work / "victim" / "keep.txt").exists(), "the directory was deleted")
    results = tool_results(models)
    expect(any("dangerous-commands" in r for r in results), f"the model was not told why: {results}")


def secret_never_sent(host, work, models, run):
    expect(SECRET not in models.seen(), "the secret reached the model")
    results = tool_results(models)
    expect(any("secret-files" in r for r in results), f"the model was not told why: {results}")


def allowed_ran(host, work, models, run):
    expect((work / "made.txt").exists(), f"the allowed call did not run: {tool_results(models)}")


def rewritten(host, work, models, run):
    out = work / "out.txt"
    expect(out.exists(), f"the rewritten call did not run: {tool_results(models)}")
    text = out.read_text()
    expect(AWS_KEY not in text and "[REDACTED:aws_access_key_id]" in text, f"out.txt holds {text!r}")


def aws_credentials(work):
    (work / ".aws").mkdir()
    (work / ".aws" / "credentials").write_text(f"[default]\nnote = {SECRET}\n")


def output_withheld(host, work, models, run):
    expect(AWS_KEY not in models.seen(), "the credential in the tool's output reached the model")


SCENARIOS = [
    ("a recursive delete is blocked", lambda h, w: h.shell_call("rm -rf victim"), delete_blocked, {}),
    ("a secret file is never read", lambda h, w: h.read_call(w / ".env"), secret_never_sent, {}),
    ("a harmless call runs", lambda h, w: h.shell_call("touch made.txt"), allowed_ran, {}),
    (
        "a credential in a call is rewritten to a placeholder",
        lambda h, w: h.shell_call(f"echo {AWS_KEY} > out.txt"),
        rewritten,
        {"policy": REDACT_POLICY},
    ),
    ("a credential in tool output never reaches the model",
     lambda h, w: h.shell_call("cat creds.txt"), output_withheld, {}),
    ("a secret file named by the tool's own directory or filter is never read",
     lambda h, w: h.scoped_read_call(w), secret_never_sent, {"prepare": aws_credentials}),
]


# Codex itself refuses `rm -f` in any spelling (even once a hook let it
# through), so the deletes that ask here are `rm -r`.
APPROVALS_POLICY = """\
checks:
  - id: recursive-deletes
    stage: tool_use
    type: command
    commands: ["rm -r *"]
    on_fail: ask
"""

APPROVALS_CONFIG = """\
policy: policy.yaml
keys:
  - { id: agent, env: PALISADE_AGENT_KEY, tenant: default, scopes: ["guardrails:check"] }
  - { id: lead, env: PALISADE_LEAD_KEY, tenant: default, scopes: ["guardrails:approve"] }
audit: { path: audit.jsonl }
approvals: { ttl_secs: 900 }
"""

AGENT_KEY = "agent-secret-e2e-1"
LEAD_KEY = "lead-secret-e2e-1"
APPROVAL_ID = re.compile(r"palisade approvals approve ([0-9a-f-]{36})(?: --server (\S+?))?`")


def wait_for_results(models, host, n, what, deadline):
    """The host's tool results once the model has been sent at least n."""
    while time.monotonic() < deadline:
        results = tool_results(models)
        if len(results) >= n:
            return results
        if host.poll() is not None:
            raise Failure(f"the host ended (exit code {host.returncode}) before {what}: {results}")
        time.sleep(0.05)
    raise Failure(f"timed out waiting for {what}: {tool_results(models)}")


def palisade(*argv, key=None, cwd=None):
    env = {**os.environ, "PALISADE_API_KEY": key} if key else os.environ
    return subprocess.run([PALISADE, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def approvals_scenario(host):
    """A host that cannot ask (Codex, Gemini CLI; Claude Code in `-p` mode,
    which takes an ask for a refusal): the refused call names the command that
    approves it; a person approves it with the real CLI; the agent's retry
    of the same call (in the same session) passes once; the same call from
    another session or with another working directory, and the approved
    call sent a second time, are refused. The audit log verifies with its
    approval links."""
    name = "an approved call passes once on retry, nothing else does"
    root = Path(tempfile.mkdtemp(prefix=f"palisade-e2e-{host.name}-approvals-"))
    work = root / "work"
    (work / "victim").mkdir(parents=True)
    (work / "victim" / "keep.txt").write_text("still here\n")
    other = work / "other"
    (other / "victim").mkdir(parents=True)
    (other / "victim" / "keep.txt").write_text("still here\n")
    (root / "policy.yaml").write_text(APPROVALS_POLICY)
    (root / "config.yaml").write_text(APPROVALS_CONFIG)
    delete = host.shell_call("rm -r victim")
    steps = [
        # 1: refused, with an approval.
        delete,
        # 2: after the approval, the same command in another directory.
        {**host.shell_call_in("rm -r victim", other), "wait": "approved"},
        # 3: the approved call, as it was.
        delete,
        # 4: the approved call once more (its directory made again).
        {**delete, "wait": "remade"},
    ]
    models = Models(root, {"steps": steps, "text": "Finished."})
    service = None
    proc = None
    started = time.monotonic()
    try:
        service = Service(root, config=root / "config.yaml",
                          env={"PALISADE_AGENT_KEY": AGENT_KEY, "PALISADE_LEAD_KEY": LEAD_KEY})
        argv, env = host.command(root, work, models.port, http=service.url,
                                 env={"PALISADE_API_KEY": AGENT_KEY})
        # One run of the host, in one session, with the time the other
        # scenarios give a run.
        with open(root / "host.log", "w") as log:
            # A session of its own: stopped with its children on failure.
            proc = subprocess.Popen(argv, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                    start_new_session=True)
        deadline = time.monotonic() + 120

        first = wait_for_results(models, proc, 1, "the first call's result", deadline)[0]
        expect((work / "victim" / "keep.txt").exists(), "the directory was deleted before any approval")
        found = APPROVAL_ID.search(first.replace("\\`", "`"))
        expect(found, f"the model was not told how to approve the call: {first}")
        approval, url = found.group(1), found.group(2)
        # `palisade hook --server URL` names the service it asked; Claude
        # Code's HTTP hook posts to the service, whose answer names none.
        expect(url == service.url or (url is None and host.name == "claude-code"),
               f"the block names the service {url}, not {service.url}")
        url = service.url

        # The agent's own key may not approve.
        done = palisade("approvals", "approve", approval, "--server", url, key=AGENT_KEY)
        expect(done.returncode != 0 and "guardrails:approve" in done.stderr,
               f"the agent's key approved its own call: {done.returncode} {done.stdout} {done.stderr}")
        done = palisade("approvals", "approve", approval, "--server", url, key=LEAD_KEY)
        expect(done.returncode == 0 and f"approved {approval}" in done.stdout,
               f"approve failed: {done.returncode} {done.stdout} {done.stderr}")

        # The approved call from another session (a second run of the host,
        # in the same directory, while the first waits): refused.
        elsewhere = root / "second"
        elsewhere.mkdir()
        second = Models(elsewhere, {**delete, "text": "Finished."})
        try:
            argv2, env2 = host.command(elsewhere, work, second.port, http=service.url,
                                       env={"PALISADE_API_KEY": AGENT_KEY})
            subprocess.run(argv2, cwd=work, env=env2, capture_output=True, text=True,
                           timeout=max(deadline - time.monotonic(), 1), stdin=subprocess.DEVNULL)
            theirs = tool_results(second)
        finally:
            second.stop()
        expect((work / "victim" / "keep.txt").exists(), "another session used the approval")
        expect(len(theirs) == 1 and "recursive-deletes" in theirs[0] and approval not in theirs[0],
               f"another session's call was not refused on its own: {theirs}")
        (root / "approved").touch()

        results = wait_for_results(models, proc, 3, "the approved call's result", deadline)
        expect((other / "victim" / "keep.txt").exists(),
               f"the approval let through the call in another directory: {results[1]}")
        expect("recursive-deletes" in results[1] and approval not in results[1],
               f"the call in another directory was not refused on its own: {results[1]}")
        expect(not (work / "victim").exists(), f"the approved call did not run: {results[2]}")
        expect("Palisade" not in results[2], f"the approved call was refused: {results[2]}")

        (work / "victim").mkdir()
        (work / "victim" / "keep.txt").write_text("made again\n")
        (root / "remade").touch()
        results = wait_for_results(models, proc, 4, "the second use's result", deadline)
        try:
            proc.wait(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            raise Failure("the host did not finish") from None
        expect((work / "victim" / "keep.txt").exists(), f"the approval was used twice: {results[3]}")
        again = APPROVAL_ID.search(results[3].replace("\\`", "`"))
        expect("recursive-deletes" in results[3] and again and again.group(1) != approval,
               f"the second use was not refused with a new approval: {results[3]}")

        service.stop()
        verified = palisade("audit", "verify", str(root / "audit.jsonl"))
        # Four asks (the first call, the other session, the other
        # directory, the second use), the answer and the use.
        expect(verified.returncode == 0 and "6 approval links" in verified.stdout,
               f"audit verify: {verified.returncode} {verified.stdout} {verified.stderr}")
        print(f"ok   {host.name}: {name} ({time.monotonic() - started:.1f} s)")
        return True
    except Failure as e:
        print(f"FAIL {host.name}: {name}: {e}")
        return False
    finally:
        if proc and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        models.stop()
        if service:
            service.stop()
        shutil.rmtree(root, ignore_errors=True)


NOTES = "notes-marker-7Qx2: the allowed read ran\n"


def package_bin(modules, name):
    """The file a package's `bin` runs."""
    root = Path(modules) / name
    bin_field = json.loads((root / "package.json").read_text())["bin"]
    return str(root / (bin_field if isinstance(bin_field, str) else next(iter(bin_field.values()))))


def wrapped_mcp_scenario(host):
    """Claude Code with the reference filesystem MCP server in the
    project's `.mcp.json`, wrapped by `palisade mcp wrap claude-code` (no
    hooks installed: the gateway alone decides). The model reads a secret
    file inside the server's root, which the server would serve, and a
    harmless one, and writes a file with a credential, which the policy
    replaces. `palisade mcp unwrap` gives the file back byte for byte."""
    name = "a wrapped MCP server's calls are refused, run or rewritten by the gateway"
    modules = os.environ.get("MCP_MODULES")
    if not modules:
        print(f"FAIL {host.name}: {name}: the MCP servers' node_modules not found (set MCP_MODULES)")
        return False
    root = Path(tempfile.mkdtemp(prefix=f"palisade-e2e-{host.name}-mcp-"))
    work = root / "work"
    work.mkdir()
    (work / ".env").write_text(f"STRIPE_KEY={SECRET}\n")
    (work / "notes.txt").write_text(NOTES)
    server = package_bin(modules, "@modelcontextprotocol/server-filesystem")
    # A file as a person writes it: two-space indentation, a trailing
    # newline, another member after the servers.
    original = (
        '{\n  "mcpServers": {\n    "fs": {\n      "command": "node",\n'
        f'      "args": [{json.dumps(server)}, {json.dumps(str(work))}]\n'
        '    }\n  },\n  "note": "kept as it is"\n}\n'
    ).encode()
    (work / ".mcp.json").write_bytes(original)
    config = root / "config"
    config.mkdir()
    # Claude Code starts a project's servers once they are approved.
    (config / "settings.json").write_text(json.dumps({"enableAllProjectMcpServers": True}))
    # The default policy, and credentials in a call's arguments replaced.
    (root / "policy.yaml").write_text(
        "extends: default\nchecks:\n"
        "  - { id: keys-in-calls, stage: tool_use, type: secrets, on_fail: redact }\n"
    )
    read, write = "mcp__fs__read_text_file", "mcp__fs__write_file"
    # The write comes first: after a read, the default policy's flow
    # rules would ask about a write (the session has read a file).
    steps = [
        {"tool": write, "input": {"path": str(work / "out.txt"), "content": f"aws_access_key_id = {AWS_KEY}\n"}},
        {"tool": read, "input": {"path": str(work / ".env")}},
        {"tool": read, "input": {"path": str(work / "notes.txt")}},
    ]
    models = Models(root, {"steps": steps, "text": "Finished."})
    started = time.monotonic()
    try:
        # Every tool in the request (not found through a search first).
        argv, env = host.command(root, work, models.port, hooks=False, tools=[read, write],
                                 env={"ENABLE_TOOL_SEARCH": "false"})
        done = subprocess.run([PALISADE, "mcp", "wrap", "claude-code", "--scope", "project",
                               "--policy", str(root / "policy.yaml")],
                              cwd=work, env=env, capture_output=True, text=True, timeout=60)
        expect(done.returncode == 0 and "fs: wrapped" in done.stdout,
               f"mcp wrap: {done.returncode} {done.stdout} {done.stderr}")
        entry = json.loads((work / ".mcp.json").read_text())["mcpServers"]["fs"]
        expect(entry["command"] == PALISADE and entry["args"][:2] == ["mcp-proxy", "--policy"]
               and entry["args"][3:6] == ["--name", "fs", "--"],
               f"the entry is not wrapped: {entry}")

        run = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=120,
                             stdin=subprocess.DEVNULL)
        results = tool_results(models)
        expect(len(results) == 3, f"the model got {len(results)} tool results: {results} "
                                  f"{run.stdout[-800:]} {run.stderr[-800:]}")
        expect(SECRET not in models.seen(), "the secret file's content reached the model")
        expect("blocked by policy" in results[1] and "secret-files" in results[1],
               f"the refused call's result does not give Palisade's reason: {results[1]}")
        expect("notes-marker-7Qx2" in results[2], f"the allowed call did not run: {results[2]}")
        flags = [c.get("is_error", False)
                 for r in models.requests() if len(tool_results_of(r)) == 3
                 for m in r["body"]["messages"] if isinstance(m.get("content"), list)
                 for c in m["content"] if isinstance(c, dict) and c.get("type") == "tool_result"]
        expect(flags == [False, True, False], f"the refused call is not an error to the model: {flags}")
        out = work / "out.txt"
        written = out.read_text() if out.exists() else None
        expect(written == "aws_access_key_id = [REDACTED:aws_access_key_id]\n",
               f"the call carrying a credential was not forwarded rewritten: out.txt holds {written!r}")

        done = subprocess.run([PALISADE, "mcp", "unwrap", "claude-code", "--scope", "project"],
                              cwd=work, env=env, capture_output=True, text=True, timeout=60)
        expect(done.returncode == 0 and "fs: unwrapped" in done.stdout,
               f"mcp unwrap: {done.returncode} {done.stdout} {done.stderr}")
        expect((work / ".mcp.json").read_bytes() == original,
               f"unwrap did not restore the file: {(work / '.mcp.json').read_text()!r}")
        print(f"ok   {host.name}: {name} ({time.monotonic() - started:.1f} s)")
        return True
    except Failure as e:
        print(f"FAIL {host.name}: {name}: {e}")
        return False
    finally:
        models.stop()
        shutil.rmtree(root, ignore_errors=True)


def main():
    wanted = sys.argv[2:] or ["claude-code", "codex", "gemini-cli"]
    hosts = {"claude-code": ClaudeCode, "codex": Codex, "gemini-cli": Gemini}
    ok = True
    for name in wanted:
        try:
            host = hosts[name]()
        except Failure as e:
            print(f"FAIL {name}: {e}")
            ok = False
            continue
        for title, call, check, opts in SCENARIOS:
            ok &= scenario(host, title, call, check, **opts)
        ok &= approvals_scenario(host)
        if name == "claude-code":
            ok &= scenario(host, "the HTTP hook blocks a recursive delete",
                           lambda h, w: h.shell_call("rm -rf victim"), delete_blocked, http=True)
            ok &= wrapped_mcp_scenario(host)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
