#!/usr/bin/env python3
r"""Collect the tool definitions that published MCP servers return from `tools/list`.

Each server listed in SERVERS below is started over stdio, sent `initialize`
(protocolVersion "2025-06-18", empty capabilities), the
`notifications/initialized` notification and then `tools/list` (following
`nextCursor` until it is absent). The tool objects are written unmodified to
benign.jsonl, one line per tool:

    {"id": "<server>/<tool name>", "source": "npm:<pkg>@<ver>" | "pypi:<pkg>==<ver>", "tool": {...}}

Lines are sorted by id; exact duplicate tool objects within one server are
dropped. Only servers whose package metadata states a license that permits
redistribution (see PERMISSIVE) are written. No server needs the network to
answer `tools/list`: every API key or token is a dummy value, and paths point
into a scratch directory.

Re-collecting
-------------
Everything is installed under one root (default /tmp/mcp-collect, override
with MCP_COLLECT_ROOT). `python3 collect.py install` installs every package at
the exact version pinned in SERVERS below; by hand that is:

  * npm (Node.js 20): each package in its own prefix,
        PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
        npm install --prefix $ROOT/npm/<dir> --no-audit --no-fund <package>@<version>
    where <dir> is the package name without "@" and with "/" replaced by "__".
    If that fails (or the server is marked legacy_peer_deps), the same with
    --legacy-peer-deps, then also with --ignore-scripts (no server here needs
    an install script to list its tools).
  * PyPI (Python 3.11): two venvs, each filled by one pip command:
        $ROOT/venv       the servers without venv= below, as <package>==<version>
        $ROOT/venv-mcp1  the servers with venv="venv-mcp1", plus "mcp<2"
                         (they still use APIs that the mcp 2.x SDK removed)

Then:

    python3 collect.py                  # writes benign.jsonl next to this file
    python3 collect.py --only git,time  # a subset; writes only with --out FILE
    python3 collect.py --table          # also prints the README's server table

Runs are reproducible: each server gets a fresh scratch directory at a fixed
path ($ROOT/scratch/<name>) as cwd, HOME and TMPDIR, and PYTHONHASHSEED=0
(one description, figma/download_figma_images, names that directory).

Requirements: Node.js 20 with npm, Python 3.11, git (the git servers get a
scratch repository). Plain standard library only.
"""

import argparse
import glob
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("MCP_COLLECT_ROOT", "/tmp/mcp-collect")
PROTOCOL_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "tooldefs-collector", "version": "1.0.0"}

D = "dummy"
AWS = {
    "AWS_ACCESS_KEY_ID": "AKIADUMMYDUMMYDUMMY0",
    "AWS_SECRET_ACCESS_KEY": D,
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "FASTMCP_LOG_LEVEL": "ERROR",
}

