"""End-to-end tests of `palisade hook` inside the real coding agents:
Claude Code, Codex and Gemini CLI, each run offline against fake_models.py,
which answers the first turn with one scripted tool call.

Each scenario runs a host in a fresh directory and checks from outside what
happened: a directory the test made still exists after a recursive delete
was attempted, a secret file's content never reached the model, an allowed
call ran, a rewritten call ran rewritten, a tool's credential output never
reached the model.

Usage: python3 e2e/hosts.py PALISADE_BINARY [HOST ...]
The hosts are found through CLAUDE_BIN, CODEX_BIN and GEMINI_JS (set by
.ci/run after `npm install`); a host that is not found fails the run.
Exit code 0 when every scenario passed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import Failure, free_port

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
        if not self.record.exists():
            return []
        return [json.loads(line) for line in self.record.read_text().splitlines()]

    def seen(self):
        """Everything the model was sent, as one text."""
        return self.record.read_text() if self.record.exists() else ""

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Service:
    """`palisade serve` on a free port."""

    def __init__(self, root):
        self.proc = subprocess.Popen(
            [PALISADE, "serve", "--listen", "127.0.0.1:0"],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "RUST_LOG": "warn"},
        )
        line = self.proc.stdout.readline().strip()
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

    def read_call(self, path):
        return {"tool": "Read", "input": {"file_path": str(path)}}

    def scoped_read_call(self, work):
        # Claude Code's Grep names the file by its filter, under a path.
        return {"tool": "Grep", "input": {"pattern": ".", "path": str(work / ".aws"),
                                          "glob": "credentials", "output_mode": "content"}}

    def run(self, root, work, port, policy=None, http=None):
        config = root / "config"
        config.mkdir()
        env = {
            **os.environ,
            "HOME": str(root),
            "CLAUDE_CONFIG_DIR": str(config),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        install(self.name, "project", work, env, policy=policy, server=http)
        argv = [self.bin, "-p", "do the task", "--output-format", "json", "--allowedTools", "Bash Read Write Edit Grep"]
        return subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=120)


class Codex:
    name = "codex"
    shell = "exec_command"

    def __init__(self):
        self.bin = os.environ.get("CODEX_BIN") or shutil.which("codex")
        if not self.bin:
            raise Failure("Codex not found (set CODEX_BIN)")

    def shell_call(self, line):
        return {"tool": "exec_command", "input": {"cmd": line}}

    def read_call(self, path):
        return self.shell_call(f"cat {path}")

    def scoped_read_call(self, work):
        # The file is relative to the command's own working directory.
        return {"tool": "exec_command", "input": {"cmd": "cat credentials", "workdir": str(work / ".aws")}}

    def run(self, root, work, port, policy=None, http=None):
        home = root / "codex"
        home.mkdir()
        (home / "config.toml").write_text(
            'model = "gpt-5"\nmodel_provider = "fake"\n'
            "[model_providers.fake]\n"
            f'name = "fake"\nbase_url = "http://127.0.0.1:{port}/v1"\nwire_api = "responses"\nenv_key = "FAKE_KEY"\n'
        )
        env = {**os.environ, "HOME": str(root), "CODEX_HOME": str(home), "FAKE_KEY": "x", "CODEX_BIN": self.bin}
        # Installing records Codex's trust in the hooks (through Codex's own
        # app-server): no --dangerously-bypass-hook-trust below.
        install(self.name, "user", work, env, policy=policy)
        argv = [
            self.bin, "exec", "--json", "--skip-git-repo-check",
            "--sandbox", "danger-full-access", "do the task",
        ]
        return subprocess.run(
            argv, cwd=work, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
        )


class Gemini:
    name = "gemini-cli"
    shell = "run_shell_command"

    def __init__(self):
        self.js = os.environ.get("GEMINI_JS")
        if not self.js:
            raise Failure("Gemini CLI not found (set GEMINI_JS)")

    def shell_call(self, line):
        return {"tool": "run_shell_command", "input": {"command": line, "description": "run it"}}

    def read_call(self, path):
        # Gemini CLI itself refuses to read `.env` files (before any hook
        # runs), so its secret file is a private key.
        return {"tool": "read_file", "input": {"file_path": str(path.parent / "id_rsa")}}

    def scoped_read_call(self, work):
        # The file is relative to the command's own directory.
        return {"tool": "run_shell_command",
                "input": {"command": "cat credentials", "dir_path": str(work / ".aws"), "description": "run it"}}

    def run(self, root, work, port, policy=None, http=None):
        settings = root / ".gemini"
        settings.mkdir()
        (settings / "settings.json").write_text(json.dumps({
            "security": {"folderTrust": {"enabled": False}, "auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
        }))
        env = {
            **os.environ,
            "HOME": str(root),
            "GEMINI_API_KEY": "x",
            "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
        }
        install(self.name, "user", work, env, policy=policy)
        argv = ["node", self.js, "-p", "do the task", "--output-format", "json", "--yolo", "-m", "gemini-2.5-pro"]
        return subprocess.run(
            argv, cwd=work, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
        )


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
    """The texts the host sent back to the model as tool results."""
    out = []
    for r in models.requests():
        body = r.get("body") or {}
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
        if name == "claude-code":
            ok &= scenario(host, "the HTTP hook blocks a recursive delete",
                           lambda h, w: h.shell_call("rm -rf victim"), delete_blocked, http=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