# name: short id prefix; npm/pypi: package; version: exact pinned version;
# bin: which bin (npm) or console script (pypi); entry: script path inside the
# npm package instead of a bin; venv: venv directory under ROOT (default
# "venv"); args/env: placeholders {tmp} (scratch dir) and {home} (scratch
# HOME); setup: extra preparation; host_dependent: regex over a tool's JSON;
# matching tools describe the machine they run on and are left out;
# legacy_peer_deps: install with npm's --legacy-peer-deps from the start.
SERVERS = [
    # --- npm: reference servers ---
    dict(name="filesystem", npm="@modelcontextprotocol/server-filesystem", version="2026.1.14", args=["{tmp}"]),
    dict(name="sequential-thinking", npm="@modelcontextprotocol/server-sequential-thinking", version="2025.12.18"),
    dict(name="memory", npm="@modelcontextprotocol/server-memory", version="2026.1.26",
         env={"MEMORY_FILE_PATH": "{tmp}/memory.jsonl"}),
    dict(name="everything", npm="@modelcontextprotocol/server-everything", version="2026.1.26", args=["stdio"]),
    dict(name="github", npm="@modelcontextprotocol/server-github", version="2025.4.8",
         env={"GITHUB_PERSONAL_ACCESS_TOKEN": D}),
    dict(name="postgres", npm="@modelcontextprotocol/server-postgres", version="0.6.2",
         args=["postgresql://dummy:dummy@127.0.0.1:9/dummy"]),
    dict(name="google-maps", npm="@modelcontextprotocol/server-google-maps", version="0.6.2",
         env={"GOOGLE_MAPS_API_KEY": D}),
    dict(name="slack", npm="@modelcontextprotocol/server-slack", version="2025.4.25",
         env={"SLACK_BOT_TOKEN": "xoxb-dummy", "SLACK_TEAM_ID": "T00000000"}),
    dict(name="brave-search-ref", npm="@modelcontextprotocol/server-brave-search", version="0.6.2",
         env={"BRAVE_API_KEY": D}),
    dict(name="puppeteer", npm="@modelcontextprotocol/server-puppeteer", version="2025.5.12"),
    # With npm's default peer resolution this one gets zod 4 next to its zod 3
    # schemas and then lists every inputSchema empty.
    dict(name="gitlab-ref", npm="@modelcontextprotocol/server-gitlab", version="2025.4.25", legacy_peer_deps=True,
         env={"GITLAB_PERSONAL_ACCESS_TOKEN": D, "GITLAB_API_URL": "http://127.0.0.1:9/api/v4"}),
    dict(name="gdrive", npm="@modelcontextprotocol/server-gdrive", version="2025.1.14",
         env={"GDRIVE_CREDENTIALS_PATH": "{tmp}/gdrive-credentials.json",
              "GDRIVE_OAUTH_PATH": "{tmp}/gcp-oauth.keys.json"},
         setup="gdrive"),
    # --- npm: vendor and community servers ---
    dict(name="playwright", npm="@playwright/mcp", version="0.0.83", args=["--headless"]),
    dict(name="chrome-devtools", npm="chrome-devtools-mcp", version="1.11.0", bin="chrome-devtools-mcp",
         args=["--headless", "--no-usage-statistics"]),
    dict(name="context7", npm="@upstash/context7-mcp", version="4.1.1"),
    dict(name="supabase", npm="@supabase/mcp-server-supabase", version="0.13.0",
         args=["--access-token", D, "--features",
               "account,database,debugging,development,functions,branching,storage"],
         env={"SUPABASE_ACCESS_TOKEN": D}),
    dict(name="notion", npm="@notionhq/notion-mcp-server", version="2.5.2", env={"NOTION_TOKEN": D}),
    dict(name="mongodb", npm="mongodb-mcp-server", version="3.0.4",
         env={"MDB_MCP_CONNECTION_STRING": "mongodb://127.0.0.1:9/dummy", "MDB_MCP_TELEMETRY": "disabled",
              "MDB_MCP_LOG_PATH": "{tmp}/mongodb-logs"}),
    dict(name="stripe", npm="@stripe/mcp", version="0.2.5", args=["--tools=all", "--api-key=sk_test_dummy"]),
    dict(name="tavily", npm="tavily-mcp", version="0.2.22", env={"TAVILY_API_KEY": "tvly-dummy"}),
    dict(name="gitlab", npm="@zereight/mcp-gitlab", version="2.1.64", bin="mcp-gitlab",
         env={"GITLAB_PERSONAL_ACCESS_TOKEN": D, "GITLAB_API_URL": "http://127.0.0.1:9/api/v4"}),
    dict(name="firecrawl", npm="firecrawl-mcp", version="3.22.2", env={"FIRECRAWL_API_KEY": "fc-dummy"}),
    # Inside a container this server writes what it detects about the machine
    # (container type, mounted folders, hostname) into several descriptions;
    # those tools are left out rather than recorded with one machine's details.
    dict(name="desktop-commander", npm="@wonderwhy-er/desktop-commander", version="0.2.52", bin="desktop-commander",
         host_dependent=r"CONTAINER ENVIRONMENT DETECTED|\U0001F433 DOCKER|\\nContainer: "),
    dict(name="exa", npm="exa-mcp-server", version="3.4.1", env={"EXA_API_KEY": D}),
    dict(name="figma", npm="figma-developer-mcp", version="0.13.2", args=["--stdio"], env={"FIGMA_API_KEY": D}),
    dict(name="playwright-ea", npm="@executeautomation/playwright-mcp-server", version="1.0.12"),
    dict(name="dbhub", npm="@bytebase/dbhub", version="0.21.2",
         args=["--transport", "stdio", "--dsn", "sqlite://{tmp}/dbhub.sqlite"]),
    dict(name="hubspot", npm="@hubspot/mcp-server", version="0.4.0", env={"PRIVATE_APP_ACCESS_TOKEN": D}),
    dict(name="brave-search", npm="@brave/brave-search-mcp-server", version="2.1.4",
         args=["--transport", "stdio"], env={"BRAVE_API_KEY": D}),
    dict(name="kubernetes", npm="mcp-server-kubernetes", version="4.1.7",
         env={"KUBECONFIG": "{tmp}/kubeconfig"}, setup="kubeconfig"),
    dict(name="kubernetes-go", npm="kubernetes-mcp-server", version="0.0.67",
         args=["--kubeconfig", "{tmp}/kubeconfig"], env={"KUBECONFIG": "{tmp}/kubeconfig"}, setup="kubeconfig"),
    dict(name="heroku", npm="@heroku/mcp-server", version="1.0.7", env={"HEROKU_API_KEY": D}),
    dict(name="git-cyanheads", npm="@cyanheads/git-mcp-server", version="2.15.3",
         env={"GIT_BASE_DIR": "{tmp}/repo", "MCP_LOG_LEVEL": "error", "LOGS_DIR": "{tmp}/logs"}, setup="git"),
    dict(name="airtable", npm="airtable-mcp-server", version="1.14.0", env={"AIRTABLE_API_KEY": D}),
    dict(name="asana", npm="@roychri/mcp-server-asana", version="1.8.0", env={"ASANA_ACCESS_TOKEN": D}),
    dict(name="circleci", npm="@circleci/mcp-server-circleci", version="0.20.0", env={"CIRCLECI_TOKEN": D}),
    dict(name="datadog", npm="@winor30/mcp-server-datadog", version="1.8.0",
         env={"DATADOG_API_KEY": D, "DATADOG_APP_KEY": D}),
    dict(name="cloudflare", npm="@cloudflare/mcp-server-cloudflare", version="0.2.0", args=["run", D],
         env={"CLOUDFLARE_API_TOKEN": D, "CLOUDFLARE_ACCOUNT_ID": D}),
    dict(name="pinecone", npm="@pinecone-database/mcp", version="0.3.0", env={"PINECONE_API_KEY": D}),
    dict(name="todoist", npm="@doist/todoist-mcp", version="11.0.0", bin="todoist-mcp",
         env={"TODOIST_API_KEY": D}),
    dict(name="linear", npm="linear-mcp", version="1.2.0", env={"LINEAR_API_KEY": D}),
    dict(name="jira", npm="@aashari/mcp-server-atlassian-jira", version="3.3.0",
         env={"ATLASSIAN_SITE_NAME": D, "ATLASSIAN_USER_EMAIL": "dummy@example.com", "ATLASSIAN_API_TOKEN": D}),
    dict(name="launchdarkly", npm="@launchdarkly/mcp-server", version="0.6.2", args=["start", "--api-key", D]),
    dict(name="shortcut", npm="@shortcut/mcp", version="0.25.0", env={"SHORTCUT_API_TOKEN": D}),
    dict(name="google-calendar", npm="@cocal/google-calendar-mcp", version="2.6.3",
         env={"GOOGLE_OAUTH_CREDENTIALS": "{tmp}/gcp-oauth.keys.json"}, setup="gdrive"),
    dict(name="airbnb", npm="@openbnb/mcp-server-airbnb", version="0.3.0", args=["--ignore-robots-txt"]),
    dict(name="searxng", npm="mcp-searxng", version="1.16.0", env={"SEARXNG_URL": "http://127.0.0.1:9"}),
    dict(name="chart", npm="@antv/mcp-server-chart", version="0.9.10"),
    dict(name="pdf-reader", npm="@sylphx/pdf-reader-mcp", version="2.4.0"),
    dict(name="perplexity", npm="@perplexity-ai/mcp-server", version="1.2.1", env={"PERPLEXITY_API_KEY": D}),
    dict(name="mermaid", npm="mcp-mermaid", version="0.4.1"),
    dict(name="gmail", npm="@gongrzhe/server-gmail-autoauth-mcp", version="1.1.11",
         env={"GMAIL_OAUTH_PATH": "{tmp}/gcp-oauth.keys.json", "GMAIL_CREDENTIALS_PATH": "{tmp}/gmail-credentials.json"},
         setup="gdrive"),
    dict(name="google-drive", npm="@piotr-agier/google-drive-mcp", version="2.10.0",
         env={"GOOGLE_DRIVE_OAUTH_CREDENTIALS": "{tmp}/gcp-oauth.keys.json",
              "GOOGLE_DRIVE_MCP_TOKEN_PATH": "{tmp}/gdrive-credentials.json"}, setup="gdrive"),
    dict(name="terraform", npm="terraform-mcp-server", version="0.13.0"),
    dict(name="docker", npm="mcp-server-docker", version="1.0.0"),
    dict(name="docker-manager", npm="@0xshariq/docker-mcp-server", version="2.0.4", entry="dist/index.js"),
    dict(name="sqlite", npm="mcp-sqlite", version="1.0.9", args=["{tmp}/mcp-sqlite.db"]),
    dict(name="database-ea", npm="@executeautomation/database-server", version="1.1.0",
         args=["{tmp}/ea.sqlite"]),
    # --- PyPI, venv "venv" (latest versions; these run on the mcp 2.x SDK) ---
    dict(name="git", pypi="mcp-server-git", version="2026.10.19", bin="mcp-server-git",
         args=["--repository", "{tmp}/repo"], setup="git"),
    dict(name="fetch", pypi="mcp-server-fetch", version="2026.10.24", bin="mcp-server-fetch"),
    dict(name="time", pypi="mcp-server-time", version="2026.10.19", bin="mcp-server-time",
         args=["--local-timezone", "UTC"]),
    dict(name="aws-documentation", pypi="awslabs.aws-documentation-mcp-server", version="1.2.3",
         bin="awslabs.aws-documentation-mcp-server", env=dict(AWS, AWS_DOCUMENTATION_PARTITION="aws")),
    dict(name="aws-pricing", pypi="awslabs.aws-pricing-mcp-server", version="1.1.1",
         bin="awslabs.aws-pricing-mcp-server", env=AWS),
    dict(name="aws-cloudwatch", pypi="awslabs.cloudwatch-mcp-server", version="0.3.1",
         bin="awslabs.cloudwatch-mcp-server", env=AWS),
    dict(name="aws-eks", pypi="awslabs.eks-mcp-server", version="0.2.1", bin="awslabs.eks-mcp-server", env=AWS),
    dict(name="aws-iam", pypi="awslabs.iam-mcp-server", version="1.1.2", bin="awslabs.iam-mcp-server", env=AWS),
    dict(name="clickhouse", pypi="mcp-clickhouse", version="0.2.0", bin="mcp-clickhouse",
         env={"CLICKHOUSE_HOST": "127.0.0.1", "CLICKHOUSE_PORT": "9", "CLICKHOUSE_USER": D,
              "CLICKHOUSE_PASSWORD": D, "CLICKHOUSE_SECURE": "false"}),
    dict(name="markitdown", pypi="markitdown-mcp", version="0.0.1a8", bin="markitdown-mcp"),
    dict(name="duckduckgo", pypi="duckduckgo-mcp-server", version="0.7.0", bin="duckduckgo-mcp-server"),
    dict(name="excel", pypi="excel-mcp-server", version="2.2.2", bin="excel-mcp-server", args=["stdio"],
         env={"EXCEL_FILES_PATH": "{tmp}"}),
    dict(name="kubectl", pypi="kubectl-mcp-server", version="2.0.0", bin="kubectl-mcp",
         args=["serve", "--transport", "stdio"], env={"KUBECONFIG": "{tmp}/kubeconfig"}, setup="kubeconfig"),
    # --- PyPI, venv "venv-mcp1" (installed together with the constraint mcp<2) ---
    dict(name="atlassian", pypi="mcp-atlassian", version="0.23.1", bin="mcp-atlassian", venv="venv-mcp1",
         env={"JIRA_URL": "http://127.0.0.1:9", "JIRA_USERNAME": "dummy@example.com", "JIRA_API_TOKEN": D,
              "CONFLUENCE_URL": "http://127.0.0.1:9/wiki", "CONFLUENCE_USERNAME": "dummy@example.com",
              "CONFLUENCE_API_TOKEN": D}),
    dict(name="aws-dynamodb", pypi="awslabs.dynamodb-mcp-server", version="2.0.23", venv="venv-mcp1",
         bin="awslabs.dynamodb-mcp-server", env=AWS),
    dict(name="aws-iac", pypi="awslabs.aws-iac-mcp-server", version="1.0.26", venv="venv-mcp1",
         bin="awslabs.aws-iac-mcp-server", env=AWS),
    dict(name="duckdb", pypi="mcp-server-duckdb", version="1.1.0", bin="mcp-server-duckdb", venv="venv-mcp1",
         args=["--db-path", "{tmp}/duck.db"]),
    dict(name="motherduck", pypi="mcp-server-motherduck", version="1.0.8", bin="mcp-server-motherduck",
         venv="venv-mcp1", args=["--db-path", ":memory:", "--read-write"]),
    dict(name="arxiv", pypi="arxiv-mcp-server", version="0.8.2", bin="arxiv-mcp-server", venv="venv-mcp1",
         args=["--storage-path", "{tmp}/arxiv"]),
    dict(name="redis", pypi="redis-mcp-server", version="0.5.1", bin="redis-mcp-server", venv="venv-mcp1",
         args=["--url", "redis://127.0.0.1:9/0"]),
    dict(name="shell", pypi="mcp-shell-server", version="1.1.14", bin="mcp-shell-server", venv="venv-mcp1",
         env={"ALLOW_COMMANDS": "ls,cat,echo,pwd"}),
    dict(name="calculator", pypi="mcp-server-calculator", version="0.2.1", bin="mcp-server-calculator",
         venv="venv-mcp1"),
    dict(name="obsidian", pypi="mcp-obsidian", version="0.2.3", bin="mcp-obsidian", venv="venv-mcp1",
         env={"OBSIDIAN_API_KEY": D, "OBSIDIAN_HOST": "127.0.0.1", "OBSIDIAN_PORT": "9"}),
    dict(name="chroma", pypi="chroma-mcp", version="0.2.5", bin="chroma-mcp", venv="venv-mcp1",
         args=["--client-type", "ephemeral"]),
]

# Licenses (SPDX ids, or the first line of a shipped license file) that permit
# redistribution of the text.
PERMISSIVE = re.compile(
    r"^(MIT|ISC|Apache-2\.0|BSD-2-Clause|BSD-3-Clause|0BSD|Unlicense|CC0-1\.0|"
    r"The MIT License \(MIT\)|MIT License|Apache License|Apache Software License)(?![A-Za-z0-9])"
)


def prefix_dir(pkg):
    return os.path.join(ROOT, "npm", pkg.lstrip("@").replace("/", "__"))


def venv_dir(spec):
    return os.path.join(ROOT, spec.get("venv", "venv"))


def site_packages(spec):
    hits = glob.glob(os.path.join(venv_dir(spec), "lib", "python3*", "site-packages"))
    return hits[0] if hits else None


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def license_file_head(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip().lstrip("#").strip()
                if line:
                    return line
    except OSError:
        pass
    return None


def npm_meta(spec):
    """(installed version, license string, path to package dir)."""
    pdir = os.path.join(prefix_dir(spec["npm"]), "node_modules", spec["npm"])
    with open(os.path.join(pdir, "package.json"), encoding="utf-8") as f:
        pj = json.load(f)
    lic = pj.get("license")
    if isinstance(lic, dict):
        lic = lic.get("type")
    if not lic or lic.startswith("SEE LICENSE"):
        files = sorted(glob.glob(os.path.join(pdir, "LICEN[CS]E*")))
        head = license_file_head(files[0]) if files else None
        lic = (lic + "; " if lic else "no license field; ") + (
            f"{os.path.basename(files[0])}: {head}" if head else "no license file")
    return pj["version"], lic, pdir, pj


def pypi_meta(spec):
    sp = site_packages(spec)
    if not sp:
        raise FileNotFoundError("venv missing")
    for md in glob.glob(os.path.join(sp, "*.dist-info", "METADATA")):
        fields = {}
        classifiers = []
        license_files = []
        with open(md, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line in ("\n", "\r\n"):
                    break
                k, _, v = line.partition(":")
                v = v.strip()
                if k == "Classifier" and v.startswith("License"):
                    classifiers.append(v.split("::")[-1].strip())
                elif k == "License-File":
                    license_files.append(v)
                elif k in ("Name", "Version", "License", "License-Expression"):
                    fields.setdefault(k, v)
        if norm(fields.get("Name", "")) != norm(spec["pypi"]):
            continue
        lic = fields.get("License-Expression") or fields.get("License") or (classifiers[0] if classifiers else "")
        if not lic and license_files:
            d = os.path.dirname(md)
            for cand in (os.path.join(d, "licenses", license_files[0]), os.path.join(d, license_files[0])):
                head = license_file_head(cand)
                if head:
                    lic = f"License-File {license_files[0]}: {head}"
                    break
        return fields["Version"], lic or "", fields["Name"]
    raise FileNotFoundError(f"{spec['pypi']} not installed in {venv_dir(spec)}")


def license_ok(lic):
    lic = lic or ""
    if PERMISSIVE.match(lic):
        return True
    m = re.search(r"(?:LICEN[CS]E[^:]*|License-File [^:]+): (.*)$", lic)
    return bool(m and PERMISSIVE.match(m.group(1)))


def npm_command(spec, pdir, pj):
    bins = pj.get("bin")
    if "entry" in spec:
        rel = spec["entry"]
    elif isinstance(bins, str):
        rel = bins
    elif isinstance(bins, dict) and bins:
        rel = bins[spec["bin"]] if "bin" in spec else next(iter(bins.values()))
    else:
        rel = pj.get("main", "index.js")
    return ["node", os.path.join(pdir, rel)]


def setup_scratch(spec, tmp):
    kind = spec.get("setup")
    if kind == "git":
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo, exist_ok=True)
        env = dict(os.environ, GIT_AUTHOR_NAME="d", GIT_AUTHOR_EMAIL="d@example.com",
                   GIT_COMMITTER_NAME="d", GIT_COMMITTER_EMAIL="d@example.com", HOME=tmp)
        subprocess.run(["git", "init", "-q", repo], check=True, env=env)
        with open(os.path.join(repo, "README"), "w") as f:
            f.write("scratch\n")
        subprocess.run(["git", "-C", repo, "add", "README"], check=True, env=env)
        subprocess.run(["git", "-C", repo, "commit", "-q", "-m", "init"], check=True, env=env)
    elif kind == "kubeconfig":
        with open(os.path.join(tmp, "kubeconfig"), "w") as f:
            f.write(
                "apiVersion: v1\nkind: Config\ncurrent-context: dummy\n"
                "clusters:\n- name: dummy\n  cluster:\n    server: https://127.0.0.1:9\n"
                "contexts:\n- name: dummy\n  context:\n    cluster: dummy\n    user: dummy\n"
                "users:\n- name: dummy\n  user:\n    token: dummy\n"
            )
    elif kind == "gdrive":
        keys = {"installed": {"client_id": "dummy.apps.googleusercontent.com", "client_secret": D,
                              "redirect_uris": ["http://localhost"], "auth_uri": "http://127.0.0.1:9/auth",
                              "token_uri": "http://127.0.0.1:9/token", "project_id": D}}
        creds = {"access_token": D, "refresh_token": D, "token_type": "Bearer", "expiry_date": 4102444800000,
                 "scope": "https://www.googleapis.com/auth/drive.readonly"}
        for name, obj in (("gcp-oauth.keys.json", keys), ("gdrive-credentials.json", creds),
                          ("gmail-credentials.json", creds)):
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(obj, f)


def subst(value, tmp, home):
    return value.replace("{tmp}", tmp).replace("{home}", home)


class Session:
    def __init__(self, argv, env, cwd):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=cwd, start_new_session=True)
        self.msgs = queue.Queue()
        self.stderr_tail = []
        self.noise = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", errors="replace").strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                self.noise += 1
                continue
            if isinstance(msg, dict):
                self.msgs.put(msg)
        self.msgs.put(None)

    def _read_stderr(self):
        for raw in self.proc.stderr:
            self.stderr_tail.append(raw.decode("utf-8", errors="replace").rstrip())
            del self.stderr_tail[:-20]

    def send(self, obj):
        self.proc.stdin.write((json.dumps(obj) + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def request(self, rid, method, params, deadline):
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"timed out waiting for {method}")
            try:
                msg = self.msgs.get(timeout=left)
            except queue.Empty:
                raise TimeoutError(f"timed out waiting for {method}")
            if msg is None:
                raise RuntimeError(f"server exited (code {self.proc.poll()}) before answering {method}")
            if "method" in msg and "id" in msg:  # a request from the server
                result = {"roots": []} if msg["method"] == "roots/list" else {}
                if msg["method"] in ("ping", "roots/list"):
                    self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                else:
                    self.send({"jsonrpc": "2.0", "id": msg["id"],
                               "error": {"code": -32601, "message": "not supported"}})
                continue
            if msg.get("id") == rid and "method" not in msg:
                if "error" in msg:
                    raise RuntimeError(f"{method} error: {json.dumps(msg['error'])[:300]}")
                return msg.get("result", {})

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(timeout=3)
                    break
                except subprocess.TimeoutExpired:
                    pass


def collect_one(spec, timeout):
    """Returns (source, license, tools, server_info)."""
    if "npm" in spec:
        version, lic, pdir, pj = npm_meta(spec)
        argv = npm_command(spec, pdir, pj)
        source = f"npm:{spec['npm']}@{version}"
    else:
        version, lic, dist_name = pypi_meta(spec)
        argv = [os.path.join(venv_dir(spec), "bin", spec["bin"])]
        source = f"pypi:{dist_name}=={version}"
    if version != spec["version"]:
        print(f"  note: {spec['name']} installed {version}, pinned {spec['version']}", file=sys.stderr)
    # A fixed scratch path (not mkdtemp) so that descriptions which mention the
    # working directory come out the same on every run.
    tmp = os.path.join(ROOT, "scratch", spec["name"])
    shutil.rmtree(tmp, ignore_errors=True)
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    try:
        setup_scratch(spec, tmp)
        env = {
            "PATH": os.path.join(venv_dir(spec), "bin") + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home, "LANG": "C.UTF-8", "TMPDIR": tmp, "PYTHONUNBUFFERED": "1", "PYTHONHASHSEED": "0",
            "NO_UPDATE_NOTIFIER": "1", "DO_NOT_TRACK": "1", "NODE_NO_WARNINGS": "1",
        }
        env.update({k: subst(v, tmp, home) for k, v in spec.get("env", {}).items()})
        argv = argv + [subst(a, tmp, home) for a in spec.get("args", [])]
        sess = Session(argv, env, tmp)
        deadline = time.monotonic() + timeout
        try:
            init = sess.request(1, "initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                                                  "clientInfo": CLIENT_INFO}, deadline)
            sess.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            tools, cursor, rid = [], None, 2
            while True:
                params = {"cursor": cursor} if cursor else {}
                res = sess.request(rid, "tools/list", params, deadline)
                tools.extend(res.get("tools", []))
                cursor = res.get("nextCursor")
                rid += 1
                if not cursor or rid > 200:
                    break
        except Exception as e:
            tail = " | ".join(line for line in sess.stderr_tail[-4:] if line)[:600]
            raise RuntimeError(f"{e}; stderr: {tail}") from None
        finally:
            sess.close()
        return source, lic, tools, init.get("serverInfo", {})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# Extra requirements installed into a venv together with its servers.
VENV_EXTRA = {"venv-mcp1": ["mcp<2"]}


def install(specs):
    env = dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1")
    for spec in specs:
        if "npm" not in spec:
            continue
        d = prefix_dir(spec["npm"])
        os.makedirs(d, exist_ok=True)
        cmd = ["npm", "install", "--prefix", d, "--no-audit", "--no-fund", f"{spec['npm']}@{spec['version']}"]
        tries = [[], ["--legacy-peer-deps"], ["--legacy-peer-deps", "--ignore-scripts"]]
        if spec.get("legacy_peer_deps"):
            tries = tries[1:]
        for extra in tries:
            print("+", " ".join(cmd + extra), file=sys.stderr)
            if subprocess.run(cmd + extra, env=env).returncode == 0:
                break
        else:
            print(f"install failed: {spec['npm']}", file=sys.stderr)
    by_venv = {}
    for spec in specs:
        if "pypi" in spec:
            by_venv.setdefault(spec.get("venv", "venv"), []).append(f"{spec['pypi']}=={spec['version']}")
    for venv, reqs in by_venv.items():
        vd = os.path.join(ROOT, venv)
        if not os.path.exists(os.path.join(vd, "bin", "python")):
            subprocess.run([sys.executable, "-m", "venv", vd], check=True)
        cmd = [os.path.join(vd, "bin", "pip"), "install"] + VENV_EXTRA.get(venv, []) + reqs
        print("+", " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", nargs="?", default="collect", choices=["collect", "install"])
    ap.add_argument("--only", help="comma-separated server names")
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds per server")
    ap.add_argument("--jobs", type=int, default=2, help="servers run at once")
    ap.add_argument("--out", help="output path (default: benign.jsonl beside this script, "
                                  "or none with --only)")
    ap.add_argument("--table", action="store_true", help="print a markdown table of the servers")
    args = ap.parse_args()

    specs = SERVERS
    if args.only:
        wanted = set(args.only.split(","))
        specs = [s for s in SERVERS if s["name"] in wanted]
        unknown = wanted - {s["name"] for s in specs}
        if unknown:
            ap.error(f"unknown servers: {', '.join(sorted(unknown))}")
    if args.command == "install":
        install(specs)
        return
    out = args.out or (None if args.only else os.path.join(HERE, "benign.jsonl"))

    results = {}
    lock = threading.Lock()
    todo = list(specs)

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                spec = todo.pop(0)
            t0 = time.monotonic()
            try:
                r = collect_one(spec, args.timeout)
                msg = f"ok {spec['name']}: {len(r[2])} tools ({time.monotonic() - t0:.1f}s)"
            except Exception as e:  # noqa: BLE001 - report and go on
                r = e
                msg = f"FAIL {spec['name']}: {e}"
            with lock:
                results[spec["name"]] = r
                print(msg, file=sys.stderr)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    rows, table = [], []
    for spec in specs:
        r = results[spec["name"]]
        if isinstance(r, Exception):
            continue
        source, lic, tools, _info = r
        if not license_ok(lic):
            print(f"skip {spec['name']}: license {lic!r} not in the permissive list", file=sys.stderr)
            continue
        seen, kept, dups, host = set(), 0, 0, []
        host_re = re.compile(spec["host_dependent"]) if spec.get("host_dependent") else None
        for tool in tools:
            key = json.dumps(tool, sort_keys=True, ensure_ascii=False)
            if key in seen:
                dups += 1
                continue
            seen.add(key)
            if host_re and host_re.search(key):
                host.append(tool.get("name"))
                continue
            kept += 1
            rows.append((f"{spec['name']}/{tool.get('name')}", key,
                         {"id": f"{spec['name']}/{tool.get('name')}", "source": source, "tool": tool}))
        if dups:
            print(f"  {spec['name']}: dropped {dups} exact duplicate tool objects", file=sys.stderr)
        if host:
            print(f"  {spec['name']}: left out {len(host)} host-dependent tools: {', '.join(host)}",
                  file=sys.stderr)
        pkg, _, ver = source.partition(":")[2].rpartition("==" if source.startswith("pypi:") else "@")
        table.append((spec["name"], source.split(":")[0], pkg.rstrip("="), ver, lic, kept))
    rows.sort(key=lambda r: (r[0], r[1]))
    if out:
        with open(out, "w", encoding="utf-8") as f:
            for _id, _key, obj in rows:
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")
        print(f"wrote {len(rows)} tools from {len(table)} servers to {out}", file=sys.stderr)
    else:
        print(f"{len(rows)} tools from {len(table)} servers (not written)", file=sys.stderr)
    if args.table:
        print("| server | registry | package | version | license | tools |")
        print("| --- | --- | --- | --- | --- | ---: |")
        for name, reg, pkg, ver, lic, n in sorted(table):
            print(f"| {name} | {reg} | `{pkg}` | {ver} | {lic} | {n} |")


if __name__ == "__main__":
    main()
